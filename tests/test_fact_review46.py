"""Stop 46's read-only review: readings of the stop that went too far, each reproduced on
c2600ab and mended. A self-repair's new value that opens a clause of its own is a second fact
(``fact_self_repairs``); a proposal, a verbless phrase or another's wish before a question's
comma states nothing (``fact_mood_asked``); an address that owns the subject before its verb
is no value, a weekday or a month is no street's name, a count of title-case things is no
address (``fact_patterns.ADDRESS``); an adverb after "name is" before a lower-case word is no
name; digits before a letter are a quantity and its unit, no code (``CODE_CHANGE``)."""

from __future__ import annotations

import pytest

from tests.fact_ledger import fact_of, status_of, user_ledger


@pytest.mark.parametrize(("said", "kept"), [
    ("The garage code is 1234, no 4321 is the shed code.", "1234"),
    ("Mom's room is 12, no 14 is Dad's.", "12"),
    ("The meeting is Monday, actually, Tuesday works better for Tom.", "Monday"),
    ("Budget is $500, actually, $600 would be nice.", "$500"),
])
def test_a_value_that_opens_its_own_clause_repairs_nothing(said: str, kept: str) -> None:
    assert status_of(user_ledger(said), kept) == "current"


def test_a_later_code_of_another_key_leaves_the_first_turn_alone() -> None:
    ledger = user_ledger("The door code is 1234.",
                         "The garage code is 1234, no 4321 is the shed code.")
    assert all(f.status == "current" for f in ledger if f.value == "1234")


@pytest.mark.parametrize(("later", "old"), [
    ("Switching to the 11am flight, would that cost more?", "9am"),
    ("Pushing the flight to 11am, what do we lose?", "9am"),
])
def test_a_proposal_before_a_question_replaces_nothing(later: str, old: str) -> None:
    assert status_of(user_ledger("Our flight is at 9am.", later), old) == "current"


@pytest.mark.parametrize("said", [
    "A $1300 rent, would that be too much for us?",
    "Even at $1300, would it still be cheaper than buying?",
    "The client wants Monday, can we do that?",
])
def test_a_phrase_without_an_asserting_verb_before_a_question_states_nothing(said: str) -> None:
    assert all(f.kind == "question" for f in user_ledger(said))


def test_an_address_that_owns_the_subject_keeps_two_properties_apart() -> None:
    ledger = user_ledger("The rent for 14 Elm Street is $1200.",
                         "The rent for 22 Oak Avenue is now $1500.")
    assert status_of(ledger, "$1200") == "current"
    assert status_of(ledger, "$1500") == "current"
    assert status_of(user_ledger("The wifi password at 14 Elm Street is bluefish."),
                     "bluefish") == "current"


@pytest.mark.parametrize(("said", "not_an_address"), [
    ("Appointment booked for 9 Thursday Dr Khan.", "9 Thursday Dr"),
    ("We saw 2 Times Square shows.", "2 Times Square"),
    ("Got tickets: 5 Front Row seats, $80 each.", "5 Front Row"),
])
def test_no_address_of_a_weekday_or_a_count(said: str, not_an_address: str) -> None:
    assert not any(f.value == not_an_address for f in user_ledger(said))


def test_an_adverb_before_a_lower_case_word_is_no_name() -> None:
    assert not any(f.value == "hard" for f in user_ledger("Her name is really hard to spell."))


def test_digits_before_a_unit_letter_are_a_quantity() -> None:
    ledger = user_ledger("The breaker is 20A.", "We upgraded the breaker from 20A to 30A.")
    assert fact_of(ledger, "20").status == "replaced"
