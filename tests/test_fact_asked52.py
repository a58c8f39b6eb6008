"""A stated clause before a question in one sentence (stop 52, the lead's ledger diff).

"I'm 70kg, 175cm — what's my BMI?" states the weight and the height and asks for the BMI; the
ledger kept neither, because the sentence's "?" made all of it a question. A question after
a stated clause asks from where it opens (``fact_mood_asked.asked_from``): after a comma, as
before, and now also after a dash or a semicolon between the clauses; a wh-question is
never a tag however short ("…, what's my BMI?" is no "…, right?"), and "what's" is a
wh-word. A tag, a doubt of the value, a question first, somebody's value weighed, a
proposal: all of the sentence still asks.
"""

from __future__ import annotations

import pytest

from tests.fact_ledger import current_after_exchanges


@pytest.mark.parametrize(("said", "stated"), [
    ("I'm 70kg, 175cm — what's my BMI?", {"70kg", "175cm"}),
    ("I'm 70kg, what's my BMI?", {"70kg"}),
    ("the flight is at 9:40 - should I leave at 7?", {"9:40"}),
    ("the rent is £900; is that fair?", {"£900"}),
    ("our standup is at 9:15 – when should I book the room?", {"9:15"}),
    ("ok so the tank is 120 litres; what's a good stocking level", {"120 litres"}),
    ("we're 6 people — how many pizzas do we need?", {"6 people"}),
])
def test_a_clause_stated_before_a_question_keeps_its_values(said: str,
                                                           stated: set[str]) -> None:
    assert stated <= current_after_exchanges(said)


@pytest.mark.parametrize(("said", "asked"), [
    ("the port is 8443 — right?", "8443"),
    ("the port is 8443, isn't it?", "8443"),
    ("the port is 8443 — is that right?", "8443"),
    ("how much is it — 5 or 6?", "5"),
    ("is the flight at 9:40 — or was it 10?", "9:40"),
    ("someone on reddit pays 1300 a month — is that normal?", "1300 a month"),
    ("Moving the class to 10am — would that work?", "10am"),
    ("The client wants Monday; would that work?", "Monday"),
    ("should we use port 5434 — what do you think?", "5434"),
])
def test_a_question_of_its_own_sentence_still_asks(said: str, asked: str) -> None:
    assert asked not in current_after_exchanges(said)


@pytest.mark.parametrize(("said", "current", "weighed"), [
    ("Currently we connect to port 5222 which works. The server also accepts port 443 - would "
     "there be any downside in switching to port 443?", "5222", "443"),
    ("the gym opens at 6 — should I go at 6 or wait till 7?", None, "6"),
    ("Our plan allows 20 seats; do we need 20 seats or 25?", None, "20 seats"),
])
def test_a_question_naming_the_clause_before_it_weighs_that_clause(
        said: str, current: str | None, weighed: str) -> None:
    """A question that names a value of the clause before it weighs that clause: all of the
    sentence asks (the dash's split, stop 52, had made "accepts port 443" a statement)."""
    now = current_after_exchanges(said)
    assert weighed not in now
    assert current is None or current in now
