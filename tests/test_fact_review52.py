"""The lead's ledger diff of stop 52's second round (1,920 review chats of two writers, read on
the round's parent and after it): the readings a round made worse, narrowed.

Two capitalised words that open a sentence are one name only where they are its whole first
clause ("Funmi Adeyemi, same firm."): "Because Rogers was too expensive I switched to Fido"
had joined "Because Rogers" into a name, which became a key, and the switch replaced nothing;
"Using Neovim from now on." became a sentence-long value.
"""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed
from tests.fact_ledger import current_after_exchanges, current_set, replaced_by_map


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("Rogers is my carrier.", "Because Rogers was too expensive I switched to Fido.",
     "Rogers", "Fido"),
    ("We bank with Barclays.", "Since Barclays kept closing branches we moved to Monzo.",
     "Barclays", "Monzo"),
])
def test_a_sentence_opening_with_a_subordinator_joins_no_name(said: str, later: str,
                                                             old: str, new: str) -> None:
    ledger = absorbed(("user", said), ("assistant", "Ok."), ("user", later))
    assert replaced_by_map(ledger).get(old) == new


def test_an_opening_gerund_and_its_object_are_no_name() -> None:
    ledger = absorbed(("user", "I use VS Code."), ("assistant", "Ok."),
                      ("user", "Using Neovim from now on."))
    assert "Using Neovim from now on." not in current_set(ledger)
    assert "Neovim" in current_set(ledger)


@pytest.mark.parametrize("answer", ["Funmi Adeyemi, same firm.", "Priya Nair now."])
def test_a_full_name_that_is_its_clause_is_still_one_name(answer: str) -> None:
    ledger = absorbed(("user", "my accountant is Derek Moss at Moss & Pryor"),
                      ("assistant", "Who is your accountant now?"), ("user", answer))
    assert answer.split(",")[0].removesuffix(" now.") in current_set(ledger)


# ------------------------------------------------------------ the read-only review of stop 52

def _chat(said: str, later: str, reply: str = "ok") -> list:
    return absorbed(("user", said), ("assistant", reply), ("user", later))


@pytest.mark.parametrize(("said", "later", "kept"), [
    ("The meeting is at 3 pm", "I looked at the clock, it's 4 pm already", "3 pm"),
    ("The thermostat is set to 20 degrees", "I checked the forecast, it's 28 degrees tomorrow",
     "20 degrees"),
    ("the pool is 26 degrees", "just looked outside, it's 12 outside", "26 degrees"),
])
def test_a_finding_of_what_is_seen_now_corrects_nothing(said: str, later: str,
                                                        kept: str) -> None:
    """A "found out" lead ("checked the sticker, it's 8443") corrects as "actually" does;
    a value seen or foreseen ("already", "tomorrow", "outside") is no record of the value."""
    assert kept in current_set(_chat(said, later))


def test_a_finding_of_a_record_still_corrects() -> None:
    assert replaced_by_map(_chat("my flight is at 9:40", "Just called the airline, it's 10:15")
                           ).get("9:40") == "10:15"


def test_pick_up_between_two_times_is_a_range_not_a_choice() -> None:
    now = current_after_exchanges("I pick up the kids between 3 and 3:30 pm on weekdays")
    assert "3:30 pm" in now


def test_weighing_up_between_two_values_is_still_a_choice() -> None:
    ledger = _chat("flying on the 1800 mAh packs",
                   "im weighing up between 2200 and 2400 mAh for the next order")
    now = current_set(ledger)
    assert "1800 mAh" not in replaced_by_map(ledger)
    assert "1800 mAh" in now


def test_the_right_one_after_a_copula_is_the_correct_one_not_the_right_side() -> None:
    ledger = _chat("Left tyre pressure is 32 psi and right tyre pressure is 34 psi",
                   "No, 36 psi is the right one for the rear")
    assert {"32 psi", "34 psi"} <= current_set(ledger)
    side = _chat("the left monitor speaker is on input 3 and the right monitor speaker is on "
                 "input 4", "actually the right one is on input 6")
    assert "input 4" not in current_set(side)


@pytest.mark.parametrize("said", ["Long day at work, feeling run-down",
                                  "The plumber came, super easy-going, fixed the boiler"])
def test_a_hyphenated_adjective_outside_a_list_of_values_is_no_code(said: str) -> None:
    assert not {"run-down", "easy-going"} & current_set(absorbed(("user", said)))


def test_a_greeting_and_a_name_are_no_full_name() -> None:
    ledger = _chat("My accountant is Jane Smith, KPMG", "Bye Jane.")
    assert "Bye Jane" not in current_set(ledger)


def test_same_firm_after_a_long_blank_run_is_still_read() -> None:
    """The clause "same firm" is found clause by clause (one pattern over the whole text
    scanned every blank run again: 15 s for 20,000 newlines, now linear)."""
    ledger = _chat("my accountant is Derek Moss at Moss & Pryor",
                   "It's Funmi Adeyemi now, same firm." + "\n" * 2000 + "thanks")
    assert "Derek Moss" in current_set(ledger)
