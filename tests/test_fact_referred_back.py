"""Issue 28, stop 39: a correction that gives a bare number and names no key ("correction:
it is 8080", "sorry, it's 16 now", "no wait, 16") takes back the one value a bare number can
stand for (a port, a count) in the latest message that stated values, and takes on its key.
Where that message states several such values, or only values a number never stands for (a
date, an amount), nothing is replaced."""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed, fact_of, value_of


@pytest.mark.parametrize(("first", "then", "old", "new"), [
    ("The metrics exporter listens on port 9101.", "Correction: it is 9102.", "9101", "9102"),
    ("Our render farm has 24 nodes.", "Sorry, it's 32 now.", "24 nodes", "32"),
    ("The mail relay uses port 2525.", "No wait, 587.", "2525", "587"),
])
def test_a_bare_number_takes_back_what_it_points_at(first: str, then: str, old: str,
                                                    new: str) -> None:
    ledger = absorbed(("user", first), ("user", then))
    taken = fact_of(ledger, old)
    assert taken.status == "replaced" and value_of(ledger, taken.replaced_by) == new
    assert fact_of(ledger, new).key == taken.key


def test_two_numbers_in_the_message_before_leave_both() -> None:
    ledger = absorbed(("user", "The render farm has 24 nodes and the queue has 6 workers."),
                      ("user", "Sorry, it's 32 now."))
    for old in ("24 nodes", "6 workers"):
        assert fact_of(ledger, old).status == "current"


@pytest.mark.parametrize("first", ["The retro is on Thursday.", "The venue costs £400."])
def test_a_number_never_stands_for_a_date_or_an_amount(first: str) -> None:
    ledger = absorbed(("user", first), ("user", "Sorry, it's 32 now."))
    assert all(f.status == "current" for f in ledger)


def test_a_question_replaces_nothing() -> None:
    ledger = absorbed(("user", "The metrics exporter listens on port 9101."),
                      ("user", "Is it 9102 now?"))
    assert fact_of(ledger, "9101").status == "current"


def test_a_plain_statement_marks_what_it_points_at_never_silently() -> None:
    ledger = absorbed(("user", "The metrics exporter listens on port 9101."),
                      ("user", "It should be 9102."))
    old = fact_of(ledger, "9101")
    assert old.status == "current" and value_of(ledger, old.possibly_replaced_by) == "9102"
    assert fact_of(ledger, "9102").key == old.key


def test_the_value_a_change_took_back_is_the_same_key() -> None:
    ledger = absorbed(("user", "I changed the exporter port from 9100 to 9101."),
                      ("user", "Correction: it is 9100."))
    later = fact_of(ledger, "9101")
    assert later.status == "replaced" and value_of(ledger, later.replaced_by) == "9100"
