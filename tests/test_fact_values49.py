"""Issue 28, stop 49 (values the value finder reads whole): a stock's strength with its name
("0.5x PBS"), the last digits of a number ("ends in 9902"), sets and their repetitions ("3
sets of 8"). Each read as one value of its own class, with the places it must not fire."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.fact_ledger import status_of, user_ledger


def _values(text: str) -> dict[str, str]:
    return {f.value: f.key for f in message_facts(text)}


@pytest.mark.parametrize("text, value", [
    ("washes: 3x with 1x PBS, 5 min each", "1x PBS"),
    ("run the gel in 0.5X TBE", "0.5X TBE"),
    ("hybridise overnight in 2x SSC at 42C", "2x SSC"),
])
def test_a_strength_and_its_stock_are_one_value(text: str, value: str) -> None:
    values = _values(text)
    assert value in values and value.split()[0] not in values
    assert values[value].endswith("|strength " + value.split()[-1].lower())


def test_a_count_of_a_product_with_its_number_is_no_strength() -> None:
    values = _values("we bought 2x RTX 3090 cards")
    assert "2x RTX" not in values


def test_a_new_strength_of_the_same_stock_replaces_the_old() -> None:
    ledger = user_ledger("washes: 3x with 1x PBS, 5 min each",
                         "using 0.5x PBS instead of 1x PBS, the cells were lifting")
    assert status_of(ledger, "1x PBS") == "replaced"
    assert status_of(ledger, "0.5x PBS") == "current"


@pytest.mark.parametrize("text, digits", [
    ("new SIM came today. mobile ends in 9902", "9902"),
    ("pay with the card ending in 4471", "4471"),
    ("the account number ends with 0831", "0831"),
])
def test_the_last_digits_of_a_number_are_a_value(text: str, digits: str) -> None:
    facts = {f.value: f for f in message_facts(text)}
    assert digits in facts and facts[digits].ref_kind == "name"


def test_new_last_digits_replace_the_old() -> None:
    ledger = user_ledger("my mobile ends in 4471", "new SIM, actually my mobile ends in 9902")
    assert status_of(ledger, "4471") == "replaced"
    assert status_of(ledger, "9902") == "current"


@pytest.mark.parametrize("text", ["the report for the fiscal year ending 2024 is late",
                                  "the week ending 14 June", "the lease ends in 2026",
                                  "the meeting ends in 10, then lunch"])
def test_a_number_after_ending_alone_is_no_last_digits(text: str) -> None:
    """"the year ending 2024": what ends, not the digits a number ends in ("in" or "with"
    says those); "ends in 2026", "ends in 10": a year, minutes (last digits are three or more,
    and no year)."""
    assert all(f.ref_kind != "name" for f in message_facts(text))


@pytest.mark.parametrize("text, value", [
    ("Squats: I do 3 sets of 8 at 80kg.", "3 sets of 8"),
    ("bench is 4 sets of 10 reps", "4 sets of 10 reps"),
])
def test_sets_and_repetitions_are_one_value(text: str, value: str) -> None:
    values = _values(text)
    assert value in values and values[value].endswith("|sets")


def test_new_sets_replace_the_old() -> None:
    ledger = user_ledger("squats: 3 sets of 8 at 80kg", "squats are 5 sets of 5 now")
    assert status_of(ledger, "3 sets of 8") == "replaced"
    assert status_of(ledger, "80kg") == "current"


def test_a_keyless_frequency_of_another_activity_only_possibly_replaces() -> None:
    """How often is always an activity's: "I go to yoga three times a week now" after "I swim
    twice a week" names another activity; the swim's frequency stays current, marked."""
    ledger = user_ledger("I swim twice a week", "Actually, I go to yoga three times a week now")
    old = next(f for f in ledger if f.value == "twice a week")
    assert old.status == "current" and old.possibly_replaced_by is not None


