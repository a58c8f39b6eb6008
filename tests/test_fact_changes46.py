"""Stop 46: corrections said as a plain statement of what holds now, in chat's own spelling.

- "it's X" with an adjunct after X ("it's 5434 on this box", "it's 8443." after "used to be")
  reads X as the copula's value, as "is X" is read;
- "it's X since <a time or an event>" (or "as of") says X began to hold then: it replaces the
  key's value, and the time is no value of the key ("since" with a clause of its own gives a
  reason and corrects nothing);
- "its" at a clause's opening right before a value is "it's" with its apostrophe dropped.
- "(Y before)", "(Y previously)": an adverb of earlier after the bracket's only value names
  the old value, as "(previously Y)" does.
"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_since import held_since
from ollm_desktop.engine.fact_words import tokens_of
from tests.fact_ledger import stated_status, user_ledger


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("postgres port is 5432", "no it's 5434 on this box", "5432", "5434"),
    ("postgres port is 5432", "no its 5434", "5432", "5434"),
    ("my car insurance is 1100 a year", "it's 1260 since the renewal", "1100 a year",
     "1260"),
    ("my car insurance is 1100 a year", "its 1260 since renewal ugh", "1100 a year",
     "1260"),
    ("The rent is $1,400.", "Rent is $1,520 since May.", "$1,400", "$1,520"),
    ("The Java version is 17.", "We're on Java 21 as of this morning.", "17", "Java 21"),
])
def test_a_value_said_to_hold_now_replaces_the_old(said: str, later: str, old: str,
                                                   new: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, old) == "replaced"
    assert stated_status(ledger, new) == "current"


def test_a_past_value_then_its_present_one_in_one_message() -> None:
    ledger = user_ledger("The API port used to be 8080; now it's 8443.")
    assert stated_status(ledger, "8443") == "current"


@pytest.mark.parametrize(("said", "later", "kept"), [
    # "since" with a clause of its own gives a reason, not a time
    ("my car insurance is 1100 a year", "it's 1260 since that's the cap", "1100 a year"),
    # a possessive "its" after a verb keeps its noun phrase
    ("The server has 8 cores.", "We doubled its 8 cores for the test.", "8 cores"),
])
def test_a_reason_or_a_possessive_replaces_nothing(said: str, later: str, kept: str) -> None:
    assert stated_status(user_ledger(said, later), kept) == "current"


@pytest.mark.parametrize(("sentence", "held"), [
    ("it's 1260 since renewal", True),
    ("the port is 8443 since the migration", True),
    ("it's 1260 since that's the cap", False),
    ("it's 1260 since we moved", False),
    ("we have used 1260 since 2019", False),
    ("we're on 1260 as of this morning", True),
    ("1260 as of this morning", False),
])
def test_held_since_reads_a_present_copula_and_a_short_time(sentence: str, held: bool) -> None:
    tokens = tokens_of(sentence, [])
    for token in tokens:  # the bare number as the grammar's value token
        if token.word.isdigit():
            token.value = (token.start, token.end, token.word, "number")
            token.word = ""
    assert bool(held_since(tokens, 0)) is held


def test_the_time_since_which_a_value_holds_is_no_value_of_its_key() -> None:
    ledger = user_ledger("Rent is $1,400.", "Rent is $1,520 since May.")
    assert stated_status(ledger, "May") is None


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("Doors open at 7pm.", "Doors open at 8pm this year (7pm before).", "7pm", "8pm"),
    ("The fee is £40.", "The fee is £45 (£40 previously).", "£40", "£45"),
])
def test_an_old_value_in_a_bracket_with_an_adverb_of_earlier_after_it(
        said: str, later: str, old: str, new: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, old) == "replaced"
    assert stated_status(ledger, new) == "current"


def test_a_bracket_with_no_value_of_the_kind_before_it_retires_nothing() -> None:
    ledger = user_ledger("Doors open at 7pm.", "See the notes (7pm before).")
    assert stated_status(ledger, "7pm") == "current"
