"""Stop 48, names corrected without a number: a name said to have failed ("Granvia was full",
"the old Bosch died", "the D'Addarios are off") beside a new name is the new name's old value
(``fact_failed_olds``); "I mean the NAME" is a repair only where the name is no subject of a
verb after it ("I mean the Hilton, honestly, looked nicer" says what the speaker thinks), and
it takes its name at the end of a message typed without a full stop ("I mean the Hilton");
"rename Y to X" makes Y the old value of X (``fact_renamed_olds``)."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_failed_olds import failed_olds
from ollm_desktop.engine.provenance import message_facts
from tests.engine_fakes import absorbed
from tests.fact_ledger import status_of, user_ledger


@pytest.mark.parametrize(("first", "later", "old", "new"), [
    ("Hotel in Kyoto: Hotel Granvia", "booked Mitsui Garden instead, Granvia was full.",
     "Hotel Granvia", "Mitsui Garden"),
    ("dishwasher brand: Bosch",
     "the old Bosch died, the thing that washes our plates is a Miele now", "Bosch", "Miele"),
    ("Bass strings: D'Addario nickels",
     "trying flatwounds now — went with La Bella. the D'Addarios are off",
     "D'Addario nickels", "La Bella"),
    ("The caterer is Rossi Catering.", "Rossi Catering cancelled, so we booked Tandoor Express.",
     "Rossi Catering", "Tandoor Express"),
])
def test_a_failed_name_beside_a_new_name_is_replaced(first: str, later: str, old: str,
                                                      new: str) -> None:
    ledger = user_ledger(first, later)
    assert (status_of(ledger, old), status_of(ledger, new)) == ("replaced", "current")


def test_the_failing_word_is_no_value_of_its_own() -> None:
    ledger = user_ledger("Bass strings: D'Addario nickels",
                         "went with La Bella. the D'Addarios are off")
    assert "off" not in {f.value for f in ledger}


@pytest.mark.parametrize("later", [
    "If Granvia is full, we'll book Mitsui Garden.",  # a condition
    "was Granvia full? Mitsui Garden looks nice",  # a question
    "maybe Granvia is full, Mitsui Garden could work",  # a doubt and a suggestion
    "Granvia was full last year, we stayed at Mitsui Garden then",  # no clause end after it
])
def test_a_failed_name_under_a_condition_or_a_question_replaces_nothing(later: str) -> None:
    ledger = user_ledger("Hotel in Kyoto: Hotel Granvia", later)
    assert status_of(ledger, "Hotel Granvia") == "current"


def test_anothers_failed_name_replaces_nothing() -> None:
    ledger = absorbed(("user", "Hotel in Kyoto: Hotel Granvia"),
                      ("assistant", "Granvia was full when I checked, Mitsui Garden is free."))
    assert status_of(ledger, "Hotel Granvia") == "current"


def test_a_failed_name_without_a_new_name_adds_no_old_value() -> None:
    found = message_facts("Granvia was full, so annoying.")
    assert failed_olds(found, "Granvia was full, so annoying.", "user") == tuple(found)


def test_a_pronoun_that_failed_is_no_name() -> None:
    text = "It died, so we bought a Miele."
    assert not any(f.old for f in failed_olds(message_facts(text), text, "user"))


@pytest.mark.parametrize("later", [
    "I mean the Hilton, honestly, looked nicer",
    "I mean the Hilton looks nicer",
])
def test_i_mean_the_name_as_a_clauses_subject_replaces_nothing(later: str) -> None:
    ledger = user_ledger("We're staying at the Marriott", later)
    assert status_of(ledger, "Marriott") == "current"


@pytest.mark.parametrize("later", [
    "the Marriott, I mean the Hilton",
    "I mean the Hilton",
    "I mean the Hilton.",
])
def test_i_mean_the_name_repairs_the_name(later: str) -> None:
    ledger = user_ledger("We're staying at the Marriott", later)
    assert (status_of(ledger, "Marriott"), status_of(ledger, "Hilton")) == (
        "replaced", "current")


@pytest.mark.parametrize(("later", "new"), [
    ("no. and we renamed billing-svc to ledger last week", "ledger"),
    ("we renamed billing-svc to ledger", "ledger"),
    ("We renamed billing-svc to Ledger yesterday.", "Ledger"),
])
def test_rename_y_to_x_replaces_y(later: str, new: str) -> None:
    ledger = user_ledger("The repo is called billing-svc", later)
    assert (status_of(ledger, "billing-svc"), status_of(ledger, new)) == ("replaced", "current")


@pytest.mark.parametrize("later", [
    "should we rename billing-svc to ledger?",  # a question
    "maybe rename billing-svc to ledger",  # a suggestion
    "if we rename billing-svc to ledger the CI breaks",  # a condition
])
def test_a_rename_asked_or_proposed_replaces_nothing(later: str) -> None:
    ledger = user_ledger("The repo is called billing-svc", later)
    assert status_of(ledger, "billing-svc") == "current"


def test_anothers_rename_replaces_nothing() -> None:
    ledger = absorbed(("user", "The repo is called billing-svc"),
                      ("assistant", "You renamed billing-svc to ledger, I think."))
    assert status_of(ledger, "billing-svc") == "current"
