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


def test_this_one_names_no_key() -> None:
    """"for this one" names no owner: the value is the one of its unit the chat has."""
    ledger = user_ledger("The oven should be at 180°C.", "oops, 200°C for this one")
    assert stated_status(ledger, "180°C") == "replaced"
    assert stated_status(ledger, "200°C") == "current"


def test_the_other_one_keeps_its_owner_word() -> None:
    ledger = user_ledger("The kitchen quote is £4,200 and the bathroom quote is £2,800.",
                         "The bathroom one is £3,100 now.")
    assert stated_status(ledger, "£4,200") == "current"
    assert stated_status(ledger, "£2,800") == "replaced"
