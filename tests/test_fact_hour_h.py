""""17h30" (an hour, "h", its minutes) is a time of day when the hour is 13 or later or a
word of a point in time stands before it ("at 9h30", "from 8h15 to 10h40"); otherwise it is a
duration ("the flight is 2h15"), which no clock time replaces."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.references import find_references
from tests.engine_fakes import absorbed, fact_of, value_of


@pytest.mark.parametrize("text, ref", [
    ("The flight to Lisbon is 2h15", "2h15"),
    ("The drive to Leeds takes 3h45 from the office.", "3h45"),
])
def test_an_early_hour_after_no_word_of_a_point_in_time_is_a_duration(
        text: str, ref: str) -> None:
    refs = find_references(text)
    assert (ref, "time") not in refs
    assert any(found == ref for found, _ in refs)


@pytest.mark.parametrize("text, ref", [
    ("The meeting is at 17h30", "17h30"),
    ("we meet 17h30 sharp", "17h30"),
    ("Doors open at 9h00", "9h00"),
    ("le train part à 9h30", "9h30"),
    ("The train runs from 8h15 to 10h40", "10h40"),
])
def test_a_late_hour_or_one_after_a_word_of_a_point_in_time_is_a_time(
        text: str, ref: str) -> None:
    assert (ref, "time") in find_references(text)


@pytest.mark.parametrize("history, text, kept", [
    ("The flight to Lisbon is 2h15.", "The flight leaves at 10:15.", "2h15"),
    ("The drive to Leeds takes 3h45.", "We leave at 9:00 for the drive.", "3h45"),
])
def test_a_clock_time_leaves_a_duration_of_its_key_current(
        history: str, text: str, kept: str) -> None:
    duration = fact_of(absorbed(("user", history), ("user", text)), kept)
    assert duration.status == "current" and duration.possibly_replaced_by is None


@pytest.mark.parametrize("old, new", [("2h15", "2h40"), ("2 h 15 min", "2 h 40 min")])
def test_a_duration_in_two_units_is_a_duration(old: str, new: str) -> None:
    """A duration written in hours and minutes is of the duration class, so a later one of
    the same key replaces it."""
    ledger = absorbed(("user", f"The flight to Lisbon is {old}."),
                      ("user", f"The flight to Lisbon is {new} now."))
    assert fact_of(ledger, old).status == "replaced"
    assert value_of(ledger, fact_of(ledger, old).replaced_by) == new


@pytest.mark.parametrize("value, unit", [("2h45m", "duration"), ("48 m²", "area"),
                                         ("2 m³", "m³")])
def test_only_duration_words_make_a_duration_in_several_units(value: str, unit: str) -> None:
    """"2h45m" is hours and minutes; "48 m²" (a superscript digit) is an area, not minutes
    (stop 53: the class of every unit of area, "48 square meters" too)."""
    from ollm_desktop.engine.fact_keys import unit_class

    assert unit_class(value, "number", "") == unit
