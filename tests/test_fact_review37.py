"""The reviewer's findings 1, 3, 4, 5 and 12 on the merged fact engine (REVIEW37), each as the
reviewer's sentence and one or two of its own shape in other words."""

from __future__ import annotations

from tests.engine_fakes import absorbed, fact_of, value_of


# 1. "one" after an owner or an ordinal keeps them; only "the right one" refers back keyless.
def test_the_second_one_after_scratch_that_is_the_lists_second() -> None:
    ledger = absorbed(("user", "Sessions 2026-12-05, 2026-12-19 and 2027-01-09."),
                      ("user", "scratch that, the second one is 2026-12-20"))
    old = fact_of(ledger, "2026-12-19")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "2026-12-20"
    assert fact_of(ledger, "2026-12-05").status == "current"


def test_the_owners_one_replaces_only_that_owners_value() -> None:
    ledger = absorbed(("user", "The front door code is 4412 and the garage door code is 9087."),
                      ("user", "Actually the garage one is 9088."))
    old = fact_of(ledger, "9087")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "9088"
    front = fact_of(ledger, "4412")
    assert front.status == "current" and front.possibly_replaced_by is None


def test_the_right_one_still_refers_back_to_its_units_value() -> None:
    ledger = absorbed(("user", "The meeting is at 9:30."),
                      ("user", "Sorry, the right one is 9:45."))
    old = fact_of(ledger, "9:30")
    assert old.status == "replaced" and value_of(ledger, old.replaced_by) == "9:45"
