"""Issue 28, stop 40 (found on the fourth real corpus's dev half): a proposal or a wish of the
speaker's own ("we should use PostgreSQL", "we want to migrate"), a memory ("I remember being
able to buy it for $3.50") and a condition ("depending on traffic") replace nothing; a news
figure "X, up from Y" retires Y."""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed, fact_of, value_of


@pytest.mark.parametrize("after", [
    "We should use PostgreSQL instead of MySQL.",
    "Instead of MySQL, we should use PostgreSQL.",
    "We want to migrate from MySQL to PostgreSQL.",
    "I want to switch from MySQL to PostgreSQL for a number of reasons: - stability - JSON",
])
def test_a_proposal_or_a_wish_of_ones_own_replaces_nothing(after: str) -> None:
    ledger = absorbed(("user", "We use MySQL 8.0."), ("user", after))
    assert fact_of(ledger, "MySQL 8.0").status == "current"


@pytest.mark.parametrize(("before", "after", "old", "new"), [
    ("The dev server listens on port 8081.", "It should be 8080.", "8081", "8080"),
    ("The TTL is 60 s.", "Actually the TTL should be 120 s.", "60 s", "120 s"),
])
def test_what_a_value_should_be_still_corrects_it(before: str, after: str, old: str,
                                                  new: str) -> None:
    ledger = absorbed(("user", before), ("user", after))
    earlier = fact_of(ledger, old)  # replaced, or possibly where "it" names no key
    assert new in (value_of(ledger, earlier.replaced_by),
                   value_of(ledger, earlier.possibly_replaced_by))


def test_a_remembered_price_is_no_current_one() -> None:
    ledger = absorbed(("user", "A bag of it was $5.87! I remember being able to buy a bag for "
                               "$3.50 and there were 26 pieces in it."))
    assert not any(f.value == "$3.50" and f.status == "current" for f in ledger)
    assert fact_of(ledger, "$5.87").status == "current"


def test_a_condition_of_depending_on_replaces_nothing() -> None:
    ledger = absorbed(("user", "We leave at 7:00."),
                      ("user", "Depending on traffic, we leave at 7:30."))
    earlier = fact_of(ledger, "7:00")
    assert earlier.status == "current" and earlier.replaced_by is None


@pytest.mark.parametrize(("said", "old", "new"), [
    (("The fare is $1.50.", "The fare is now $2.00, up from $1.50."), "$1.50", "$2.00"),
    (("Cash fares will now be $2.00 for adults, up from the current $1.50 rate.",), "$1.50",
     "$2.00"),
    (("The kickoff is at 3:25 p.m., moved up from the original 12:00 p.m. kickoff.",),
     "12:00 p.m.", "3:25 p.m."),
    (("The limit is 500 MB, down from 800 MB.",), "800 MB", "500 MB"),
])
def test_a_figure_up_or_down_from_another_retires_it(said: tuple[str, ...], old: str,
                                                     new: str) -> None:
    ledger = absorbed(*(("user", text) for text in said))
    assert value_of(ledger, fact_of(ledger, old).replaced_by) == new


def test_up_from_without_a_new_figure_retires_nothing() -> None:
    ledger = absorbed(("user", "We start at 9:00. Attendance is up from 40 last year."))
    assert fact_of(ledger, "9:00").status == "current"
    assert all(f.replaced_by is None for f in ledger)


@pytest.mark.parametrize(("before", "after", "old", "new"), [
    ("Giant's max upload size is 250 MB.", "Bump max upload size to 300", "250 MB", "300"),
    ("The request timeout is 30 seconds.", "Set the request timeout to 45.", "30 seconds", "45"),
])
def test_a_change_of_the_same_noun_phrase_may_leave_the_unit_out(before: str, after: str,
                                                                 old: str, new: str) -> None:
    ledger = absorbed(("user", before), ("user", after))
    assert value_of(ledger, fact_of(ledger, old).replaced_by) == new


def test_a_bare_number_of_another_noun_phrase_keeps_the_measure() -> None:
    ledger = absorbed(("user", "The max upload size is 250 MB."),
                      ("user", "Set the max upload count to 300."))
    assert fact_of(ledger, "250 MB").status == "current"
