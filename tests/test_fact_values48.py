"""Issue 28, stop 48 (numbers, dates and times a correction restates): an adjective of the
value in force ("final", "real") is no owner of its key; whoever "says" a value just before
it is no noun phrase of the value's key. Each with the places it must not fire."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.fact_ledger import status_of, user_ledger


def _keys(text: str) -> dict[str, str]:
    return {f.value: f.key for f in message_facts(text)}


# (stop 48's review: "final" and "real" as words of a value in force, and whoever "says" a
# value as no word of its key, replaced what was still true; both were taken back)
@pytest.mark.parametrize("first, second, kept", [
    ("The first payment is $500.", "The final payment is $2,000.", "$500"),
    ("Lena's target is 10k steps.", "My real target is 8k steps.", "10k"),
    ("My budget is $300.", "The final price is $350.", "$300"),
    ("Dinner is at 6pm.", "Actually mom says 7pm works better for her.", "6pm"),
    ("The heat is set to 68.", "The thermostat says 71 now.", "68"),
])
def test_a_final_or_said_value_of_another_key_replaces_nothing(first: str, second: str,
                                                               kept: str) -> None:
    assert status_of(user_ledger(first, second), kept) == "current"


def test_asking_what_someone_says_replaces_nothing() -> None:
    ledger = user_ledger("our dog's kibble: 2 cups twice a day",
                         "does the vet say 1.5 cups twice a day?")
    assert status_of(ledger, "2 cups") == "current"


def test_what_someone_says_without_taking_anything_back_replaces_nothing() -> None:
    ledger = user_ledger("our dog's kibble: 2 cups twice a day",
                         "the vet says 1.5 cups twice a day")
    assert status_of(ledger, "2 cups") == "current"


@pytest.mark.parametrize("said", ["timeout is thirty seconds. no, sixty. sixty seconds.",
                                  "timeout is 30 seconds. no, 60. 60 seconds."])
def test_a_bare_repair_said_again_with_its_unit_replaces_the_value(said: str) -> None:
    ledger = user_ledger(said)
    full = "sixty seconds" if "sixty" in said else "60 seconds"
    assert status_of(ledger, full) == "current"
    assert status_of(ledger, said.split(" is ")[1].split(".")[0]) == "replaced"


def test_a_bare_repair_said_again_in_the_next_message_replaces_the_value() -> None:
    ledger = user_ledger("timeout is 30 seconds.", "no, 60. 60 seconds.")
    assert status_of(ledger, "60 seconds") == "current"
    assert status_of(ledger, "30 seconds") == "replaced"


def test_a_question_then_a_full_value_repairs_nothing() -> None:
    ledger = user_ledger("timeout is 30 seconds.", "is it 60? 60 seconds.")
    assert status_of(ledger, "30 seconds") == "current"


def test_a_bare_repair_then_another_value_is_not_restated() -> None:
    ledger = user_ledger("timeout is 30 seconds.", "no, 60. 90 seconds for the retry.")
    assert status_of(ledger, "90 seconds") == "current"
    assert status_of(ledger, "30 seconds") == "current"


@pytest.mark.parametrize("rate", ["each", "every", "per"])
def test_a_rate_is_of_its_counts_unit(rate: str) -> None:
    assert _keys(f"Savings auto-transfer: 300 {rate} payday")[f"300 {rate} payday"] \
        .endswith("|number")


def test_a_rate_restated_by_a_change_verb_is_replaced() -> None:
    ledger = user_ledger("Savings auto-transfer: 300 each payday",
                         "raised the auto-transfer to 450 after the raise")
    assert status_of(ledger, "450") == "current"
    assert status_of(ledger, "300 each payday") == "replaced"


def test_a_suggested_rate_replaces_nothing() -> None:
    ledger = user_ledger("Savings auto-transfer: 300 each payday",
                         "should I raise the auto-transfer to 450?")
    assert status_of(ledger, "300 each payday") == "current"


@pytest.mark.parametrize("span", ["for a month", "for a year because of my knee"])
def test_a_span_of_time_after_a_value_is_no_owner(span: str) -> None:
    key = _keys(f"cap it at 14 km {span}")["14 km"]
    assert "month" not in key
    assert "year" not in key


def test_an_owner_after_a_value_still_owns_it() -> None:
    assert _keys("cap it at 14 km for the long run")["14 km"] == "long|run|km"


def test_megabits_and_gigabits_are_one_unit_class() -> None:
    ledger = user_ledger("home internet plan: 300 Mbps", "the home internet plan is now 1 Gbps")
    assert status_of(ledger, "1 Gbps") == "current"
    assert status_of(ledger, "300 Mbps") == "replaced"


def test_a_bandwidth_asked_about_replaces_nothing() -> None:
    ledger = user_ledger("home internet plan: 300 Mbps", "should we upgrade to 1 Gbps?")
    assert status_of(ledger, "300 Mbps") == "current"


def test_a_bandwidth_is_no_size() -> None:
    ledger = user_ledger("the cache disk is 300 GB", "the home internet plan is now 1 Gbps")
    assert status_of(ledger, "300 GB") == "current"


@pytest.mark.parametrize("moved", ["went", "rose", "jumped", "went up"])
def test_a_value_that_moved_to_a_new_one_replaces_it(moved: str) -> None:
    ledger = user_ledger("my rent is $1,200", f"my rent {moved} to $1,350 this month")
    assert status_of(ledger, "$1,350") == "current"
    assert status_of(ledger, "$1,200") == "replaced"


def test_a_verb_of_movement_is_no_head_of_the_key() -> None:
    assert _keys("after the promotion my annual salary went to 91k per year")["91k per year"] \
        == "annual|salary|k"


def test_going_to_a_place_is_no_change() -> None:
    ledger = user_ledger("the store trip is at 7pm", "we went to the store at 5pm")
    assert status_of(ledger, "7pm") == "current"


@pytest.mark.parametrize("said", ["did my rent go to $1,350?",
                                  "if my rent went to $1,350 I would move"])
def test_a_movement_asked_or_supposed_replaces_nothing(said: str) -> None:
    ledger = user_ledger("my rent is $1,200", said)
    assert status_of(ledger, "$1,200") == "current"


def test_a_dated_movement_is_an_event_not_a_change() -> None:
    ledger = user_ledger("my rent is $1,200", "two years ago my rent went to $1,350")
    assert status_of(ledger, "$1,200") == "current"
