"""Stop 48: sibling keys stated together (pairs that share a word, "the staging db" and
"the prod db"), and a correction of one of them: it replaces its own key's value only."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.fact_ledger import status_of, user_ledger


# A hyphen that opens a line before a space is a list's mark, not a word of the key.
@pytest.mark.parametrize(("text", "key"), [
    ("- staging db: postgres 14", "staging|db|version"),
    ("- api port: 8443", "api|port|port"),
    ("notes\n- build timeout: 30 minutes", "build|timeout|duration"),
])
def test_a_list_mark_is_no_word_of_the_key(text: str, key: str) -> None:
    assert [f.key for f in message_facts(text)] == [key]


def test_a_hyphen_inside_a_line_stays_a_dash_or_a_word() -> None:
    keys = [f.key for f in message_facts("the api port - 8443 since Monday")]
    assert keys and not any(k.startswith("-") for k in keys)


# Two things' versions of one product: each names a word the other does not (a shared head
# noun, "db", makes no one thing of them); a key whose words are all in the other's is one.
@pytest.mark.parametrize(("first", "later", "new", "kept", "gone"), [
    ("- staging db: postgres 14\n- prod db: postgres 15",
     "upgraded the staging db to postgres 16 yesterday", "postgres 16", "postgres 15",
     "postgres 14"),
    ("The web server runs Node 18 and the build server runs Node 16.",
     "We moved the build server to Node 20.", "Node 20", "Node 18", "Node 16"),
])
def test_a_version_of_one_sibling_keeps_the_other(first: str, later: str, new: str,
                                                  kept: str, gone: str) -> None:
    ledger = user_ledger(first, later)
    assert (status_of(ledger, new), status_of(ledger, kept), status_of(ledger, gone)) == (
        "current", "current", "replaced")


def test_a_version_of_fewer_words_of_the_same_thing_still_replaces() -> None:
    ledger = user_ledger("The api server runs Node 18.", "The server is on Node 20 now.")
    assert status_of(ledger, "Node 18") == "replaced"


# A bare digit a statement gives its key ("car payment is 0 now") is a number, so it meets
# the number its sibling list stated ("Car payment: 410"), not a name of another key.
@pytest.mark.parametrize(("first", "later", "new", "old", "kept"), [
    ("Mortgage payment: 1,840. Car payment: 410.", "paid off the car early, so car payment "
     "is 0 now", "0", "410", "1,840"),
    ("Adult tickets: 12. Child tickets: 6.", "child tickets are 5 now", "5", "6", "12"),
])
def test_a_digit_stated_now_replaces_its_siblings_number(first: str, later: str, new: str,
                                                         old: str, kept: str) -> None:
    ledger = user_ledger(first, later)
    assert (status_of(ledger, new), status_of(ledger, old), status_of(ledger, kept)) == (
        "current", "replaced", "current")


def test_a_digit_now_of_another_key_replaces_nothing() -> None:
    ledger = user_ledger("Mortgage payment: 1,840. Car payment: 410.", "the dog is 3 now")
    assert (status_of(ledger, "410"), status_of(ledger, "1,840")) == ("current", "current")


# A list of sibling numbers, each after its noun phrase of two words or more
# (fact_listed_pairs): each number is its phrase's value, a correction of one leaves the rest.
@pytest.mark.parametrize(("text", "values"), [
    ("read replica max connections 500, primary max connections 200", ["500", "200"]),
    ("Electric bill 94, water bill 41", ["94", "41"]),
    ("pool size 20 and batch size 64", ["20", "64"]),
])
def test_a_list_of_phrases_and_numbers_gives_each_number(text: str,
                                                         values: list[str]) -> None:
    found = message_facts(text)
    assert [(f.value, f.kind) for f in found] == [(v, "number") for v in values]
    assert len({f.key for f in found}) == len(values)


@pytest.mark.parametrize(("first", "later", "new", "old", "kept"), [
    ("read replica max connections 500, primary max connections 200",
     "bumped primary max connections to 400. replica stays", "400", "200", "500"),
    ("electric bill 94, water bill 41", "correction, the water bill is 47", "47", "41", "94"),
])
def test_a_correction_of_one_listed_sibling_keeps_the_other(first: str, later: str, new: str,
                                                            old: str, kept: str) -> None:
    ledger = user_ledger(first, later)
    assert (status_of(ledger, new), status_of(ledger, old), status_of(ledger, kept)) == (
        "current", "replaced", "current")


@pytest.mark.parametrize(("text", "values"), [
    ("track 3, track 5", ["track 3", "track 5"]),  # one word and its number: names
    ("rank 16, alpha 32", ["16", "32"]),  # one-word settings (fact_settings_lists)
])
def test_one_word_items_keep_their_reading(text: str, values: list[str]) -> None:
    assert [f.value for f in message_facts(text)] == values


def test_a_single_phrase_and_number_is_no_list() -> None:
    assert [f.value for f in message_facts("primary max connections 200")] == []
