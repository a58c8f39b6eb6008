"""Stop 47, keys: a correction whose key differs from the value it replaces (issue 28,
point 2). A key's owner named alone stands for its whole noun phrase where it begins only
one key of the user's of that unit class ("front tyre pressure 33 psi", then "front should
be 35 psi"); a key first named by its owner alone ("kitchen window 120 cm, bathroom window
60 cm" read as "kitchen", "bathroom") is met by its full phrase later."""

from __future__ import annotations

import pytest

from tests.fact_ledger import stated_status, user_ledger


@pytest.mark.parametrize(("said", "later", "old", "new", "kept"), [
    ("front tyre pressure 33 psi, rear tyre pressure 38 psi on the van",
     "front should be 35 psi per the manual, rear is fine", "33 psi", "35 psi", "38 psi"),
    ("Mia's piano lesson is Monday 4pm, Leo's piano lesson is Wednesday 5pm",
     "leo's is 5:30pm, teacher shifted him", "Wednesday 5pm", "5:30pm",
     "Monday 4pm"),
    ("measurements for blinds: kitchen window 120 cm, bathroom window 60 cm",
     "bathroom window is 65 cm, I re-measured", "60 cm", "65 cm", "120 cm"),
    ("Frontend version 4.2.0, backend version 2.9.1.",
     "Backend version is 2.10.0 after today's deploy.", "version 2.9.1", "2.10.0", "version 4.2.0"),
])
def test_an_owner_named_alone_is_its_one_key(
        said: str, later: str, old: str, new: str, kept: str) -> None:
    ledger = user_ledger(said, later)
    assert stated_status(ledger, old) == "replaced"
    assert stated_status(ledger, new) == "current"
    assert stated_status(ledger, kept) == "current"


@pytest.mark.parametrize(("said", "later", "kept"), [
    # two keys the owner begins, of one unit class: neither is taken back
    ("Leo's piano lesson is at 5pm and Leo's swim lesson is at 6pm.",
     "Leo's is 5:30pm now.", ("5pm", "6pm")),
    # a value of another unit class: nothing of this key
    ("front tyre pressure 33 psi", "front is 40 cm wide", ("33 psi",)),
    # the same value said shorter ("the 17th" of "17 June") restates it
    ("The start date for the senior dev is 17 June.", "Senior still the 17th.",
     ("17 June",)),
    # a name says nothing of its kind: a key named by one word is no owner of another
    ("Client on this matter is Fairbourne Ltd.",
     "The matter number is FB-2026-014, put it on every email.", ("Fairbourne Ltd",)),
    # a word that does not begin the owner ("tyre" of "front tyre") names no owner
    ("front tyre pressure 33 psi", "tyre is 35 psi", ("33 psi",)),
])
def test_an_owner_of_several_keys_or_none_replaces_nothing(
        said: str, later: str, kept: tuple[str, ...]) -> None:
    ledger = user_ledger(said, later)
    assert all(stated_status(ledger, value) == "current" for value in kept)


@pytest.mark.parametrize(("said", "later", "kept"), [
    ("conference rooms: Hall A capacity 150 seats, Hall B capacity 80 seats",
     "fire marshal visited, Hall A is 120 seats now. B unchanged", ("80 seats",)),
    ("Room 2 fits 12 people and room 3 fits 20 people.", "Room 2 is 14 people now.",
     ("20 people",)),
])
def test_one_noun_of_two_labels_is_two_keys(
        said: str, later: str, kept: tuple[str, ...]) -> None:
    ledger = user_ledger(said, later)
    assert all(stated_status(ledger, value) == "current" for value in kept)



@pytest.mark.parametrize("later", [
    "scratch that, it's already 90s, someone changed it last month",
    "it's already 90s now, someone changed it last month",
])
def test_already_is_no_word_of_a_key(later: str) -> None:
    ledger = user_ledger("the webhook timeout is set to 30s", later)
    assert stated_status(ledger, "30s") == "replaced"
    assert not [f.key for f in ledger if f.value == "90s" and "already" in f.key]
