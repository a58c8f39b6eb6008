"""The facts panel's Kind column names what a value is as the user would: a weekday is a
day, a port a port, a timeout a duration (it said "number" for "Monday (launch)")."""

from __future__ import annotations

from ollm_desktop.engine.facts_front import FactsView
from ollm_desktop.ui.side_panel.facts.entries import entries
from tests.fact_ledger import user_ledger


def _kinds(*texts: str) -> dict[str, str]:
    view = FactsView(user_ledger(*texts), frozenset(), frozenset(), frozenset(), ())
    return {e.fact.value: e.kind for e in entries(view)}


def test_a_weekday_is_a_day_and_a_port_a_port(qtbot):
    kinds = _kinds("The launch is on Monday.", "The API listens on port 8443.",
                   "Set the request timeout to 60 s.", "The release is on 2026-03-14.")
    assert kinds.get("Monday") == "day", kinds
    assert kinds.get("8443") == "port", kinds
    assert kinds.get("60 s") == "duration", kinds
    assert kinds.get("2026-03-14") == "date", kinds


def test_a_count_and_a_name_keep_the_ledger_s_kind(qtbot):
    kinds = _kinds("We need 2 approvals before merging.", "The staging server is called Osprey.")
    assert kinds.get("2 approvals") == "number", kinds
    assert kinds.get("Osprey") == "name", kinds
