"""Issue 28, stop 40 (found on the fourth real corpus's dev half, then narrowed by a review of
everyday chat): a fronted "instead of Y," shares its clause's mood ("Instead of Tuesday, maybe
…" replaces nothing); a remembered state ("I remember being able to buy it for $3.50") is
past, a remembered act is not; a news figure "X, up from Y" retires Y; a size or a limit may
leave its unit out where its noun phrase names it ("bump max upload size to 300")."""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed, fact_of, value_of


@pytest.mark.parametrize(("before", "after", "old"), [
    ("We use MySQL 8.0.", "Instead of MySQL, maybe we use PostgreSQL.", "MySQL 8.0"),
    ("The meeting is on Tuesday.", "Instead of Tuesday, maybe the meeting is Wednesday.",
     "Tuesday"),
])
def test_a_fronted_instead_of_shares_the_mood_of_its_clause(before: str, after: str,
                                                            old: str) -> None:
    ledger = absorbed(("user", before), ("user", after))
    assert fact_of(ledger, old).status == "current"


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


def test_a_remembered_act_still_holds() -> None:
    ledger = absorbed(("user", "I remember buying the laptop for $1,200."))
    assert fact_of(ledger, "$1,200").status == "current"


def test_a_reminder_of_a_change_still_changes() -> None:
    ledger = absorbed(("user", "The rent is $1,200."),
                      ("user", "Remember, rent went up to $1,350."))
    assert value_of(ledger, fact_of(ledger, "$1,200").replaced_by) == "$1,350"


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


def test_picking_up_from_a_train_retires_nothing() -> None:
    ledger = absorbed(("user", "I'll leave at 5:00 and pick Ana up from the 5:40 train."))
    assert all(f.replaced_by is None for f in ledger)


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


@pytest.mark.parametrize(("before", "after", "old"), [
    ("The standup is 15 minutes.", "Move the standup to 10.", "15 minutes"),
    ("The deposit is $500.", "Set the deposit to 15.", "$500"),
])
def test_a_bare_number_of_a_phrase_that_names_no_measure_is_another_value(
        before: str, after: str, old: str) -> None:
    ledger = absorbed(("user", before), ("user", after))
    assert fact_of(ledger, old).replaced_by is None


def test_a_bare_number_of_another_noun_phrase_keeps_the_measure() -> None:
    ledger = absorbed(("user", "The max upload size is 250 MB."),
                      ("user", "Set the max upload count to 300."))
    assert fact_of(ledger, "250 MB").status == "current"


@pytest.mark.parametrize(("said", "pairs"), [
    ("Our monthly spend is $900; the AWS bill alone is $600, up from $450.", {"$450": "$600"}),
    ("Our price is $89, down from $99, and shipping is $5, up from $4.",
     {"$99": "$89", "$4": "$5"}),
])
def test_an_old_figure_is_replaced_by_the_nearest_figure_of_its_kind(
        said: str, pairs: dict[str, str]) -> None:
    ledger = absorbed(("user", said))
    for old, new in pairs.items():
        assert value_of(ledger, fact_of(ledger, old).replaced_by) == new


@pytest.mark.parametrize(("before", "after", "old", "new"), [
    ("Kickoff is Jan. 12.", "Kickoff is Jan. 5, not Jan. 12.", "Jan. 12", "Jan. 5"),
    ("The game is on Sept. 7.", "The game moved to Sept. 14 at 7 p.m.", "Sept. 7", "Sept. 14"),
])
def test_a_months_abbreviation_ends_no_sentence_before_its_day(before: str, after: str,
                                                               old: str, new: str) -> None:
    ledger = absorbed(("user", before), ("user", after))
    assert value_of(ledger, fact_of(ledger, old).replaced_by) == new
