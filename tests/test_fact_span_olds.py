"""A change's old value as the verb's own object or as the start of a bare "Y to X" named a
change (issue 28, stop 43: fact_span_olds), and a time's day or "local time" after "a.m." /
"p.m." that goes on with its sentence (fact_dotted_initials)."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_span_olds import span_olds
from ollm_desktop.engine.fact_types import Fact
from tests.fact_ledger import current_set, user_ledger


def _replaced(ledger: list[Fact]) -> set[str]:
    return {f.value for f in ledger if f.status == "replaced"}


@pytest.mark.parametrize(("text", "old", "new"), [
    ("fix 6GB RAM to 16GB RAM", "6GB", "16GB"),
    ("Funland in Delaware: $15 to $30 — 100% increase", "$15", "$30"),
    ("Parking went $4 to $6, a 50% rise", "$4", "$6"),
])
def test_the_changes_own_old_value_is_retired(text: str, old: str, new: str) -> None:
    ledger = user_ledger(text)
    assert new in current_set(ledger)
    assert old in _replaced(ledger)


@pytest.mark.parametrize(("text", "values"), [
    ("Tickets cost $15 to $30 depending on the seat.", {"$15", "$30"}),
    ("The shop is open 9am to 2pm on weekdays.", {"9am", "2pm"}),
    ("We added 8GB RAM to the 16GB RAM box.", {"8GB", "16GB"}),
])
def test_a_span_or_an_addition_retires_nothing(text: str, values: set[str]) -> None:
    ledger = user_ledger(text)
    assert values <= current_set(ledger)
    assert not _replaced(ledger)


def test_span_olds_reads_kinds_and_unit_classes_not_words() -> None:
    sentence = "fix 6GB RAM to 16 workers"
    spans = [(4, 7, "number", "size"), (15, 17, "number", "number")]
    assert span_olds(sentence, spans) == set()
    assert span_olds("fix 6GB RAM to 16GB RAM",
                     [(4, 7, "number", "size"), (15, 19, "number", "size")]) == {0}


@pytest.mark.parametrize(("text", "old", "new"), [
    ("The game was originally set to be played Friday night but was pushed back to 10:05 a.m. "
     "Saturday.", "Friday", "Saturday"),
    ("The start has been moved to 10:00 a.m. local time from its original noon schedule.",
     "noon", "10:00 a.m."),
])
def test_a_times_day_or_local_time_goes_on_with_its_sentence(text: str, old: str,
                                                             new: str) -> None:
    ledger = user_ledger(text)
    assert new in current_set(ledger)
    assert old in _replaced(ledger)


@pytest.mark.parametrize(("text", "old", "new"), [
    ("Swap 2 eggs to 3 eggs in the recipe.", "2 eggs", "3 eggs"),
    ("Increase the swap 2GB to 4GB.", "2GB", "4GB"),
])
def test_a_verb_and_its_objects_label_before_the_old_value(text: str, old: str,
                                                          new: str) -> None:
    ledger = user_ledger(text)
    assert new in current_set(ledger)
    assert old in _replaced(ledger)


@pytest.mark.parametrize(("text", "old", "new", "kept"), [
    ("The Elton John concert scheduled for Estádio Serra Dourada on February 21 is being moved "
     "to Goiânia Arena on the same day.", "Estádio Serra Dourada", "Goiânia Arena",
     "February 21"),
    ("The match set for Friday at Anfield has been switched to Sunday.", "Friday", "Sunday",
     "Anfield"),
])
def test_the_planned_value_a_later_change_moves_is_retired(text: str, old: str, new: str,
                                                           kept: str) -> None:
    ledger = user_ledger(text)
    assert {new, kept} <= current_set(ledger)
    assert old in _replaced(ledger)


def test_a_planned_value_of_another_kind_than_the_change_stays() -> None:
    ledger = user_ledger("The gala booked for the Grand Hotel has been moved to Saturday.")
    assert "Grand Hotel" in current_set(ledger)
