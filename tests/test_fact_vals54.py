"""Stop 54, values of unusual shapes read whole (issue 28): the finders cut them short, so the
user's value was not in the ledger as written.

- Small digit groups joined by hyphens ("9-5", "10-46", "4-4-7-1"): one
  number, not the first group; a range's unit class is a number's, so "10-6" replaces "9-5".
- A long number in groups of three or four digits ("985 112 004 553 201"): one number.
- A clock time's rate after "per" ("5:20 per km") and a money's period in letters ("£1,150
  pcm"): part of the value (``fact_rate_tails``; money's "per <noun>" is left to the finders).
- A day of a month in words ("the fourteenth of March"): a date; the British "half eight" and
  a clock time in words ("seven fifty one"): times; "nine and a half": a number.
- Two codes of capitals side by side with digits in one ("K4 TSY", "KMC X11"): one name.
- A title's name after a preposition ("opening with Pick Up the Pieces instead"): one name,
  never run over "to" ("from Python to Go" stays two).
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_keys import unit_class
from ollm_desktop.engine.references import find_references
from tests.fact_ledger import chat as _chat
from tests.fact_ledger import current_set, replaced_by_map


def _refs(text: str) -> list[str]:
    return [ref for ref, _ in find_references(text)]


@pytest.mark.parametrize(("text", "value"), [
    ("The cat flap code is 4-4-7-1", "4-4-7-1"),
    ("delivery window is 9-12.", "9-12"),
    ("i use 10-46 strings on the strat", "10-46"),
    ("Final score 3-1 to us", "3-1"),
    ("chip number is 985 112 004 553 201", "985 112 004 553 201"),
    ("my NHS number: 943 476 5919", "943 476 5919"),
    ("the engineer said the fourteenth of March", "fourteenth of March"),
    ("party on the twenty-first of june", "twenty-first of june"),
    ("see you at half eight", "half eight"),
    ("train is at seven forty eight from hackney wick", "seven forty eight"),
    ("shoe size is nine and a half", "nine and a half"),
    ("I got a private one: K4 TSY", "K4 TSY"),
    ("Bike chain: KMC X11, replace at 0.5% wear", "KMC X11"),
])
def test_values_read_whole(text: str, value: str) -> None:
    assert value in _refs(text)


@pytest.mark.parametrize(("text", "part"), [
    ("scores 100 200 300", "100 200 300"),  # (a list: fewer than ten digits)
    ("in 2019 2020 2021 2022", "2019 2020 2021 2022"),  # (years)
    ("cut it in half one more time", "half one"),
    ("half six packs of beer", "half six"),
    ("two twenty pound notes", "two twenty"),
    ("the seven eleven store", "seven eleven"),
    ("first of all, may I ask", "first of all"),
    ("the A380 A350 fleet", "A380 A350"),  # (two codes alike: a list)
    ("OK A1 then", "OK A1"),
    ("covid-19 rules", "covid-19"),
])
def test_shapes_that_are_no_value_stay_apart(text: str, part: str) -> None:
    assert part not in _refs(text)


def test_a_sort_code_stays_a_name() -> None:
    assert find_references("sort code 20-45-77") == [("20-45-77", "name")]


@pytest.mark.parametrize("value", ["9-5", "4-4-7-1", "985 112 004 553 201",
                                   "nine and a half"])
def test_joined_figures_are_numbers(value: str) -> None:
    assert unit_class(value, "number", "") == "number"


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("Store hours: 9-5.", "Store hours: 10-6 from June.", "9-5", "10-6"),
    ("Delivery window is 9-12.", "The delivery window changed from 9-12 to 13-17.", "9-12",
     "13-17"),
    ("my bike lock combo is 0-4-8-2", "reset it. 5-1-9-3", "0-4-8-2", "5-1-9-3"),
    ("my nhs number is 943 476 5919", "sorry typo, it's 943 476 5991", "943 476 5919",
     "943 476 5991"),
    ("easy runs at 6:10 per km", "no wait, easy pace is 6:00 per km", "6:10 per km",
     "6:00 per km"),
    ("note that the boiler service is on the twelfth of March",
     "no sorry the engineer said the fourteenth of March", "twelfth of March",
     "fourteenth of March"),
    ("kids' swimming is at half four", "they moved it to half five", "half four", "half five"),
    ("my alarm's set for six fifteen", "make it six thirty", "six fifteen", "six thirty"),
    ("Our band's opener is Cissy Strut", "we're opening with Pick Up the Pieces instead now",
     "Cissy Strut", "Pick Up the Pieces"),
])
def test_a_whole_value_replaces_its_old_one(first: str, later: str, old: str, new: str) -> None:
    ledger = _chat(first, "A: Noted.", later)
    assert new in current_set(ledger)
    assert replaced_by_map(ledger).get(old) == new


@pytest.mark.parametrize(("said", "value"), [
    ("Marathon goal pace 5:20 per km", "5:20 per km"),
    ("long run pace 8:30 per mile, easy", "8:30 per mile"),
    ("we're renting at £1,150 pcm in Leith", "£1,150 pcm"),
    ("salary is £32k pa", "£32k pa"),
    ("the room is $400 pw", "$400 pw"),
])
def test_a_rate_keeps_its_noun(said: str, value: str) -> None:
    assert value in current_set(_chat(said))


@pytest.mark.parametrize(("said", "value"), [
    ("My running pace target is 5:30/km.", "5:30"),  # (a slash keeps the finder's reading)
    ("the call is at 10:00 per Sarah", "10:00"),  # (who said so)
    ("the bus leaves at 7:15 per the timetable", "7:15"),  # (a closed word is no rate)
    ("the big kiln costs about £9 per firing", "£9"),  # (money's "per" is the finders')
])
def test_a_rate_ends_where_its_noun_does(said: str, value: str) -> None:
    assert value in current_set(_chat(said))


@pytest.mark.parametrize(("first", "later", "kept"), [
    ("Marathon goal pace 5:20 per km",
     "if the weather's horrid I might drop to 5:35 per km, we'll see on the day", "5:20 per km"),
    ("Our Saturday shift at the Oxfam shop is 10-2",
     "Can they make it 9-1 do you think? I'd rather finish earlier", "10-2"),
    ("we're renting at £1,150 pcm in Leith",
     "is £1,250 pcm normal for round here? my friend's flat is that", "£1,150 pcm"),
])
def test_questions_and_hypotheticals_replace_nothing(first: str, later: str, kept: str) -> None:
    ledger = _chat(first, "A: Noted.", later)
    assert kept in current_set(ledger)
    assert kept not in replaced_by_map(ledger)


@pytest.mark.parametrize(("first", "later", "new"), [
    ("We use Python.", "We switched from Python to Go.", "Go"),
    ("The trip is from Rome to Florence.", "Changed: from Rome to Venice.", "Venice"),
])
def test_a_title_never_runs_over_to(first: str, later: str, new: str) -> None:
    assert new in current_set(_chat(first, "A: Ok.", later))


def test_a_name_after_a_grouped_number_takes_nothing() -> None:
    ledger = _chat("my mum's NHS number is 943 476 5919",
                   "her hospital number at the Royal is RX0049812")
    assert "943 476 5919" in current_set(ledger)
    assert "943 476 5919" not in replaced_by_map(ledger)
