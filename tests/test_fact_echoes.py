"""Issue 28: a value a message replaces, named again later in the same message to say why, is
not stated anew ("Change the port to 8877. … because 8080 is over used" sent 8080 as current
beside 8877). A message that takes its own change back, or names the value without replacing
it, keeps the value current."""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed, fact_of, value_of


@pytest.mark.parametrize(("before", "after", "old", "new"), [
    ("The default HTTP port is 8080.",
     "Change the default HTTP port to 8877. We picked it because 8080 is taken by other local "
     "services.", "8080", "8877"),
    ("The upload limit is 50 MB.",
     "Raise the upload limit to 100 MB. The old 50 MB was too small for the scans.",
     "50 MB", "100 MB"),
])
def test_an_echo_of_the_replaced_value_is_not_current(before: str, after: str, old: str,
                                                      new: str) -> None:
    ledger = absorbed(("user", before), ("user", after))
    olds = [f for f in ledger if f.value == old]
    assert olds  # the earlier statement (and the echo, where it is read as a value)
    assert all(f.status == "replaced" and value_of(ledger, f.replaced_by) == new for f in olds)
    assert fact_of(ledger, new).status == "current"


@pytest.mark.parametrize(("before", "after", "other"), [
    ("The timeout is 30 seconds.", "Set the timeout to 60 seconds. The retry delay is 30 seconds.",
     "30 seconds"),
    ("The budget is $500.", "Raise the budget to $800. Catering costs $500.", "$500"),
    ("The oven is at 200C.", "Lower the oven to 180C. Keep the grill at 200C.", "200C"),
    ("The timeout is 30 seconds.", "Set the timeout to 60 seconds; retry delay: 30 seconds.",
     "30 seconds"),
])
def test_the_same_value_stated_for_another_key_stays_current(before: str, after: str,
                                                             other: str) -> None:
    ledger = absorbed(("user", before), ("user", after))
    assert [f.status for f in ledger if f.value == other] == ["replaced", "current"]


def test_a_value_stated_in_a_message_that_replaces_nothing_stays_current() -> None:
    ledger = absorbed(("user", "Raise the upload limit to 100 MB. Users kept hitting 50 MB."))
    assert fact_of(ledger, "100 MB").status == "current"
    assert all(f.status == "current" for f in ledger)
