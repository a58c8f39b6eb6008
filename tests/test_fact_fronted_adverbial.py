"""Issue 28, stop 39: a clause whose subject follows a fronted "from now on" / "from today
on" inside a longer sentence ("the board agreed that from now on minutes go to X"): the key
is that subject's, not the words before the adverbial (a preposition in the adverbial ends
no subject)."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.facts_extract import extract


@pytest.mark.parametrize(("sentence", "value", "attribute"), [
    ("The board agreed that from now on minutes go to secretary@club.example.",
     "secretary@club.example", "minute"),
    ("Our landlord says that from today on rent payments go to rent@flats.example.",
     "rent@flats.example", "payment"),
])
def test_the_subject_after_the_adverbial_keys_the_value(sentence: str, value: str,
                                                        attribute: str) -> None:
    found = [f for f in extract("user", sentence) if f.value == value]
    assert found and found[0].key.split("|")[1] == attribute
