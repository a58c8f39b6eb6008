"""Stop 50's mends of the second read: the readers that guess a noun or a verb from its place
share one test of a plain word (``fact_words.open_class``)."""

import pytest

from ollm_desktop.engine.fact_verb_places import verb_like
from ollm_desktop.engine.fact_words import open_class


@pytest.mark.parametrize("word", ["trains", "approvals", "trials", "bikes"])
def test_a_plain_word_is_open_class(word: str) -> None:
    assert open_class(word)
    assert verb_like(word)


@pytest.mark.parametrize("word", ["these", "those", "this", "is", "and", "from", "they", "was"])
def test_closed_class_words_are_not(word: str) -> None:
    assert not open_class(word)
    assert not verb_like(word)


def test_digits_and_signs_are_not_plain_words() -> None:
    assert not open_class("4")
    assert not open_class("x-ray")
