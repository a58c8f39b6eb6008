"""Stop 46, keys: a key restated with fewer of its owner's words is one key where it is the
only key the shorter phrase names (issue 28, point 2)."""

from __future__ import annotations

import pytest

from tests.fact_ledger import stated_status, user_ledger


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("The kitchen fridge space is 68 cm.", "I measured again, the fridge space is 70 cm.",
     "68 cm", "70 cm"),
    ("The piano exam fee is $120.", "Exam fee is $135 this year.", "$120", "$135"),
])
def test_a_key_restated_without_an_owner_word_replaces(
        said: str, later: str, old: str, new: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, old) == "replaced"
    assert stated_status(ledger, new) == "current"


@pytest.mark.parametrize(("said", "later", "kept"), [
    # two keys the shorter phrase may both mean: neither is taken back
    ("The frontend server port is 5173 and the backend server port is 8000.",
     "The server port is 5175.", ("5173", "8000")),
    # a phrase that names no owner at all replaces nothing silently
    ("The piano exam fee is $120.", "The fee is $135 this year.", ("$120",)),
    # a longer phrase may name another thing of its kind: it takes nothing back
    ("The fridge space is 68 cm.", "The kitchen fridge space is 70 cm.", ("68 cm",)),
    # a correction's message: its plain values are what it leaves as they are
    ("The kitchen fridge space is 68 cm.",
     "Correction: the oven is 200°C, not 180°C. The fridge space is 70 cm.", ("68 cm",)),
])
def test_a_shorter_phrase_of_several_keys_or_none_replaces_nothing(
        said: str, later: str, kept: tuple[str, ...]) -> None:
    ledger = user_ledger(said, later)
    assert all(stated_status(ledger, value) == "current" for value in kept)
