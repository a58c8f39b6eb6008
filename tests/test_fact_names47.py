"""Stop 47, corrections whose values are names or plain words: a capitalised name after
"it's" / "that's" is the value the clause states ("It's Dan.", "Actually it's Harriet Cohl");
an admission after a name ("…, my mistake", "I keep getting that wrong") makes its sentence a
correction as it does after a number (the name is read after the admission was looked for)."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.provenance import message_facts
from tests.fact_ledger import status_of, user_ledger


@pytest.mark.parametrize(("said", "name"), [
    ("It's Dan.", "Dan"),
    ("that's Dr. Brandt now", "Dr. Brandt"),
    ("Actually it's Harriet Cohl, I misspelled it.", "Harriet Cohl"),
])
def test_a_name_after_its_is_a_value(said: str, name: str) -> None:
    assert name in [f.value for f in message_facts(said)]


@pytest.mark.parametrize("said", [
    "it's raining again.",
    "It's fine, thanks.",
])
def test_a_lower_case_word_after_its_is_no_name(said: str) -> None:
    assert message_facts(said) == []


@pytest.mark.parametrize("said", [
    "The contractor is Dan, my mistake.",
    "The contractor is Dan, I got that wrong before.",
    "it's Dan, I keep getting that wrong.",
])
def test_an_admission_after_a_name_makes_a_correction(said: str) -> None:
    facts = [f for f in message_facts(said) if f.value == "Dan"]
    assert facts and facts[0].correction


def test_a_name_then_an_admission_replaces_the_earlier_name() -> None:
    ledger = user_ledger("The kitchen contractor is Dave from BuildRight.",
                         "it's Dan, I keep getting that wrong")
    assert (status_of(ledger, "Dave"), status_of(ledger, "Dan")) == ("replaced", "current")



@pytest.mark.parametrize(("said", "name", "key"), [
    ("We renamed the cat Mochi.", "Mochi", "|cat|name"),
    ("we renamed him Mochi though, kids voted", "Mochi", "||name"),
    ("We renamed the repo payments-core.", "payments-core", "|repo|name"),
    ("we call her Maggie now", "Maggie", "||name"),
])
def test_a_verb_of_naming_gives_its_object_a_name(said: str, name: str, key: str) -> None:
    facts = [f for f in message_facts(said) if f.value == name]
    assert facts and facts[0].key == key


@pytest.mark.parametrize("said", ["we call it a day", "I named it after my dad"])
def test_a_naming_verb_without_a_name_names_nothing(said: str) -> None:
    assert message_facts(said) == []


def test_a_rename_corrects() -> None:
    facts = message_facts("We renamed the cat Mochi.")
    assert facts and facts[0].correction


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("our new kitten is called Pixel", "12 weeks. we renamed him Mochi though", "Pixel",
     "Mochi"),
    ("the repo is called billing-svc on gitlab", "we renamed it payments-core", "billing-svc",
     "payments-core"),
    ("the repo is called billing-svc", "we renamed the repo payments-core.", "billing-svc",
     "payments-core"),
])
def test_a_rename_replaces_the_name(first: str, later: str, old: str, new: str) -> None:
    ledger = user_ledger(first, later)
    assert (status_of(ledger, old), status_of(ledger, new)) == ("replaced", "current")


def test_a_day_after_a_call_is_no_name() -> None:
    assert all(f.kind != "name" for f in message_facts("I called him Tuesday."))


@pytest.mark.parametrize(("said", "value"), [
    ("I mean the Savoy Grand.", "Savoy Grand"),
    ("I mean the 5th floor, sorry.", "5th floor"),
    ("sorry, the Novotel.", "Novotel"),
])
def test_a_leads_object_after_its_article_is_the_new_value(said: str, value: str) -> None:
    facts = [f for f in message_facts(said) if f.value == value]
    assert facts and facts[0].correction


def test_i_mean_with_a_comma_is_a_filler() -> None:
    assert all(not f.correction for f in message_facts("I mean, the port is fine."))


@pytest.mark.parametrize(("said", "name"), [
    ("We switched vets, the dog sees Dr. Kim now.", "Dr. Kim"),
    ("running Fedora now and wifi is fine", "Fedora"),
])
def test_a_verbs_name_before_now_is_a_value(said: str, name: str) -> None:
    facts = [f for f in message_facts(said) if f.value == name]
    assert facts and facts[0].correction


def test_a_name_before_now_replaces_the_one_before() -> None:
    ledger = user_ledger("Our dog's vet is Dr. Alvarez.",
                         "We switched vets, the dog sees Dr. Kim now.")
    assert (status_of(ledger, "Dr. Alvarez"), status_of(ledger, "Dr. Kim")) == (
        "replaced", "current")
