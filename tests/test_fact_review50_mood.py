"""Stop 50's review of the clauses round: a clause whose subject is nobody in particular,
before a question that weighs it, states nothing of the user's ("Someone on reddit pays 1300
a month, is that normal?"); the user's own or their landlord's stays stated."""

import pytest

from tests.fact_ledger import user_ledger


def _current(*messages: str) -> set[str]:
    return {f.value for f in user_ledger(*messages) if f.status == "current" and
            f.kind != "question"}


@pytest.mark.parametrize("asked", [
    "Someone on reddit pays 1300 a month, is that normal?",
    "A friend pays 1300 a month, is that normal?",
    "People pay 1300 a month around here, is that a lot?",
    "Somebody at work pays 1300 a month, is that fair?",
])
def test_nobody_in_particular_before_a_question_states_nothing(asked: str) -> None:
    current = _current("My rent is 1200 a month.", asked)
    assert "1200 a month" in current
    assert not any(v.startswith("1300") for v in current)


@pytest.mark.parametrize(("text", "value"), [
    ("my landlord charges 1200 a month, is that fair?", "1200 a month"),
    ("we bill 85 EUR an hour, should we raise it?", "85 EUR an hour"),
])
def test_the_users_own_clause_before_a_question_still_states(text: str, value: str) -> None:
    assert value in _current(text)
