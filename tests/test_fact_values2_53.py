"""Designators (stop 53, round two, area F): a noun of the places and seats one is given a
numbered one of and its code, one value ("Courtroom 4A", "class 2-A", "seat 18A").

The words split "4A" into a number and a letter and the references read no code of digits and
one capital (a quantity and its unit: "fuse 13A"), so the room, the class or the seat was no
value at all and its change kept the old one current (``fact_designators``).
"""

from __future__ import annotations

import pytest

from tests.engine_fakes import absorbed
from tests.fact_ledger import current_set, replaced_by_map


def _chat(said: str, later: str, reply: str = "Noted.") -> list:
    return absorbed(("user", said), ("assistant", reply), ("user", later))


def _one(said: str) -> set[str]:
    return current_set(absorbed(("user", said)))


@pytest.mark.parametrize(("said", "value"), [
    ("The hearing is in Courtroom 4A tomorrow.", "Courtroom 4A"),
    ("my kid is in class 2-A", "class 2-A"),
    ("we board at gate B22", "gate B22"),
    ("my son he is in class 3-b, new teacher", "class 3-b"),
    ("Our flat is Flat 12C, second floor.", "Flat 12C"),
    ("we were in Hall 2B last year, this year Hall 3A", "Hall 3A"),
])
def test_a_designator_after_its_noun_is_one_value(said: str, value: str) -> None:
    assert any(value in text for text in _one(said))


@pytest.mark.parametrize(("said", "later", "old", "new"), [
    ("The hearing is in Courtroom 6B.", "we shall be in Courtroom 4A instead of 6B.",
     "Courtroom 6B", "Courtroom 4A"),
    ("daughter's in grade 5-B", "she got moved to grade 5-C this week", "grade 5-B",
     "grade 5-C"),
    ("Our flat is Flat 12C", "sorry, typo, Flat 12D", "Flat 12C", "Flat 12D"),
    ("Exam's in room B12.", "of course they moved the exam. it's room C04 now.", "room B12",
     "room C04"),
])
def test_a_changed_designator_replaces_the_old(said: str, later: str, old: str,
                                               new: str) -> None:
    assert replaced_by_map(_chat(said, later)).get(old) == new


@pytest.mark.parametrize(("said", "later", "kept"), [
    ("My son is in class 2-A.", "If he changes to class 3-B next year, is the teacher new?",
     "class 2-A"),
    ("we're at Gate C12", "ok", "Gate C12"),
    ("We're in room 4B.", "should we ask for room 2C instead?", "room 4B"),
])
def test_a_question_or_a_hypothetical_designator_replaces_nothing(said: str, later: str,
                                                                  kept: str) -> None:
    assert kept in current_set(_chat(said, later, "If it moves, it could be Gate D4."))


@pytest.mark.parametrize("said", [
    "my 3D printer broke", "the fuse is 13A", "the charger is 65W",
    "Hello, I'd like my mooring booking: berth C-14, 3 nights from Friday.",
])
def test_a_quantity_a_modifier_or_a_list_label_is_no_designator(said: str) -> None:
    assert not any(text.lower().startswith(("fuse ", "charger ", "berth ", "my 3d"))
                   for text in _one(said))


def test_a_list_items_label_stays_its_key() -> None:
    ledger = _chat("my mooring booking: berth C-14, 3 nights from Friday, boat 9.5 m.",
                   "Please change the berth to D-02, it's free. Same nights.")
    assert replaced_by_map(ledger).get("C-14") == "D-02"


# ------------------------------------------------ a code of capitals and its number, one name

@pytest.mark.parametrize(("said", "value"), [
    ("Outbound train IC 2043 at 7:12, back at six.", "IC 2043"),
    ("flight is BA 117 tomorrow", "BA 117"),
    ("the old laptop runs DOS 6.22", "DOS 6.22"),
    ("Train: ICE 579 now", "ICE 579"),
])
def test_a_code_of_capitals_and_its_number_is_one_name(said: str, value: str) -> None:
    assert any(value in text for text in _one(said))


def test_a_changed_train_code_replaces_the_old() -> None:
    ledger = _chat("Outbound train IC 2043 at 7:12, return train IC 2050 at 18:48.",
                   "return is IC 2054 at 19:48 now, the meeting got extended")
    assert replaced_by_map(ledger).get("IC 2050") == "IC 2054"
    assert "IC 2043" in current_set(ledger)


@pytest.mark.parametrize(("said", "code"), [
    ("my budget is USD 500 a month", "USD 500"),
    ("the server has CPU 4 cores", "CPU 4"),
    ("shoot at ISO 800 tonight", "ISO 800"),
    ("OK 10 it is", "OK 10"),
])
def test_money_a_quantity_a_setting_or_chat_is_no_code(said: str, code: str) -> None:
    assert code not in current_set(absorbed(("user", said)))


def test_a_setting_in_a_list_keeps_its_acronym_as_key() -> None:
    ledger = _chat("Milky Way shot settings: ISO 3200, f/2.8, 20 s.",
                   "bump ISO to 6400 and drop the shutter to 15 s")
    assert "ISO 3200" not in current_set(ledger)


def test_a_designator_opening_its_sentence_keeps_its_noun_as_key() -> None:
    ledger = _chat("My address is 4 Elm St.", "Apt 2B.")
    assert "Apt 2B" not in current_set(ledger)
    assert "2B" in current_set(ledger)


def test_a_state_and_its_zip_code_is_no_code() -> None:
    assert not any(text.startswith("MA ") for text in _one("I live at 4 Elm St, Boston MA 02118."))
