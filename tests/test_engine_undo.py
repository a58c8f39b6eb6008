"""undo_last_compaction: restore the previous compaction state, keep newer messages."""

from __future__ import annotations

from ollm_desktop.engine import EngineConfig
from tests.engine_fakes import api_text, chat, compact, exchange


def test_undo_restores_previous_state_and_keeps_new_messages() -> None:
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2), turns=12)
    before_api = engine.api_messages()
    assert compact(engine, force=True).status == "compacted"
    summarised = engine.display_messages()[1]
    assert summarised.content not in api_text(engine)
    exchange(engine, 100)
    newest = engine.display_messages()[-1]
    events: list[str] = []
    engine.subscribe(lambda e: events.append(e.name))
    result = engine.undo_last_compaction()
    assert result.ok, result.reason
    assert not engine.groups and engine.compaction_count == 0
    assert summarised.content in api_text(engine)
    assert newest.content in api_text(engine)
    assert engine.api_messages()[: len(before_api)] == before_api
    assert "compaction-undone" in events and "budget-recalculated" in events
    assert not engine.can_undo
    again = engine.undo_last_compaction()
    assert not again.ok and "no compaction" in again.reason


def test_undo_goes_back_one_compaction_at_a_time() -> None:
    engine, _ = chat(EngineConfig(context_size=16384, min_messages=2), turns=10)
    assert compact(engine, force=True).status == "compacted"
    first = engine.groups
    for turn in range(10, 20):
        exchange(engine, turn)
    assert compact(engine, force=True).status == "compacted"
    assert len(engine.groups) == 2 and engine.groups[0].level == 2
    assert engine.undo_last_compaction().ok
    assert [g.model_dump() for g in engine.groups] == [g.model_dump() for g in first]
    assert engine.compaction_count == 1


def test_undo_is_refused_when_the_result_would_not_fit() -> None:
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2), turns=20)
    assert compact(engine, force=True).status == "compacted"
    turn = 20
    while engine.usage().system + sum(m.tokens for m in engine.display_messages()) <= engine.usable:
        exchange(engine, turn)
        turn += 1
    usage = engine.usage()
    assert usage.total <= usage.usable and usage.dropped_messages == 0
    groups, api = engine.groups, engine.api_messages()
    result = engine.undo_last_compaction()
    assert not result.ok
    assert "fit" in result.reason and f"{engine.usable:,}" in result.reason
    assert engine.groups == groups and engine.api_messages() == api
    assert engine.can_undo  # nothing was consumed by the refusal
