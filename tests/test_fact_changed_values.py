"""Values a change is written around: a clock time with its zone or an hour's name ("3:15
p.m. CST", "noon CT"), a date with its weekday ("Friday, September 4th 2020"), a value in the
subject of its own change ("the 3pm review has been moved to 4pm"), "from N to M unit" after a
change verb (two values, not a range) and a number that is its clause's subject ("since 8080
clashes with Grafana": no count of clashes)."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_value_forms import value_form
from ollm_desktop.engine.references import find_references
from tests.fact_ledger import status_of, user_ledger


def _found(text: str) -> list[str]:
    return [ref for ref, _ in find_references(text)]


@pytest.mark.parametrize("text, value", [
    ("The webinar starts at 9:30 a.m. PST sharp.", "9:30 a.m. PST"),
    ("Doors open at 6 pm ET on the night.", "6 pm ET"),
    ("Standup is at 14:30 CET every day.", "14:30 CET"),
    ("The call is at noon CT.", "noon CT"),
    ("We stop for lunch at noon.", "noon"),
    ("The backup runs at midnight.", "midnight"),
])
def test_a_clock_time_keeps_its_zone_and_a_named_hour_is_a_time(text: str, value: str) -> None:
    assert value in _found(text)


def test_a_word_in_capitals_after_a_time_is_no_zone() -> None:
    assert _found("MEET AT 5 PM AT THE BAR") == ["5 PM"]


@pytest.mark.parametrize("text, value", [
    ("The audit moves to Wednesday, March 11th 2026 this time.", "Wednesday, March 11th 2026"),
    ("Pick-up is on Tue 14 April.", "Tue 14 April"),
])
def test_a_date_keeps_the_weekday_it_opens_with(text: str, value: str) -> None:
    assert value in _found(text)


def test_forms_of_a_named_hour_a_zoned_time_and_a_weekday_date() -> None:
    assert value_form("noon") == value_form("12 noon") == "12:00"
    assert value_form("4:25 p.m. ET") == "16:25 et" != value_form("4:25 p.m.")
    assert value_form("Thursday, September 3rd, 2020") == value_form("Thursday Sept 3")


def test_a_weekday_date_is_not_the_bare_date_said_again() -> None:
    # the weekday tells the day apart: 'the match on Saturday 14th September' and a ticket sale
    # on '14th September' are two values, not one said twice
    assert value_form("Saturday 14th September") != value_form("14th September")
    assert value_form("Friday, May 3") != value_form("Monday, May 3")


@pytest.mark.parametrize("text, old, new", [
    ("The 3pm review has been moved to 4pm.", "3pm", "4pm"),
    ("The recital on Friday has been pushed back to Sunday.", "Friday", "Sunday"),
    ("Pickups for Monday, June 8 have been changed to Tuesday, June 9.", "Monday, June 8",
     "Tuesday, June 9"),
    ("The checkup scheduled for March 3 was rescheduled to March 5.", "March 3", "March 5"),
    ("Port 5173 was changed to 5174.", "5173", "5174"),
])
def test_a_value_in_the_subject_of_its_own_change_is_the_old_one(text: str, old: str,
                                                                  new: str) -> None:
    ledger = user_ledger(text)
    assert status_of(ledger, old) == "replaced"
    assert status_of(ledger, new) == "current"


@pytest.mark.parametrize("text, kept", [
    ("The Friday recital has not been moved to Sunday.", "Friday"),
    ("The 5 interns moved to 3 desks by the window.", "5 interns"),
])
def test_a_subject_value_not_moved_along_its_scale_stays(text: str, kept: str) -> None:
    assert all(f.status == "current" for f in user_ledger(text) if kept in f.value)


def test_from_n_to_m_unit_after_a_change_verb_is_two_values() -> None:
    ledger = user_ledger("Raise the cache TTL from 5 to 15 minutes.")
    assert status_of(ledger, "5") == "replaced"
    assert status_of(ledger, "15 minutes") == "current"


def test_from_n_to_m_unit_without_a_change_verb_stays_a_range() -> None:
    assert [f.value for f in user_ledger("Boiling the eggs takes from 8 to 12 minutes.")] == [
        "8 to 12 minutes"]


def test_a_number_before_its_clause_verb_counts_nothing() -> None:
    values = [f.value for f in user_ledger("Put the dashboard on 9090 because 8080 clashes "
                                           "with Grafana.")]
    assert "8080 clashes" not in values
    assert "8080" in values


def test_a_count_before_its_own_verb_still_counts() -> None:
    values = [f.value for f in user_ledger("We page the on-call if 4 nodes fail at once.")]
    assert "4 nodes" in values


def test_numbers_in_words_of_a_change_are_its_values() -> None:
    ledger = user_ledger("The council raised the number of night buses on the route from four "
                         "currently to six next spring.")
    assert status_of(ledger, "four") == "replaced"
    assert status_of(ledger, "six") == "current"


def test_numbers_in_words_without_a_change_are_prose() -> None:
    assert not [f for f in user_ledger("We went from four friends to six over the summer.")
                if f.value in ("four", "six")]


def test_a_capitalised_item_of_a_list_of_values_is_a_value() -> None:
    values = [f.value for f in user_ledger("Book club next month: March 12, 7pm, Linden Library, "
                                           "Mill Lane")]
    assert "Linden Library" in values


def test_a_name_after_one_value_and_a_comma_is_addressed_not_listed() -> None:
    assert "Priya" not in [f.value for f in user_ledger("Let's say 4pm, Priya.")]


def test_a_name_renamed_past_a_relative_clause_is_the_old_one() -> None:
    ledger = user_ledger("Hollins Road Infant School, which opened in 1974, is now Hollins Road "
                         "Academy.")
    assert status_of(ledger, "Hollins Road Academy") == "current"
    assert all(f.status == "replaced" for f in ledger if "Infant School" in f.value)


def test_a_person_with_a_new_title_is_not_renamed() -> None:
    ledger = user_ledger("Ingrid Sol, who ran support, is now Head of Sales.")
    assert all(f.status == "current" for f in ledger)


def test_a_name_and_its_address_are_one_value() -> None:
    values = [f.value for f in user_ledger("The reunion will be held at The Granary, 14 Mill "
                                           "Street, Wetherby, LS22 6NQ, with lunch from noon.")]
    assert "The Granary, 14 Mill Street, Wetherby, LS22 6NQ" in values


def test_names_in_a_list_without_a_number_are_no_address() -> None:
    values = [f.value for f in user_ledger("I have worked at Google, Spotify, Zalando and Klarna.")]
    assert not [v for v in values if "," in v]


@pytest.mark.parametrize("text, old", [
    ("Ditch support for Ruby 3.0 in the next release.", "Ruby 3.0"),
    ("We dropped the support for Postgres 12 this sprint.", "Postgres 12"),
])
def test_what_an_ending_verb_drops_support_for_goes(text: str, old: str) -> None:
    assert status_of(user_ledger(text), old) == "replaced"


@pytest.mark.parametrize("text, kept", [
    ("We won't drop support for Ruby 3.0 yet.", "Ruby 3.0"),
    ("We will not scrap support for Postgres 12 this year.", "Postgres 12"),
])
def test_support_not_dropped_keeps_its_value(text: str, kept: str) -> None:
    assert status_of(user_ledger(text), kept) == "current"
