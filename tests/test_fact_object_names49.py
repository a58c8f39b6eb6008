"""Issue 28, stop 49 (names): a capitalised name a verb takes with an article ("got a Pixel",
"I drive a Mazda3 now", "we're the Quackstreet Boys") is the user's value, as the same name
right after the verb is ("use Vitest"). Each with the places it must not fire: a name in
capitals ("the README"), a name modifying a noun ("the Guardian article"), and the object of a
verb of parting ("sold the Civic")."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.fact_ledger import current_set, user_ledger


def _values(text: str) -> set[str]:
    return {f.value for f in message_facts(text) if not f.old}


@pytest.mark.parametrize("text, value", [
    ("traded it in, got a Pixel.", "Pixel"),
    ("I drive a Mazda3 now.", "Mazda3"),
    ("We're driving the Honda to the lake", "Honda"),
    ("currently leasing a Golf, lease ends next autumn", "Golf"),
    ("league said the name is taken so we're the Quackstreet Boys", "Quackstreet Boys"),
    ("change of plan, we're taking the Subaru and leaving at 9", "Subaru"),
])
def test_a_name_a_verb_takes_with_an_article_is_a_value(text: str, value: str) -> None:
    assert value in _values(text)


@pytest.mark.parametrize("text, word", [
    ("I updated the README.", "README"),  # capitals only: a noun's short form
    ("we call the API.", "API"),
    ("Read the Guardian article tonight.", "Guardian"),  # a name modifying a noun
    ("sold the Civic last week.", "Civic"),  # a verb of parting: what the user no longer has
    ("we ditched the Peloton.", "Peloton"),
    ("I returned the Dyson.", "Dyson"),
])
def test_no_name_where_it_is_no_object_the_user_has(text: str, word: str) -> None:
    assert word not in _values(text)


def test_a_new_car_named_with_its_article_is_current_after_the_old_one() -> None:
    ledger = user_ledger("My car is a 2012 Civic with 140k miles.",
                         "sold the Civic actually, I drive a Mazda3 now.")
    assert "Mazda3" in current_set(ledger)
