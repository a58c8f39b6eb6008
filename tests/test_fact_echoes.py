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
     "Raise the upload limit to 100 MB. Users kept hitting 50 MB with their scans.",
     "50 MB", "100 MB"),
])
def test_an_echo_of_the_replaced_value_is_not_current(before: str, after: str, old: str,
                                                      new: str) -> None:
    ledger = absorbed(("user", before), ("user", after))
    olds = [f for f in ledger if f.value == old]
    assert len(olds) == 2  # the earlier statement and the echo, both read
    assert all(f.status == "replaced" and value_of(ledger, f.replaced_by) == new for f in olds)
    assert fact_of(ledger, new).status == "current"


def test_a_value_stated_in_a_message_that_replaces_nothing_stays_current() -> None:
    ledger = absorbed(("user", "Raise the upload limit to 100 MB. Users kept hitting 50 MB."))
    assert fact_of(ledger, "100 MB").status == "current"
    assert all(f.status == "current" for f in ledger)


def test_an_echo_naming_the_version_s_product_is_not_current() -> None:
    ledger = absorbed(("user", "The CLI's minimum Node.js version is v18."),
                      ("user", "Raise the minimum to Node.js v20.5. Stop testing on Node v18."))
    echo = next(f for f in ledger if f.value == "Node v18")
    assert echo.status == "replaced" and value_of(ledger, echo.replaced_by) == "Node.js v20.5"
