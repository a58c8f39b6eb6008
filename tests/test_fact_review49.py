"""Stop 49's read-only review: readings of the round that went too far, each narrowed or taken
back (issue 28: a true value is never replaced, a proposal never current, two keys never one).
The rounds' own tests keep what the rules still read."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.fact_ledger import stated_status, user_ledger


@pytest.mark.parametrize(("said", "later", "kept"), [
    # a complaint of what should have happened is no repair of what the user said
    ("The train got in at 9:40.", "It should have been 9:05.", "9:40"),
    ("The package arrived on Tuesday.", "It should have been here Monday.", "Tuesday"),
    # a change of everyone's value that leaves the user out, or of someone else's (the
    # "everybody" reading was taken back)
    ("My dose is 20 mg.", "The clinic switched everyone to 40 mg, but my doctor kept me at 20.",
     "20 mg"),
    ("My shift starts at 7am.", "They moved somebody to the 10pm start.", "7am"),
    # another exercise's sets and repetitions
    ("I do 3 sets of 8 squats.", "I do 4 sets of 15 pushups now.", "8 squats"),
    # a name read after an article with "now" (that reading was taken back)
    ("My doctor is Dr. Patel.", "I'm reading a Murakami now.", "Dr. Patel"),
    ("Our cat is Luna.", "We got a Siamese now.", "Luna"),
])
def test_a_true_value_stays_current(said: str, later: str, kept: str) -> None:
    assert stated_status(user_ledger(said, later), kept) == "current"


def test_an_offer_refused_then_taken_is_the_users_value() -> None:
    ledger = user_ledger("The landlord offered a renewal at $1,300 a month. "
                         "I said no, then caved and signed it.")
    assert any(f.value == "$1,300 a month" and f.kind != "question" for f in ledger)


def test_a_refused_offer_stays_a_proposal() -> None:
    ledger = user_ledger("The landlord offered a renewal at $1,300 a month. I said no.")
    assert all(f.kind == "question" for f in ledger if f.value == "$1,300 a month")


@pytest.mark.parametrize("text", ["We ordered 3x AAA batteries.", "We need 2x HDMI cables."])
def test_a_count_of_a_plural_noun_is_no_strength(text: str) -> None:
    assert not any(f.value.endswith(("AAA", "HDMI")) for f in message_facts(text))


def test_a_strength_before_a_word_that_is_no_plural_noun_is_still_read() -> None:
    assert "0.5x PBS" in {f.value for f in message_facts("using 0.5x PBS instead of 1x PBS")}