@pytest.mark.parametrize("first, second, old", [
    ("I go to yoga twice a week", "Actually, I go to yoga three times a week now",
     "twice a week"),
    ("Backups run nightly.", "Actually, it's twice a day now", "nightly"),
    ("We deploy weekly.", "Actually, we deploy daily now", "weekly"),
])
def test_a_frequency_of_the_same_activity_or_of_none_replaces(first: str, second: str,
                                                              old: str) -> None:
    assert status_of(user_ledger(first, second), old) == "replaced"


def test_a_count_in_words_and_the_figure_it_moved_up_from() -> None:
    """"five trains per hour (up from four)": the count and the number after "up from" are
    the new and the old value, as "5 trains per hour (up from 4)" are."""
    facts = message_facts("On Saturday there will be five trains per hour (up from four) and "
                          "on Sunday there will be three trains per hour (up from two).")
    new = {f.value for f in facts if not f.old}
    old = {f.value for f in facts if f.old}
    assert {"five trains", "three trains"} <= new and old == {"four", "two"}


@pytest.mark.parametrize("text", ["I picked the two kids up from school.",
                                  "we hand-picked three examples from four papers",
                                  "The two teams moved up from four to the top league."])
def test_a_number_in_words_is_prose_without_a_move_of_its_count(text: str) -> None:
    assert not any(f.value in ("two kids", "four", "three examples", "two teams")
                   for f in message_facts(text))


@pytest.mark.parametrize("text, value, flag", [
    ("Java heap: -Xmx4g", "-Xmx4g", "-xmx"),
    ("we build with make -j8", "-j8", "-j"),
    ("gcc -O2 for the release build", "-O2", "-o"),
])
def test_an_option_and_its_figure_are_one_value(text: str, value: str, flag: str) -> None:
    values = _values(text)
    assert value in values and values[value].endswith("|option " + flag)


def test_an_option_replaces_the_same_option_only() -> None:
    ledger = user_ledger("Java heap: -Xmx4g, stack -Xss1m",
                         "lowered the heap to -Xmx3g, the container only has 4g total")
    assert status_of(ledger, "-Xmx4g") == "replaced"
    assert status_of(ledger, "-Xss1m") == "current"


@pytest.mark.parametrize("text", ["the COVID-19 rules apply", "rated e-5 on the scale"])
def test_a_words_hyphen_is_no_option(text: str) -> None:
    assert all(not f.value.startswith("-") for f in message_facts(text))


@pytest.mark.parametrize("text, value", [
    ("The recipe serves 4.", "serves 4"),
    ("this lasagne recipe serves 4", "serves 4"),
    ("the pot feeds 6-8 people", "feeds 6-8 people"),
])
def test_what_a_dish_serves_is_one_value(text: str, value: str) -> None:
    values = _values(text)
    assert value in values and values[value].endswith("|serving")


def test_a_new_yield_replaces_the_old() -> None:
    ledger = user_ledger("The recipe serves 4.", "Correction: the recipe serves 6.")
    assert status_of(ledger, "serves 4") == "replaced"


def test_what_serves_a_count_of_another_noun_is_that_count() -> None:
    values = _values("The night bus now serves 14 stations.")
    assert "14 stations" in values and "serves 14" not in values


@pytest.mark.parametrize("text, value", [
    ("Running the 5k at 24:30 pace target.", "24:30 pace"),
    ("long runs at a 8:30 pace", "8:30 pace"),
    ("I was doing 9 minute miles before the injury", "9 minute miles"),
])
def test_a_pace_is_one_value(text: str, value: str) -> None:
    values = _values(text)
    assert value in values and values[value].endswith("|pace")


@pytest.mark.parametrize("text, value", [("the run starts at 7:30 near the park", "7:30"),
                                         ("My running pace target is 5:30/km.", "5:30")])
def test_a_clock_time_or_a_rate_is_no_pace(text: str, value: str) -> None:
    values = _values(text)
    assert value in values and not values[value].endswith("|pace")


def test_a_new_pace_replaces_the_old() -> None:
    ledger = user_ledger("Running the 5k at 24:30 pace target.",
                         "Correction: the target is 23:45 pace.")
    assert status_of(ledger, "24:30 pace") == "replaced"
