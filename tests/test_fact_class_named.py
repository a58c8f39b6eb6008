"""Issue 28: a correction whose key is only its unit class's own word ("change the time to
4pm", "the date moved to May 20") refers back, as "make that 12" does: it replaces the one
earlier value of its kind, and with two of them it replaces neither silently."""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed, fact_of, value_of


@pytest.mark.parametrize(("before", "after", "old", "new"), [
    ("The pitch meeting with the investors is at 10:30.", "Change the time to 11:15.",
     "10:30", "11:15"),
    ("The garden party is on June 7 at the vicarage.",
     "The hosts have pushed the date back to June 21.", "June 7", "June 21"),
])
def test_a_class_word_key_replaces_the_one_value_of_its_kind(before: str, after: str,
                                                             old: str, new: str) -> None:
    ledger = absorbed(("user", before), ("user", after))
    assert fact_of(ledger, old).status == "replaced"
    assert value_of(ledger, fact_of(ledger, old).replaced_by) == new


def test_with_two_values_of_its_kind_neither_is_replaced() -> None:
    ledger = absorbed(("user", "Breakfast is at 7:30 and the shuttle leaves at 8:45."),
                      ("user", "Change the time to 9:00."))
    assert fact_of(ledger, "7:30").status == "current"
    assert fact_of(ledger, "8:45").status == "current"
