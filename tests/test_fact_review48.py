"""Issue 28, stop 48's read-only review: readings of the round that went too far, each
narrowed (these fail on the merged rounds before the narrowing, 9c2ed27): a value that "went
to" a figure is the speaker's own thing's, not another's, a reported one or a general one; a
name said to have failed is the old value of a new name only where the message tells of a
change; a container image's name is a product's or a registry path ("temp:37.2" is a
reading); "0x1000" is no size; "Rose" is a name, not a verb of movement. ("final"/"real" and
"X says" were taken back: tests/test_fact_values48.py.)"""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.fact_ledger import status_of, user_ledger


@pytest.mark.parametrize("first, second, kept", [
    ("Our rent is $1,400.", "My sister's rent jumped to $2,100.", "$1,400"),
    ("Our rent is $1,400.", "Sarah said her rent went to $2,000.", "$1,400"),
    ("Our rent is $1,400.", "Rents downtown jumped to $2,500.", "$1,400"),
    ("My squat max is 100 kg.", "My brother's squat max went to 140 kg.", "100 kg"),
    ("My rent is $1,400.", "My rent in my old place went to $1,100.", "$1,400"),
    ("The house price is $450,000.", "Prices in our area rose to $500,000 on average.",
     "$450,000"),
])
def test_another_owners_or_a_general_value_that_moved_replaces_nothing(
        first: str, second: str, kept: str) -> None:
    assert status_of(user_ledger(first, second), kept) == "current"


def test_the_speakers_own_value_that_moved_still_replaces() -> None:
    ledger = user_ledger("My rent is $1,400.", "the rent rose up to $1,550 this month")
    assert status_of(ledger, "$1,400") == "replaced"
    assert status_of(ledger, "$1,550") == "current"


@pytest.mark.parametrize("first, second, kept", [
    ("My partner is Tom.", "We're eating at Nobu. Tom is off.", "Tom"),
    ("Our babysitter is Anna.", "The school play is at Lincoln Elementary. Anna is off.", "Anna"),
    ("Our DJ is Marco.", "The band is The Blue Notes. Marco cancelled.", "Marco"),
    ("My day off is Monday.", "I'm at Google still. Monday is off.", "Monday"),
])
def test_a_name_that_failed_without_a_change_replaces_nothing(first: str, second: str,
                                                               kept: str) -> None:
    assert status_of(user_ledger(first, second), kept) == "current"


def test_a_name_that_failed_beside_a_change_is_still_replaced() -> None:
    ledger = user_ledger("Hotel in Kyoto: Hotel Granvia",
                         "booked Mitsui Garden instead, Granvia was full.")
    assert status_of(ledger, "Mitsui Garden") == "current"
    assert status_of(ledger, "Hotel Granvia") == "replaced"


@pytest.mark.parametrize("text, value", [("Now temp:37.2, much better.", "37.2"),
                                         ("Water ph:7.2 in the tank.", "7.2"),
                                         ("run it on localhost:3000-dev.", "3000")])
def test_a_reading_after_a_colon_is_no_image(text: str, value: str) -> None:
    values = {f.value for f in message_facts(text)}
    assert value in values and not any(":" in v for v in values)


def test_an_image_tag_keeps_no_full_stop() -> None:
    assert "node:18-alpine" in {f.value for f in message_facts("the base is node:18-alpine.")}


def test_a_corrected_reading_after_a_colon_replaces_the_old_one() -> None:
    ledger = user_ledger("My temp was 38.5 this morning.", "Now temp:37.2, much better.")
    assert status_of(ledger, "38.5") == "replaced"


def test_a_hexadecimal_number_is_no_size() -> None:
    assert not any("x" in f.value for f in message_facts("the mask is 0x1000"))


def test_rose_the_name_is_a_word_of_the_key() -> None:
    assert {f.key for f in message_facts("My daughter Rose is 7.")} == {"daughter|rose|number"}
