"""Issue 28, stop 50 (values read whole, ``reference_value_wholes``): a rate ("45 a month", "3
days a week", "one tablet a day", "85/hour", "2 µg/mL", "1 unit per 12 g"), a number in words
("one hundred and twenty", "one and a half months", "ninety, not one hundred and twenty"), an
amount joined to its unit ("a 2-year warranty", "30-liter tank"); each read as one value whose
class is the amount it counts in (``fact_value_classes.counted_amount``), so "45 a month"
meets "39 a month" and a bare "45"; and the places none of it must fire."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_keys import unit_class
from ollm_desktop.engine.provenance import message_facts
from ollm_desktop.engine.references import find_references
from tests.fact_ledger import status_of, user_ledger


def _refs(text: str) -> list[str]:
    return [ref for ref, _ in find_references(text)]


@pytest.mark.parametrize("text, value", [
    ("it's 45 a month now", "45 a month"),
    ("car insurance is with Allianz, 640 a year", "640 a year"),
    ("the storage unit costs 90 a month", "90 a month"),
    ("I train 3 days a week", "3 days a week"),
    ("I sleep 7 hours a night", "7 hours a night"),
    ("I run 20 km a week", "20 km a week"),
    ("the hematologist reduced my iron to one tablet a day", "one tablet a day"),
    ("the cat gets two scoops a day", "two scoops a day"),
    ("I drink 3 cups of coffee a day", "3 cups of coffee a day"),
    ("I bill 85/hour", "85/hour"),
    ("it's Hoechst 33342 at 2 µg/mL now", "2 µg/mL"),
    ("the dose is 5 mg/kg", "5 mg/kg"),
    ("I'm on 1 unit per 12 g for all meals now", "1 unit per 12 g"),
    ("the guesthouse is ISK 29,000 a night", "ISK 29,000 a night"),
])
def test_a_rate_is_one_value(text: str, value: str) -> None:
    assert value in _refs(text)


@pytest.mark.parametrize("text, value", [
    ("we're planning for one hundred and twenty guests", "one hundred and twenty guests"),
    ("it took forty-five minutes", "forty-five minutes"),
    ("not two months but one and a half months", "one and a half months"),
    ("ninety, not one hundred and twenty", "ninety"),
    ("not 12 but ten", "ten"),
    ("eight instead of 6", "eight"),
])
def test_a_number_in_words_is_one_value(text: str, value: str) -> None:
    assert value in _refs(text)


@pytest.mark.parametrize("text, value", [
    ("I just have the standard 2-year one", "2-year"),
    ("he's in a 30-liter tank already", "30-liter tank"),
    ("she needs a 2-inch binder", "2-inch binder"),
    ("we signed a 12-month lease", "12-month lease"),
])
def test_an_amount_joined_to_its_unit_is_one_value(text: str, value: str) -> None:
    assert value in _refs(text)


@pytest.mark.parametrize("text, cut", [
    ("he turned 40 a month ago", "40 a month"),  # when, not how often
    ("we met 2 days a week later", "2 days a week"),
    ("2 of them a day", "2 of them a day"),  # no noun counted
    ("The max file size should be 100/200mb", "100/200mb"),  # two sizes, no rate
    ("a warning at 90 per minute", "90 per minute"),  # (``fact_counted.rates``'s place)
    ("one of them, not two", "one"),  # no number set against a number
])
def test_no_rate_or_number_is_read_where_none_is_said(text: str, cut: str) -> None:
    assert cut not in _refs(text)


@pytest.mark.parametrize("one, other", [
    ("45 a month", "39 a month"), ("45 a month", "45"), ("85/hour", "110"),
    ("3 days a week", "3 days"), ("one tablet a day", "2 tablets"),
    ("1 unit per 12 g", "1 unit per 10 g"), ("2 µg/mL", "1 µg/mL"),
    ("48-hour window", "24 hours"), ("30-liter tank", "20 liters"),
    ("2 bags of ice", "3 bags"), ("100 g of rice per person", "80 g"),
    ("ISK 29,000 a night", "ISK 31,000"), ("one and a half months", "two months"),
    ("one hundred and twenty", "90"),
])
def test_a_rate_meets_the_amount_it_counts_in(one: str, other: str) -> None:
    assert unit_class(one, "number", "") == unit_class(other, "number", "")


@pytest.mark.parametrize("one, other", [
    ("45 a month", "$45 a month"), ("3 days a week", "3 times a week"),
    ("2 µg/mL", "2 µg"), ("one tablet a day", "one scoop a day"),
])
def test_rates_of_other_amounts_stay_apart(one: str, other: str) -> None:
    assert unit_class(one, "number", "") != unit_class(other, "number", "")


@pytest.mark.parametrize("said, later, new, old", [
    ("my gym membership is 39 a month", "it's 45 a month now", "45 a month", "39 a month"),
    ("my phone plan is 25 a month", "it's 30 a month now", "30 a month", "25 a month"),
    ("the storage unit costs 90 a month", "they raised it, it's 110 now", "110", "90 a month"),
    ("the gym is 39 a month", "the gym went from 39 a month to 45 a month", "45 a month",
     "39 a month"),
    ("The take-home assignment has a 48-hour window.",
     "We shortened the take-home window to 24 hours.", "24 hours", "48-hour window"),
    ("The security deposit is two months' rent.",
     "not two months but one and a half months.", "one and a half months", "two months"),
    ("We're planning for one hundred and twenty guests.", "ninety, not one hundred and twenty.",
     "ninety", "one hundred and twenty guests"),
])
def test_a_rate_replaces_the_amount_it_corrects(said: str, later: str, new: str,
                                                 old: str) -> None:
    ledger = user_ledger(said, later)
    assert status_of(ledger, new) == "current"
    assert status_of(ledger, old) == "replaced"


@pytest.mark.parametrize("said, later, kept", [
    ("my plan is 25 a month.", "should I switch to the 18 a month plan?", "25 a month"),
    ("my plan is 25 a month.", "would the 18 a month one be better?", "25 a month"),
    ("I train 3 days a week.", "my coach wants me at 5 days a week.", "3 days a week"),
    ("I bill 85/hour.", "imagine if I charged 110/hour, would I lose clients?", "85/hour"),
])
def test_a_rate_in_a_question_or_a_wish_replaces_nothing(said: str, later: str,
                                                         kept: str) -> None:
    assert status_of(user_ledger(said, later), kept) == "current"


def test_a_rate_in_a_suggestion_is_no_current_value() -> None:
    facts = message_facts("my plan is 25 a month. we could consider the 18 a month one")
    assert all(f.kind == "question" for f in facts if f.value.startswith("18"))


@pytest.mark.parametrize("text, value", [
    ("I moved it to Friday 10:30, same dentist", "Friday 10:30"),
    ("due Friday 17:00 Pacific, the program officer agreed", "Friday 17:00 Pacific"),
    ("ops pushed it: Sunday 22:00-00:00 UTC now", "Sunday 22:00-00:00 UTC"),
    ("standup is Mon 9:30", "Mon 9:30"),
    ("the call is at 9am Eastern time", "9am Eastern time"),
])
def test_a_weekday_and_its_time_are_one_value(text: str, value: str) -> None:
    assert value in _refs(text)


@pytest.mark.parametrize("text, value", [("see you Friday at 10:30", "Friday at 10:30"),
                                         ("practice is Mondays at 6pm", "Mondays at 6pm")])
def test_a_weekday_at_a_time_is_one_value(text: str, value: str) -> None:
    assert _refs(text) == [value]


def test_a_weekday_at_a_named_hour_stays_two_values() -> None:
    assert _refs("on Friday at noon") == ["noon"]


@pytest.mark.parametrize("said, later, new, old, kept", [
    # the pair corrected whole
    ("dentist appt Thursday 14:00 with Dr. Okafor", "I moved it to Friday 10:30",
     "Friday 10:30", "Thursday 14:00", None),
    ("standup is Mon 9:30", "standup moved to Tue 10:00", "Tue 10:00", "Mon 9:30", None),
    # its time alone: the day holds
    ("Guild raid night: Thursday 9pm", "pushed raids back to 9:30pm", "9:30pm",
     "Thursday 9pm", "Thursday"),
    ("yoga is Tuesday 6pm", "yoga moved to 7pm", "7pm", "Tuesday 6pm", "Tuesday"),
    # its day alone: the time holds
    ("piano lesson is Monday 4pm", "piano lesson moved to Wednesday", "Wednesday",
     "Monday 4pm", "4pm"),
    ("dentist appt Thursday 14:00 with Dr. Okafor", "I moved it to Friday", "Friday",
     "Thursday 14:00", "14:00"),
])
def test_a_weekday_and_its_time_are_corrected_together_or_apart(
        said: str, later: str, new: str, old: str, kept: str | None) -> None:
    ledger = user_ledger(said, later)
    assert status_of(ledger, new) == "current"
    assert status_of(ledger, old) == "replaced"
    if kept is not None:
        assert status_of(ledger, kept) == "current"


@pytest.mark.parametrize("said, later, kept", [
    ("piano lesson is Monday 4pm", "could we move it to Wednesday?", "Monday 4pm"),
    ("Swim lessons are Thursday 5pm.", "Imagine they were on Saturdays, would that help?",
     "Thursday 5pm"),
])
def test_a_day_asked_about_leaves_the_pair_whole(said: str, later: str, kept: str) -> None:
    assert status_of(user_ledger(said, later), kept) == "current"


@pytest.mark.parametrize("text, value", [
    ("the guest wifi password is now Marigold#77", "Marigold#77"),
    ("the admin pw is Pa$$w0rd1", "Pa$$w0rd1"),
    ("the locker code is blue&Fox9", "blue&Fox9"),
])
def test_a_secret_with_signs_is_one_token(text: str, value: str) -> None:
    assert value in _refs(text)


@pytest.mark.parametrize("text", ["we use C# and AT&T", "x = a*b+2", "R2#D2 beeped"])
def test_no_secret_without_letters_and_a_digit(text: str) -> None:
    assert not any("#" in r or "&" in r or "*" in r for r in _refs(text))


@pytest.mark.parametrize("text, value", [
    ("so 30 3 * * * /opt/bin/backup.sh", "30 3 * * *"),
    ("cron for the backup: 0 2 * * * /opt/bin/backup.sh", "0 2 * * *"),
    ("it runs */15 * * * * on the box", "*/15 * * * *"),
    ("weekdays only: 0 9 * * 1-5", "0 9 * * 1-5"),
])
def test_a_cron_schedule_is_one_value(text: str, value: str) -> None:
    assert value in _refs(text)


def test_arithmetic_is_no_cron_schedule() -> None:
    assert _refs("it costs 5 * 3 plus 2 * 4") == []


def test_a_new_secret_replaces_the_old() -> None:
    ledger = user_ledger("guest wifi pw is Sunflower2024",
                         "the guest wifi password is now Marigold#77")
    assert status_of(ledger, "Marigold#77") == "current"
    assert status_of(ledger, "Sunflower2024") == "replaced"


@pytest.mark.parametrize("text, value", [
    ("the manual says 5W-30 so that's what goes in", "5W-30"),
    ("my friend said use 0W-20 oil", "0W-20"),
    ("the mower takes 10w-40", "10w-40"),
])
def test_an_oils_viscosity_grade_is_one_name(text: str, value: str) -> None:
    assert value in _refs(text)


def test_a_count_after_an_amount_joined_to_its_unit_is_a_listed_count() -> None:
    values = {f.value for f in message_facts(
        "she needs like a 2-inch binder, 5 dividers, and the calculator is the TI-84")}
    assert {"2-inch binder", "5 dividers"} <= values


@pytest.mark.parametrize("text, value", [
    ("the dentist moved me to the 9th, they had a staff shortage", "the 9th"),
    ("so rent is still due on the 1st", "the 1st"),
    ("the sale runs until the 15th", "the 15th"),
])
def test_a_day_of_the_month_keeps_its_article(text: str, value: str) -> None:
    assert value in _refs(text)


@pytest.mark.parametrize("said, later, new, old", [
    ("rent is due on the 1st", "it's due on the 3rd now", "the 3rd", "the 1st"),
    ("the meetup is on the 12th", "not the 12th, the 14th", "14th", "the 12th"),
])
def test_a_day_of_the_month_with_its_article_is_corrected(said: str, later: str, new: str,
                                                         old: str) -> None:
    ledger = user_ledger(said, later)
    assert status_of(ledger, new) == "current"
    assert status_of(ledger, old) == "replaced"


@pytest.mark.parametrize("text, value", [
    ("its port changed uh its nine zero nine zero now", "nine zero nine zero"),
    ("the gate code is four four one two", "four four one two"),
    ("extension two oh seven", "two oh seven"),
])
def test_digits_said_one_by_one_are_one_number(text: str, value: str) -> None:
    assert value in _refs(text)


def test_two_numbers_in_words_are_no_digits_said_one_by_one() -> None:
    assert _refs("I have one or two") == []


@pytest.mark.parametrize("text, value", [
    ("Incubator 2 is set at 37 °C, 5% CO2.", "5% CO2"),
    ("add 10% FBS to the media", "10% FBS"),
    ("block in 2% BSA", "2% BSA"),
])
def test_a_share_of_a_gas_or_reagent_is_one_value(text: str, value: str) -> None:
    assert value in _refs(text)


@pytest.mark.parametrize("text, value", [("it's 20% OFF today", "20%"),
                                         ("we got 5% MoM growth", "5%")])
def test_a_percentage_before_a_word_in_capitals_is_a_percentage(text: str, value: str) -> None:
    assert _refs(text) == [value]


def test_a_new_share_of_the_same_gas_replaces_the_old() -> None:
    ledger = user_ledger("the incubator runs at 5% CO2", "we switched it to 8% CO2")
    assert status_of(ledger, "8% CO2") == "current"
    assert status_of(ledger, "5% CO2") == "replaced"


def _read_correction_first(said: str, later: str) -> list:  # type: ignore[type-arg]
    """The ledger as a chat builds it: a correction is read at once (turn 2), the statement it
    corrects (turn 1) when it is compacted."""
    from ollm_desktop.engine import facts
    from ollm_desktop.engine.models import Message
    ledger: list = []  # type: ignore[type-arg]
    facts.absorb(ledger, Message(role="user", content=later), 2)
    facts.absorb(ledger, Message(role="user", content=said), 1)
    return ledger


@pytest.mark.parametrize("said, later, new, kept", [
    ("The demo is on Thursday at 2 pm.", "Scratch that - the demo is on Friday.", "Friday",
     "2 pm"),
    ("The demo is Thursday 2 pm.", "Scratch that - the demo is on Friday.", "Friday", "2 pm"),
    ("Parent-teacher conference is Thursday at 4:15", "oh wait it's Tuesday. same time.",
     "Tuesday", "4:15"),
])
def test_a_day_corrected_before_its_pair_is_read_splits_the_pair(said: str, later: str,
                                                                  new: str, kept: str) -> None:
    for ledger in (user_ledger(said, later), _read_correction_first(said, later)):
        assert status_of(ledger, new) == "current"
        assert status_of(ledger, kept) == "current"
        assert status_of(ledger, said.split(" is ")[1].removeprefix("on ").rstrip(".")) == \
            "replaced"


@pytest.mark.parametrize("said, old, new", [
    ("The call is on Monday, sorry, Tuesday at 3pm.", "Monday", "Tuesday at 3pm"),
    ("The call is on Monday, sorry, Tuesday 3pm.", "Monday", "Tuesday 3pm"),
    ("The vet is Friday, no wait, Thursday at 9am.", "Friday", "Thursday at 9am"),
])
def test_a_day_repaired_by_a_day_and_its_time(said: str, old: str, new: str) -> None:
    ledger = user_ledger(said)
    assert status_of(ledger, old) == "replaced"
    assert status_of(ledger, new) == "current"


@pytest.mark.parametrize("text, value", [
    ("We're staying at Hotel Miramar in Split, 5 nights.", "5 nights"),
    ("the hotel is booked for 3 nights", "3 nights"),
    ("just 1 night in Porto", "1 night"),
])
def test_nights_are_a_unit_of_a_stay(text: str, value: str) -> None:
    assert value in _refs(text)


def test_a_stay_of_more_nights_replaces_the_shorter() -> None:
    ledger = user_ledger("the hotel is booked for 3 nights", "we extended it to 4 nights")
    assert status_of(ledger, "4 nights") == "current"
    assert status_of(ledger, "3 nights") == "replaced"


def test_nights_asked_about_replace_nothing() -> None:
    ledger = user_ledger("the hotel is booked for 3 nights", "should we do 4 nights?")
    assert status_of(ledger, "3 nights") == "current"
