""""V [K] Y to X" without "from" is a change of a value only when X is a whole value, not a
part of something: "changed 4 to 6 of them" moves six of the workers; it sets no new count."""

from __future__ import annotations

import pytest

from tests.fact_ledger import check_current, values_after


@pytest.mark.parametrize("history, text, kept", [
    ("The team has 4 workers.", "We changed 4 to 6 of them last week.", "4 workers"),
    ("The pool has 10 connections.", "I raised 10 to 20 of them to high priority.",
     "10 connections"),
    ("We own 12 trucks.", "We switched 3 to 5 of the trucks to electric.", "12 trucks"),
])
def test_a_change_of_a_part_keeps_the_whole_value(history: str, text: str, kept: str) -> None:
    assert kept in values_after(history, text)


@pytest.mark.parametrize("history, text, new, old", [
    ("The port is 8080.", "Updated port 8080 to 8090.", "8090", "8080"),
    ("We run 3 replicas.", "bump the replicas 3 to 5", "5", "3 replicas"),
    ("Standup is at 9:30.", "Please change 9:30 to 10:00.", "10:00", "9:30"),
])
def test_a_change_to_a_whole_value_still_retires_y(
        history: str, text: str, new: str, old: str) -> None:
    check_current(values_after(history, text), new, old)
