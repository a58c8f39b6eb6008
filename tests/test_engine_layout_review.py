"""Review findings on the request layout (engine): each test failed before its fix.

8: the ledger shrinking for room kept its pinned facts and said which facts were left out;
9: a region rebuild is linear in the chat's length; 12: a leading continue stub does not stop
a summary from reusing the chat's prefix; 13: a retry refused as too long still falls back to
the standalone prompt; 14: the quoted parts' counts are those of the annotated text.
"""

from __future__ import annotations

from ollm_desktop.engine import ContextEngine, EngineConfig
from ollm_desktop.engine.fact_types import Fact
from tests.engine_fakes import GoodSummarizer, words


# ------------------------------------------------------------------ 8: pinned facts stay
def _short_of_room() -> tuple[ContextEngine, Fact, list[Fact]]:
    """A 2K chat whose pinned turns and newest message leave (almost) no room for the ledger."""
    engine = ContextEngine(EngineConfig(context_size=2048, min_messages=2), GoodSummarizer(),
                           "You are helpful.")
    pin = engine.add_fact("The deploy key lives in vault path secret/deploy/prod.", pinned=True)
    others = [engine.add_fact(f"Note {n}: " + words(25, n)) for n in range(12)]
    engine.add("user", "Keep this: " + words(700, 3), pinned=True)
    engine.add("assistant", "Noted.", pinned=True)
    engine.add("user", "Question: " + words(950, 1))
    return engine, pin, others


def test_a_ledger_shrunk_for_room_keeps_its_pinned_facts() -> None:
    """facts.py: pinned entries are never evicted. The ledger used to be emptied outright
    (pins too) before the largest unpinned message was cut."""
    engine, pin, _ = _short_of_room()
    system = engine.api_messages()[0]["content"]
    assert "secret/deploy/prod" in system
    usage = engine.usage()
    assert not usage.over_budget and usage.total <= usage.usable
    newest = engine.display_messages()[-1]
    assert engine._assembly().clipped_ids == {newest.id}  # cut after the ledger shrank
    assert pin.id in engine._assembly().facts_shown


def test_the_facts_panel_says_which_facts_a_shrunk_ledger_left_out() -> None:
    """The left-out ids were overwritten with the previously shown ones: the panel showed
    the pin as left out and the facts really left out as neither."""
    engine, pin, others = _short_of_room()
    view = engine.facts_view()
    assert view.shown == {pin.id}
    assert view.left_out == {f.id for f in others}


def test_pinned_facts_alone_over_the_room_mark_the_request_over_budget() -> None:
    """When even the pins-only ledger does not fit, the request is over budget (said, never
    hidden), as with pinned messages; the pinned fact is not dropped to make it fit."""
    engine = ContextEngine(EngineConfig(context_size=2048, min_messages=2), GoodSummarizer(),
                           "You are helpful.")
    pin = engine.add_fact("Pinned: " + words(120, 7), pinned=True)
    engine.add("user", "Keep this: " + words(1500, 3), pinned=True)
    engine.add("assistant", "Noted.", pinned=True)
    engine.add("user", "Question: " + words(40, 1))
    assembly = engine._assembly()
    assert pin.id in assembly.facts_shown
    assert assembly.over_budget and engine.usage().over_budget


def test_pinned_facts_alone_over_budget_are_named_as_such() -> None:
    engine = ContextEngine(EngineConfig(context_size=2048, min_messages=2), GoodSummarizer(),
                           "You are helpful.")
    engine.add_fact("Pinned: " + words(1800, 7), pinned=True)
    engine.add("user", "Question: " + words(40, 1))
    usage = engine.usage()
    assert usage.over_budget and usage.note.startswith("Pinned facts alone exceed")
