"""Recall's quotes mark what the ledger knows of their values: a value possibly replaced by a
later value of a key that may be the same one is quoted with that later value beside it."""

from __future__ import annotations

from ollm_desktop.engine import facts
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.recall import RecalledRound, compose, quoted_notes
from ollm_desktop.engine.tokens import count_tokens

OLD = "The staging server is web-stg-01 and the production server is web-prd-01."


def _ledger() -> list[Fact]:
    new = Fact(kind="name", value="web-prd-02", source="user", message_id="m81", turn=81,
               key="|production|name")
    old = Fact(kind="name", value="web-prd-01", source="user", message_id="m68", turn=68,
               key="production|server|name", possibly_replaced_by=new.id)
    return [old, new]


def test_a_value_possibly_replaced_is_quoted_with_its_later_value():
    """Issue 28 (asked with recall): the ledger's line says "web-prd-01 (possibly replaced by
    web-prd-02 (turn 81))", but the value is current, so the ledger's notes leave its quotes
    unmarked, and the round recalled for "What is the production server now?" stated the
    older value as current beside the question."""
    ledger = _ledger()
    notes = facts.value_notes(ledger)
    assert "web-prd-01" not in notes  # current: the ledger's notes do not mark it
    round_ = RecalledRound(("m68", "r68"), 68, OLD, "Noted.", 3.0)
    found = compose([round_], "What is the production server now?", room=400,
                    count=count_tokens, notes=quoted_notes(ledger, notes))
    assert "web-prd-01 (possibly replaced by web-prd-02 (turn 81))" in found.text


def test_the_ledgers_own_notes_go_first_and_only_the_users_values_are_marked():
    """A value the ledger already notes keeps that note; a reply's value is not marked (the
    ledger does not send it), nor one whose later value is no longer current."""
    ledger = _ledger()
    marked = quoted_notes(ledger, {"web-prd-01": "replaced by web-prd-03"})
    assert marked["web-prd-01"] == "replaced by web-prd-03"
    ledger[0].source = "assistant"  # a reply's value: the ledger does not send it
    assert "web-prd-01" not in quoted_notes(ledger, {})
    ledger[0].source = "user"
    ledger[1].status = "replaced"  # the later value is no longer current: nothing to name
    assert "web-prd-01" not in quoted_notes(ledger, {})
