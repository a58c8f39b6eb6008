"""Issue 28, stop 39: "NAME is the K" / "NAME is our K" states who holds a role (the key is
the role, the name its value, not the other way round), so a later holder of the role meets
it; "NAME is the K now" takes the role over. A day or an amount as the subject, an
indefinite ("a reviewer"), a question, a condition or a modal hold no role."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.facts_extract import extract
from tests.engine_fakes import absorbed, fact_of, value_of


@pytest.mark.parametrize(("sentence", "value", "key"), [
    ("Ingrid is our quartermaster.", "Ingrid", "|quartermaster|name"),
    ("Tobias is the lighting designer.", "Tobias", "lighting|designer|name"),
    ("Harbourside is the venue for the reunion.", "Harbourside", "reunion|venue|name"),
    ("Wojtek is the code owner for this repo.", "Wojtek", "code|owner|name"),
])
def test_a_name_holds_the_role_it_is_said_to_be(sentence: str, value: str, key: str) -> None:
    found = [f for f in extract("user", sentence) if not f.old]
    assert [(f.value, f.key, f.correction) for f in found] == [(value, key, False)]


@pytest.mark.parametrize("sentence", [
    "Is Ingrid the quartermaster?", "If Ingrid is the quartermaster, ask her.",
    "Ingrid could be the quartermaster.", "Ingrid is a quartermaster.",
    "Ingrid is the one to ask.", "Thursday is the pottery class.",
    "Ingrid is the quartermaster for now.",
])
def test_no_role_without_a_statement_of_its_holder(sentence: str) -> None:
    keys = [f.key for f in extract("user", sentence)]
    assert not [k for k in keys if k.endswith(("|quartermaster|name", "|class|name"))]


@pytest.mark.parametrize("then", ["Oskar is the lighting designer now.",
                                  "Oskar is our lighting designer."])
def test_a_later_holder_takes_the_role(then: str) -> None:
    ledger = absorbed(("user", "Tobias is the lighting designer."), ("user", then))
    tobias = fact_of(ledger, "Tobias")
    assert tobias.status == "replaced" and value_of(ledger, tobias.replaced_by) == "Oskar"


def test_another_role_stays() -> None:
    ledger = absorbed(("user", "Tobias is the lighting designer."),
                      ("user", "Oskar is the sound designer now."))
    assert fact_of(ledger, "Tobias").status == "current"


@pytest.mark.parametrize("sentence", [
    "Here is the list of groceries.",
    "Today is the deadline.",
    "Tomorrow is the big day!",
    "Thanks, Pablo is the best.",
    "Omar is the one who books the room.",
    "Ctrl+Z is the shortcut.",
])
def test_a_pointing_word_a_ranking_or_a_chord_holds_no_role(sentence: str) -> None:
    assert not [f for f in absorbed(("user", sentence)) if f.key.endswith("|name")]


@pytest.mark.parametrize("opener", ["Actually", "Yes", "Also", "Wait", "Oh"])
def test_an_opening_word_is_not_part_of_the_holder(opener: str) -> None:
    ledger = absorbed(("user", "Priya is the sound engineer."),
                      ("user", f"{opener} Ravi is the sound engineer now."))
    assert fact_of(ledger, "Ravi").status == "current"
    assert not [f for f in ledger if f.value.startswith(opener)]


@pytest.mark.parametrize("later", ["Ravi is the sound engineer next month.",
                                   "Ravi is the top seller this quarter."])
def test_a_holder_for_a_bounded_time_leaves_the_current_one(later: str) -> None:
    ledger = absorbed(("user", "Priya is the sound engineer. Priya is the top seller."),
                      ("user", later))
    assert all(f.status == "current" for f in ledger if f.value == "Priya")


@pytest.mark.parametrize(("first", "second"), [
    ("Nadia is the drummer.", "Nadia is the band leader."),
    ("Felix is the treasurer.", "Felix is the secretary now."),
])
def test_one_person_holds_a_second_role_beside_the_first(first: str, second: str) -> None:
    ledger = absorbed(("user", first), ("user", second))
    roles = {f.key.split("|")[1] for f in ledger if f.value == first.split()[0]}
    assert len(roles) == 2 and all(f.status == "current" for f in ledger)
