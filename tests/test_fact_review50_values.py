"""Stop 50's review of the values readings that went too far, narrowed: a weekday said plainly
splits no pair of a day and its time (``fact_day_times.split_pair``: only a correction's day
does); another thing named as the subject, a one-off reading or one the user doubts restates
nothing of its unit (``fact_unit_alone``); a rate that holds a thing ("3 cups of coffee a
day") keeps that thing as its key's owner, a step of a schedule ("1 tablet a day for the
first week, then 2") is no rate, and a measure joined to its unit is a value only as an
object or a complement, never a subject nor in a past clause (``reference_value_wholes``).
Each finding's chats, then two variants of each."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.fact_ledger import status_of, user_ledger

# ------------------------------------------ a weekday said plainly splits no day-and-time pair

@pytest.mark.parametrize(("said", "later", "pair"), [
    ("Soccer practice is Wed 5pm.", "The game is Saturday.", "Wed 5pm"),
    ("Dentist Tuesday 9am.", "Gym on Friday.", "Tuesday 9am"),
    # variants
    ("Book club is Thursday 7pm.", "The bake sale is Sunday.", "Thursday 7pm"),
    ("Standup Mon 9:30.", "Oh and the retro is on Friday.", "Mon 9:30"),
])
def test_a_day_said_plainly_leaves_the_pair_whole(said: str, later: str, pair: str) -> None:
    ledger = user_ledger(said, later)
    assert status_of(ledger, pair) == "current"
    assert all(f.replaced_by is None for f in ledger)


@pytest.mark.parametrize(("said", "later", "new", "kept"), [
    ("Piano lesson is Monday 4pm.", "Actually it's Wednesday now.", "Wednesday", "4pm"),
    ("The call is Tuesday 3pm.", "Scratch that, Thursday.", "Thursday", "3pm"),
])
def test_a_corrected_day_still_splits_the_pair(said: str, later: str, new: str,
                                                kept: str) -> None:
    ledger = user_ledger(said, later)
    assert status_of(ledger, new) == "current"
    assert status_of(ledger, kept) == "current"


# ----------------------------- another thing, a one-off or a doubted reading restates nothing

@pytest.mark.parametrize(("said", "later", "old"), [
    ("The pool is 28 C.", "Today the sea was 19 C.", "28 C"),
    ("The pool is 28 C.", "This morning the hot tub was 38 C.", "28 C"),
    ("The laptop battery lasts 8 hours.", "Since the update my phone lasts 20 hours now.",
     "8 hours"),
    ("The hive has 8 frames.", "After the split the new hive has 5 frames.", "8 frames"),
    ("The commute is 40 minutes.", "Today it took 65 minutes because of snow.", "40 minutes"),
    ("I weigh 84 kg.", "Today the scale at the gym said 81 kg, but it's always off.", "84 kg"),
    # variants: a thing of the user's, a second one, one as it was, a cause, a doubt
    ("The aquarium holds 40 liters.", "Since Monday my other tank holds 60 liters.",
     "40 liters"),
    ("The garage is 12 C.", "This week the cellar was 9 C.", "12 C"),
    ("The commute is 30 minutes.", "Today the bus took 50 minutes because of roadworks.",
     "30 minutes"),
    ("The commute is 30 minutes.", "Today it was 50 minutes because of roadworks.",
     "30 minutes"),
    ("I weigh 70 kg.", "This morning the scale said 72 kg, but it's broken.", "70 kg"),
])
def test_another_things_value_or_a_one_off_restates_nothing(said: str, later: str,
                                                             old: str) -> None:
    ledger = user_ledger(said, later)
    fact = next(f for f in ledger if f.value == old)
    assert fact.status == "current" and fact.possibly_replaced_by is None


@pytest.mark.parametrize(("said", "later", "old"), [
    ("I weigh 84 kg.", "Today my scale says 81 kg.", "84 kg"),
    ("The car does 40 mpg.", "Since the tune-up it does 44 mpg.", "40 mpg"),
])
def test_a_devices_reading_or_its_own_still_restates(said: str, later: str, old: str) -> None:
    ledger = user_ledger(said, later)
    fact = next(f for f in ledger if f.value == old)
    assert fact.status == "replaced" or fact.possibly_replaced_by is not None


# ------------------------------------------------ a rate that holds a thing meets its old rate

@pytest.mark.parametrize(("said", "later", "new", "old"), [
    ("I drink 3 cups of coffee a day.", "Cut down to 1 cup of coffee a day now.",
     "1 cup of coffee a day", "3 cups of coffee a day"),
    # variants
    ("I eat 2 bowls of rice a day.", "Cut back to 1 bowl of rice a day.",
     "1 bowl of rice a day", "2 bowls of rice a day"),
    ("We use 2 bags of ice a week.", "Now it's 4 bags of ice a week.",
     "4 bags of ice a week", "2 bags of ice a week"),
])
def test_a_rate_of_a_held_thing_replaces_its_old_rate(said: str, later: str, new: str,
                                                      old: str) -> None:
    ledger = user_ledger(said, later)
    assert status_of(ledger, new) == "current"
    assert status_of(ledger, old) == "replaced"


def test_rates_of_two_held_things_stay_apart() -> None:
    ledger = user_ledger("I drink 3 cups of coffee a day.", "I also drink 2 cups of tea a day.")
    assert status_of(ledger, "3 cups of coffee a day") == "current"


# ----------------------------------------------------- a step of a schedule is no current rate

@pytest.mark.parametrize(("said", "later", "old", "step"), [
    ("I take 2 tablets a day.", "Take 1 tablet a day for the first week, then 2.",
     "2 tablets a day", "1 tablet a day"),
    # variants
    ("We feed the puppy 3 meals a day.", "Give him 4 meals a day for the next month, then 3.",
     "3 meals a day", "4 meals a day"),
    ("I run 5 km a day.", "Do 3 km a day for the first week, then 5.", "5 km a day",
     "3 km a day"),
])
def test_a_step_of_a_schedule_is_no_rate(said: str, later: str, old: str, step: str) -> None:
    ledger = user_ledger(said, later)
    fact = next(f for f in ledger if f.value == old)
    assert fact.status == "current" and fact.possibly_replaced_by is None
    assert step not in {f.value for f in ledger}


# ------------------------------------- a measure joined to its unit as subject or in the past

def _values(text: str) -> set[str]:
    return {f.value for f in message_facts(text)}


@pytest.mark.parametrize(("text", "value"), [
    ("We had a 3-week sprint once, it was awful.", "3-week sprint"),
    ("It was a 5-mile loop twice.", "5-mile loop"),
    ("A 2-pound loaf needs more.", "2-pound loaf"),
    ("My friend's 3-bedroom place costs 2000.", "3-bedroom place"),
    # variants
    ("Her 2-bedroom flat costs 1500.", "2-bedroom flat"),
    ("The 30-liter tank leaks.", "30-liter tank"),
    ("Last year we had a 3-week sprint, now we have a 2-week sprint.", "3-week sprint"),
])
def test_a_joined_measure_as_subject_or_past_is_no_value(text: str, value: str) -> None:
    assert value not in _values(text)


@pytest.mark.parametrize(("text", "value"), [
    ("I have a 2-year warranty.", "2-year warranty"),
    ("We signed a 12-month lease.", "12-month lease"),
    ("Last year we had a 3-week sprint, now we have a 2-week sprint.", "2-week sprint"),
])
def test_a_joined_measure_as_object_is_one_value(text: str, value: str) -> None:
    assert value in _values(text)
