"""Issue 28, stop 41 (values): the shapes of values people write, read whole by their own
form. Money: cents after the symbol without a leading zero ("$.99"), cents and pence after
the figure ("25¢", "50c", "99p"), a price range with the symbol on each side
("£12,000-£13,000"), a price "a"/"an" unit ("$1.50 an hour"). Times: a range of hours of one
thing ("noon-6 p.m.", "9am-5pm", "6:55-7:00 a.m.", "7-9 pm"). Versions: a release line with
its wildcard ("18.x"). Each with the places it must not fire."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.facts_extract import current_values
from ollm_desktop.engine.references import find_references


def _values(*texts: str) -> list[str]:
    return [v for vs in current_values([("user", t) for t in texts]).values() for v in vs]


def _refs(text: str) -> list[str]:
    return [ref for ref, _ in find_references(text)]


@pytest.mark.parametrize(("said", "value"), [
    ("The vending machine coffee is $.99 now.", "$.99"),
    ("Refills are €.50 at the kiosk.", "€.50"),
    ("Stamps went up to 73¢ this year.", "73¢"),
    ("A postcard stamp is 50c at the corner shop.", "50c"),
    ("The bakery sells rolls at 99p each.", "99p"),
    ("The salary band for the role is £42,000-£48,000.", "£42,000-£48,000"),
    ("The budget for the gift is $20-30.", "$20-30"),
    ("Street parking costs $1.50 an hour.", "$1.50 an hour"),
    ("The gym membership is £29 a month now.", "£29 a month"),
])
def test_money_is_read_whole_in_the_forms_people_write(said: str, value: str) -> None:
    assert value in _refs(said)
    assert value in _values(said)


def test_cents_replace_cents() -> None:
    values = _values("Stamps are 68¢.", "Scratch that, stamps are 73¢ now, not 68¢.")
    assert "73¢" in values
    assert "68¢" not in values


def test_cheap_coffee_corrected_keeps_its_cents() -> None:
    values = _values("The coffee at the canteen is $1.20.",
                     "Sorry, the coffee is $.99 now, not $1.20.")
    assert "$.99" in values
    assert "$1.20" not in values


@pytest.mark.parametrize("said", [
    "Do Step 3c before the review.",  # an item's number and its letter
    "See section 4c of the lease.",
    "We stream at 1080p.",  # a resolution, not pence
    "The hex colour is 0x50c.",
    "Set c = 50c2 in the config.",
    "The 3p-fold yield was better.",
])
def test_a_letter_after_a_number_is_no_cent_where_it_is_something_else(said: str) -> None:
    assert not any(ref.endswith(("c", "p", "c2")) and ref[:1].isdigit() and
                   ref[-1] in "cp" for ref in _refs(said))


def test_a_dash_between_amounts_without_a_symbol_is_no_price() -> None:
    assert "$20-30" not in _refs("Pages 20-30 cost $5.")
    assert "$5-" not in "".join(_refs("It was $5 - that is all."))


@pytest.mark.parametrize(("said", "value"), [
    ("On Sundays the shop is open noon-6 p.m.", "noon-6 p.m."),
    ("Office hours are 9am-5pm now.", "9am-5pm"),
    ("Drop-off is 6:55-7:00 a.m. at the side gate.", "6:55-7:00 a.m."),
    ("The party runs 7-9 pm on Friday.", "7-9 pm"),
    ("The pool is open 10:00-18:00.", "10:00-18:00"),
    ("Quiet hours are 10pm-midnight.", "10pm-midnight"),
])
def test_a_range_of_hours_is_one_time(said: str, value: str) -> None:
    assert (value, "time") in find_references(said)
    assert value in _values(said)


def test_new_opening_hours_replace_the_old_range() -> None:
    values = _values("The café is open 8am-4pm.",
                     "Correction: the café is open 9am-5pm now, not 8am-4pm.")
    assert "9am-5pm" in values
    assert "8am-4pm" not in values


@pytest.mark.parametrize("said", [
    "Read pages 10-12 before class.",  # a range of numbers
    "The score was 3-2 at half time.",
    "It happened in 2022-2023.",
    "Call 555-0199 after lunch.",
])
def test_a_dash_between_numbers_is_no_time_without_an_hour(said: str) -> None:
    assert not any(kind == "time" for _, kind in find_references(said))


@pytest.mark.parametrize(("said", "value"), [
    ("The docs should target Node 18.x now.", "Node 18.x"),
    ("We support 3.12.x only.", "3.12.x"),
    ("The CI image pins 20.x for the build.", "20.x"),
])
def test_a_release_line_with_its_wildcard_is_a_version(said: str, value: str) -> None:
    assert value in _refs(said)


def test_a_release_line_replaces_the_older_line() -> None:
    values = _values("The docs list Node 12.x as the runtime.",
                     "Update the docs to list 18.x as the runtime, rather than 12.x.")
    assert "18.x" in values
    assert "12.x" not in values


@pytest.mark.parametrize("said", [
    "The box is 2x3 metres.",  # dimensions
    "Use a 10x lens.",  # a magnification
    "Send the xxl shirts to 4 people.",
    "The ratio is 3.5x what it was.",  # a multiple
])
def test_an_x_after_a_number_is_no_release_line_elsewhere(said: str) -> None:
    assert not [ref for ref, kind in find_references(said) if kind == "version"]
