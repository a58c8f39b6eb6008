"""Stop 54's lead fix: a number placed by a verb and "on / at" is a value when a short
phrase of where or for what follows it ("the heating is at 21 in the lounge", "postgres
runs on 5432 on the dev box"), not only at its clause's end (``fact_verb_places``)."""

from __future__ import annotations

import pytest

from tests.fact_ledger import chat as _chat
from tests.fact_ledger import current_set, replaced_by_map, stated_status


@pytest.mark.parametrize(("said", "value"), [
    ("the heating is at 21 in the lounge", "21"),
    ("postgres runs on 5432 on the dev box", "5432"),
    ("thermostat's at 20 in the flat", "20"),
    ("redis listens on 6379 for the cache", "6379"),
    ("the shop opens at 10 on weekdays", "10"),
])
def test_a_placed_number_before_a_place_is_read(said: str, value: str) -> None:
    assert value in current_set(_chat(said, "A: Noted.", "thanks"))


def test_a_placed_number_before_a_place_is_corrected() -> None:
    ledger = _chat("the heating is at 21 in the lounge", "A: Noted.",
                   "turned it up, the heating is at 23 in the lounge now")
    assert "23" in current_set(ledger)
    assert "21" in replaced_by_map(ledger)


@pytest.mark.parametrize("question", [
    "should we move it to 5434 so it doesn't clash?",
    "what if we moved it to 5434?",
])
def test_a_question_after_a_placed_number_replaces_nothing(question: str) -> None:
    ledger = _chat("postgres runs on 5432 on the dev box", "A: Noted.", question)
    assert stated_status(ledger, "5432") == "current"
    assert stated_status(ledger, "5434") is None  # (an open question at most)


@pytest.mark.parametrize("said", [
    "the server runs on 16 cores in the rack",
    "we meet at 10 in the morning and then at 3",
])
def test_a_count_or_a_list_is_not_read_as_a_placed_number(said: str) -> None:
    ledger = _chat(said, "A: Noted.", "thanks")
    assert not any(v in {"16 in", "10 in"} for v in current_set(ledger))
