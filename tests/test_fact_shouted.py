"""A sentence written all in capitals is read as the same sentence in lower case (its capitals
tell no names from words), and its values are shown as the user wrote them."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_shouted import as_written, folded
from tests.fact_ledger import check_current, values_after


@pytest.mark.parametrize("history, text, new, old", [
    ("The recital starts at 5:15 PM.", "THE RECITAL WILL BE MOVED FROM 5:15 PM TO 6:00 PM.",
     "6:00 PM", "5:15 PM"),
    ("The Grafana port is 3000.", "THE GRAFANA PORT IS NOW 3300, NOT 3000!", "3300", "3000"),
    ("The pickup point is Gate 4.", "PLEASE NOTE THE PICKUP POINT CHANGED FROM GATE 4 TO GATE 9.",
     "GATE 9", "Gate 4"),
])
def test_a_shouted_correction_is_read_as_its_lower_case_sentence(
        history: str, text: str, new: str, old: str) -> None:
    check_current(values_after(history, text), new, old)


@pytest.mark.parametrize("history, text, kept", [
    ("The recital starts at 5:15 PM.", "SHOULD WE MOVE THE RECITAL TO 6:00 PM?", "5:15 PM"),
    ("The Grafana port is 3000.", "MAYBE THE GRAFANA PORT COULD BE 3300 SOMEDAY.", "3000"),
    ("The caterer is Saffron.", "MY AUNT THINKS THE CATERER SHOULD BE OLIVE TREE.", "Saffron"),
])
def test_a_shouted_question_hedge_or_opinion_replaces_nothing(
        history: str, text: str, kept: str) -> None:
    assert kept in values_after(history, text)


@pytest.mark.parametrize("history, text, new, old", [
    ("We host on AWS.", "WE MOVED FROM AWS TO GCP LAST WEEK.", "GCP", "AWS"),
    ("The database is MySQL.", "WE SWITCHED THE DATABASE FROM MYSQL TO POSTGRES.", "POSTGRES",
     "MySQL"),
])
def test_a_shouted_name_after_a_preposition_keeps_its_capitals(
        history: str, text: str, new: str, old: str) -> None:
    check_current(values_after(history, text), new, old)


def test_shouted_names_are_kept_as_values() -> None:
    values = values_after("MEETING WITH DANA IN BERLIN ON FRIDAY.")
    assert "DANA" in values and "BERLIN" in values
    assert folded("WE MOVED TO THE NEW OFFICE FROM NEXT WEEK.") == \
        "we moved to the new office from next week."  # (a determiner, a time: folded)


def test_mixed_case_and_short_capital_lines_are_read_as_written() -> None:
    assert folded("The API port is 8443.") is None
    assert folded("API: 8443") is None  # a heading, not a sentence
    assert folded("THE PORT IS 8443.") == "the port is 8443."


def test_a_value_is_taken_back_as_written_and_a_rebuilt_one_as_read() -> None:
    sentence = "DOORS OPEN AT 7:00 PM"
    low = sentence.lower()
    assert as_written("7:00 pm", sentence, low) == "7:00 PM"
    assert as_written("19:00", sentence, low) == "19:00"
