"""Stop 46, keys: a key restated with fewer of its owner's words is one key where it is the
only key the shorter phrase names (issue 28, point 2)."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.facts_extract import extract
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


@pytest.mark.parametrize(("first", "second", "both"), [
    ("Kafka retention is 7 days.", "Log retention in Loki is 14 days.", ("7 days", "14 days")),
    ("The request timeout is 30 s.", "The statement timeout on the DB is 5 s.",
     ("30 s", "5 s")),
])
def test_a_name_inside_the_subject_is_its_owner_not_another_key(
        first: str, second: str, both: tuple[str, ...]) -> None:
    """"X in NAME is V": the name owns X, the key is its own (no other key is lent)."""
    ledger = user_ledger(first, second)
    assert all(stated_status(ledger, value) == "current" for value in both)
    assert not any(f.possibly_replaced_by for f in ledger)


def test_a_name_owner_keeps_the_phrase_before_its_preposition() -> None:
    found = {i.value: i.key for i in extract("user", "Log retention in Loki is 14 days.")}
    assert found["14 days"] == "loki log|retention|duration"


@pytest.mark.parametrize("said", [
    # a date's or a time's place is where it happens, no owner of its key
    "The car rental pickup in Reykjavik is on August 3.",
    # a route's end is shared by the trips between its ends
    "The return train from Vienna is 17:48.",
    # a label's colon is no copula
    "Saturday order for Café Lume: 60 croissants.",
])
def test_a_place_a_route_end_or_a_label_is_no_owner(said: str) -> None:
    keys = [i.key for i in extract("user", said) if i.ref_kind != "name"]
    assert keys and not any(w in k for k in keys for w in ("reykjavik", "vienna", "lume"))


@pytest.mark.parametrize("said", [
    "5 seconds is too little in some lag situations, but 15 seconds is too much.",  # but
    "The price for seniors has also remained the same at $11.95.",  # same (no noun)
    "We kept the seasonal shift and maintain 8 a.m. opening.",  # and
    "The correct port for PostgreSQL should be 5432",  # correct (its noun left out)
])
def test_a_function_word_is_never_a_key(said: str) -> None:
    """A conjunction, a relative word or an adjective of judgement carries no identity."""
    words = {"but", "and", "same", "correct", "which", "because"}
    for item in extract("user", said):
        assert not words & set(item.key.replace("|", " ").split()), item.key


def test_an_adjective_of_judgement_before_its_noun_stays() -> None:
    keys = [i.key for i in extract("user", "The current version is 3.2.1.")]
    assert keys == ["current|version|version"]
