"""Issue 28, stop 41 (values): the shapes of values people write, read whole by their own
form. Money: cents after the symbol without a leading zero ("$.99"), cents and pence after
the figure ("25¢", "50c", "99p"), a price range with the symbol on each side
("£12,000-£13,000"), a price "a"/"an" unit ("$1.50 an hour"). Times: a range of hours of one
thing ("noon-6 p.m.", "9am-5pm", "6:55-7:00 a.m.", "7-9 pm"). Versions: a release line with
its wildcard ("18.x"). Each with the places it must not fire."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.references import find_references
from tests.fact_ledger import values_after


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
    assert value in values_after(said)


def test_cents_replace_cents() -> None:
    values = values_after("Stamps are 68¢.", "Scratch that, stamps are 73¢ now, not 68¢.")
    assert "73¢" in values
    assert "68¢" not in values


def test_cheap_coffee_corrected_keeps_its_cents() -> None:
    values = values_after("The coffee at the canteen is $1.20.",
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
    assert value in values_after(said)


def test_new_opening_hours_replace_the_old_range() -> None:
    values = values_after("The café is open 8am-4pm.",
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
    values = values_after("The docs list Node 12.x as the runtime.",
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


@pytest.mark.parametrize(("said", "value"), [
    ("The book fair is now October 14-16.", "October 14-16"),
    ("The course runs 3–5 March at the town hall.", "3–5 March"),
    ("Our holiday is Aug 2-9 this year.", "Aug 2-9"),
])
def test_a_range_of_days_in_one_month_is_one_date(said: str, value: str) -> None:
    assert (value, "date") in find_references(said)
    assert value in values_after(said)


def test_new_festival_days_replace_the_old_ones() -> None:
    values = values_after("The street festival is July 12-14.",
                          "Update: the street festival moved to July 26-28.")
    assert "July 26-28" in values
    assert "July 12-14" not in values


@pytest.mark.parametrize(("said", "value"), [
    ("Book club meets on the first Tuesday of the month.", "first Tuesday of the month"),
    ("Bin day is the last Friday of every month.", "last Friday of every month"),
    ("The residents' meeting is on the 2nd Wednesday.", "2nd Wednesday"),
])
def test_a_weekday_of_each_month_is_one_date(said: str, value: str) -> None:
    assert (value, "date") in find_references(said)
    assert value in values_after(said)


@pytest.mark.parametrize(("said", "value"), [
    ("The launch moved to September.", "September"),
    ("My sister's wedding is in June.", "June"),
    ("The lease runs until March.", "March"),
])
def test_a_month_alone_after_a_preposition_of_time_is_a_date(said: str, value: str) -> None:
    assert (value, "date") in find_references(said)
    assert value in values_after(said)


@pytest.mark.parametrize("said", [
    "May I bring a friend?",  # the modal
    "It may rain in the afternoon.",
    "The party is May 5 6-8pm.",  # a date, then a range of hours: no range of days
    "We talked to April about the rota.",  # a name after "to"
    "The score was 14-16 in March 2024.",
])
def test_a_month_or_a_day_range_only_where_it_is_one(said: str) -> None:
    dates = [ref for ref, kind in find_references(said) if kind == "date"]
    assert not any(ref in ("May", "April") or "-" in ref for ref in dates)


@pytest.mark.parametrize(("said", "value"), [
    ("Keep the staging services in the 91xx range.", "91xx"),
    ("The alert fires on 5XX responses only.", "5XX"),
    ("Order the SKU 4471-B instead.", "4471-B"),
    ("Our locker is 112-C now.", "112-C"),
])
def test_digits_with_a_wildcard_or_a_letter_suffix_are_one_identifier(said: str,
                                                                      value: str) -> None:
    assert (value, "name") in find_references(said)


def test_a_wildcard_range_replaces_the_old_range() -> None:
    values = values_after("The default port range is 80xx.",
                          "Change the default port range from 80xx to 91xx.")
    assert "91xx" in values
    assert "80xx" not in values


@pytest.mark.parametrize("said", [
    "Ask for the XXL size.",  # "xx" in a word
    "The zoom is 10x now.",  # a multiple
    "Pages 12-14 cover it.",  # a range of numbers
    "It was a 3-D print.",
])
def test_no_wildcard_or_suffixed_identifier_where_there_is_none(said: str) -> None:
    assert not any(kind == "name" and any(c.isdigit() for c in ref)
                   for ref, kind in find_references(said))


@pytest.mark.parametrize(("said", "value"), [
    ("The printer nozzle is .4 mm now.", ".4 mm"),
    ("The alert threshold is .75 now.", ".75"),
])
def test_a_decimal_without_its_leading_zero_is_a_number(said: str, value: str) -> None:
    assert (value, "number") in find_references(said)
    assert value in values_after(said)


def test_a_smaller_nozzle_replaces_the_old_one() -> None:
    values = values_after("The printer nozzle is .6 mm.",
                          "Correction: the nozzle is .4 mm, not .6 mm.")
    assert ".4 mm" in values
    assert ".6 mm" not in values


@pytest.mark.parametrize(("said", "value"), [
    ("Use 2 1/2 teaspoons of baking soda.", "2 1/2 teaspoons"),
    ("Add 1/2 cup of milk to the batter.", "1/2 cup"),
    ("The recipe wants 1½ cups of flour now.", "1½ cups"),
    ("About 3/4 of the team agreed.", "3/4"),  # the fraction alone before "of"
])
def test_a_fraction_or_a_mixed_number_is_one_number(said: str, value: str) -> None:
    assert (value, "number") in find_references(said)


@pytest.mark.parametrize(("said", "value"), [
    ("The meeting is at half past seven.", "half past seven"),
    ("Dinner is now at quarter to 8 pm.", "quarter to 8 pm"),
])
def test_a_time_of_day_in_words_is_a_time(said: str, value: str) -> None:
    assert (value, "time") in find_references(said)
    assert value in values_after(said)


@pytest.mark.parametrize("said", [
    "Open file.7z and run ./build.5 again.",  # a file's extension, a path
    "Version v.5 of the form is out.",
    "Dates like 1/5/2024 stay dates.",
    "The split was 3/17 of the pot.",  # no common denominator: no amount
    "It is half past the deadline already.",
])
def test_no_bare_decimal_fraction_or_worded_time_where_there_is_none(said: str) -> None:
    refs = find_references(said)
    assert not any((kind == "number" and ref.startswith(".")) or ref in ("3/17", "1/5") or
                   "past the" in ref for ref, kind in refs)
    assert not any(kind == "time" for _, kind in refs)


@pytest.mark.parametrize(("said", "value"), [
    ("The scan is booked at St. Anne's this time.", "St. Anne's"),
    ("Her appointment moved to St. Mary's Hospital.", "St. Mary's Hospital"),
    ("The twins go to Skinners' Kent Academy now.", "Skinners' Kent Academy"),
    ("In Rome we're staying at Hotel Campo de' Fiori.", "Hotel Campo de' Fiori"),
    ("The print on the wall is by Vincent van Gogh.", "Vincent van Gogh"),
])
def test_a_name_over_an_apostrophe_or_a_particle_is_one_name(said: str, value: str) -> None:
    assert value in values_after(said)


def test_a_new_hospital_replaces_the_old_one_by_its_whole_name() -> None:
    values = values_after("The scan is booked at St. Anne's.",
                          "Correction: the scan is at St. Mary's Hospital, not St. Anne's.")
    assert "St. Mary's Hospital" in values
    assert "St. Anne's" not in values


@pytest.mark.parametrize(("said", "absent"), [
    ("Dad's MRI is booked at the clinic.", "Dad's MRI"),  # the sentence's own possessive subject
    ("The meeting is at Anna's now.", "Anna's now"),
    ("We talked to de Vries and Lena.", "de Vries and Lena"),  # no capitalised part first
    ("Tom and Ana le Roux lead it.", "Tom and Ana"),
])
def test_no_name_runs_where_the_words_are_not_one_name(said: str, absent: str) -> None:
    assert absent not in values_after(said)


@pytest.mark.parametrize(("said", "value"), [
    ("Invoicing is in QuickBooks 2024 now.", "QuickBooks 2024"),
    ("The deck has to be in PowerPoint 2019.", "PowerPoint 2019"),
])
def test_a_trade_name_and_its_edition_are_one_version(said: str, value: str) -> None:
    assert (value, "version") in find_references(said)
    assert value in values_after(said)


@pytest.mark.parametrize("said", [
    "Set maxRetries 5 in the config.",  # a code name in lower case: a setting's label
    "The Team 2 roster is out.",  # one capital: no trade name
])
def test_no_edition_where_the_name_is_no_trade_name(said: str) -> None:
    assert not any(kind == "version" for _, kind in find_references(said))


@pytest.mark.parametrize(("said", "value"), [
    ("The upload limit is 5mb now.", "5mb"),
    ("I have 3 gb free on the laptop.", "3 gb"),
])
def test_a_size_in_lower_case_is_a_size(said: str, value: str) -> None:
    assert (value, "number") in find_references(said)
    assert value in values_after(said)


def test_a_bigger_disk_in_lower_case_replaces_the_old_one() -> None:
    values = values_after("The backup disk is 1tb.", "The backup disk is 2tb now, not 1tb.")
    assert "2tb" in values
    assert "1tb" not in values


def test_a_size_word_alone_is_no_size() -> None:
    assert not find_references("Send me the mb files and the gb list.")


@pytest.mark.parametrize(("said", "value"), [
    ("The party is on Tuesday 14th now.", "Tuesday 14th"),
    ("The rollout is next Tuesday now.", "next Tuesday"),
    ("Bin collection is this Friday.", "this Friday"),
])
def test_a_weekday_with_its_day_or_said_from_now_is_one_date(said: str, value: str) -> None:
    assert (value, "date") in find_references(said)
    assert value in values_after(said)


def test_a_phone_number_with_its_area_code_in_brackets_is_one_number() -> None:
    assert "(555) 123-4567" in values_after("My number is now (555) 123-4567.")


@pytest.mark.parametrize(("said", "time"), [
    ("Lunch at 12:05 today.", "12:05"),
    ("Meet at 10:30 now.", "10:30"),
])
def test_a_clock_time_stays_a_time(said: str, time: str) -> None:
    """(A ratio, "16:9", stays prose: ``test_engine_references`` holds it so.)"""
    assert (time, "time") in find_references(said)


def test_last_weekday_is_no_date_to_keep() -> None:
    assert not any(ref.startswith("last") for ref, _ in find_references("We met last Tuesday."))


@pytest.mark.parametrize(("said", "value"), [
    ("Deliveries come after 6pm now.", "after 6pm"),
    ("The kids' races start before 7 a.m. this year.", "before 7 a.m."),
    ("Lunch orders go in before noon.", "before noon"),
])
def test_a_bound_in_time_keeps_its_bound(said: str, value: str) -> None:
    assert (value, "time") in find_references(said)
    assert value in values_after(said)


@pytest.mark.parametrize("said", [
    "We met after 6 years apart.",  # no hour: a duration
    "Call me before 7 so we can talk.",  # a bare number: no half of the day
])
def test_no_bound_in_time_without_an_hour(said: str) -> None:
    assert not any(kind == "time" for _, kind in find_references(said))


def test_a_month_keeps_its_early_or_late() -> None:
    assert ("early June", "date") in find_references("The move is now in early June.")
    assert ("mid-March", "date") in find_references("The audit moved to after mid-March.")


@pytest.mark.parametrize(("said", "value"), [
    ("The wiki is now wiki.acme.internal:8443/home.", "wiki.acme.internal:8443/home"),
    ("Hit localhost:3000/api/v1 instead.", "localhost:3000/api/v1"),
    ("The shop's site is now acme.shop.", "acme.shop"),
])
def test_an_address_is_read_whole(said: str, value: str) -> None:
    assert (value, "url") in find_references(said)
    assert value in values_after(said)


@pytest.mark.parametrize("said", [
    "Run main.py:42 again.",  # a file's line
    "Meet at 10:30/11:00 then.",
])
def test_no_address_from_a_file_line_or_times(said: str) -> None:
    assert not any(kind == "url" for _, kind in find_references(said))
