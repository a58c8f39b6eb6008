"""Typed events and the six-stage progress of a compaction."""

from __future__ import annotations

from typing import Any, get_args

import pytest
from pydantic import ValidationError

from ollm_desktop.engine import (
    TIERS,
    CompactionStage,
    ContextEngine,
    EngineConfig,
    EngineEvent,
    EventName,
)
from ollm_desktop.engine.compaction import TIER_COMPRESSED
from ollm_desktop.engine.context import STAGES
from tests.engine_fakes import EmptySummarizer, GoodSummarizer, chat, compact, exchange

STAGE_ORDER = list(STAGES)


def _record(config: EngineConfig, **kwargs: Any) -> tuple[list[EngineEvent], ContextEngine]:
    engine, _ = chat(config, **kwargs)
    events: list[EngineEvent] = []
    engine.subscribe(events.append)
    return events, engine


def test_stage_boundaries_match_the_issue() -> None:
    assert STAGES == {
        "identification": (0, 15),
        "preparation": (15, 25),
        "summarization": (25, 70),
        "checkpoint creation": (70, 80),
        "context update": (80, 90),
        "validation": (90, 100),
    }


def test_event_names_and_stages_are_a_closed_set() -> None:
    assert list(get_args(CompactionStage)) == STAGE_ORDER
    assert set(TIER_COMPRESSED) == set(TIERS)
    assert set(TIER_COMPRESSED.values()) <= set(get_args(EventName))
    with pytest.raises(ValidationError):
        EngineEvent(name="no-such-event")  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        EngineEvent(name="compaction-progress", stage="no-such-stage")  # type: ignore[arg-type]


def test_every_event_sent_is_a_known_name() -> None:
    events, engine = _record(EngineConfig(context_size=4096, min_messages=2), turns=12)
    assert compact(engine, force=True).status == "compacted"
    names = {e.name for e in events}
    assert {"compression-triggered", "compressed", "tier1-compressed",
            "rollover-complete"} <= names
    assert names <= set(get_args(EventName))


def test_compaction_events_and_monotonic_progress() -> None:
    engine, _ = chat(EngineConfig(context_size=16384, min_messages=2), turns=12)
    assert compact(engine, force=True).status == "compacted"
    # Checkpoints accumulate (no aging at each compaction) until one batch merges them: the
    # events of that compaction.
    for round_ in range(1, 12):
        for turn in range(12 * round_, 12 * round_ + 12):
            exchange(engine, turn)
        events: list[EngineEvent] = []
        unsubscribe = engine.subscribe(events.append)
        report = compact(engine, force=True)
        unsubscribe()
        assert report.status == "compacted" and report.aged_groups == 0
        if report.merged_groups:
            break
    assert report.merged_groups >= 2
    names = [e.name for e in events]
    for name in (
        "compression-triggered",
        "llm-summarizing",
        "checkpoint-created",
        "checkpoints-aged",
        "budget-recalculated",
        "compressed",
        "tier3-compressed",
    ):
        assert name in names, name
    assert (
        names.index("compression-triggered")
        < names.index("llm-summarizing")
        < names.index("checkpoint-created")
        < names.index("checkpoints-aged")
        < names.index("compressed")
    )
    staged = [e for e in events if e.progress is not None]
    progress = [e.progress for e in staged]
    assert progress[0] == 0 and progress[-1] == 100
    assert progress == sorted(progress)
    stages_seen = []
    for event in staged:
        low, high = STAGES[event.stage or ""]
        assert low <= (event.progress or 0) <= high, event
        if not stages_seen or stages_seen[-1] != event.stage:
            stages_seen.append(event.stage)
    assert stages_seen == STAGE_ORDER
    compressed = next(e for e in events if e.name == "compressed")
    assert compressed.data["status"] == "compacted"
    assert compressed.data["group_id"] == engine.groups[-1].id


def test_skipped_and_error_events() -> None:
    events, engine = _record(EngineConfig(context_size=131072), turns=3)
    assert compact(engine).status == "skipped"
    assert [e.name for e in events] == ["compression-skipped"]
    assert events[0].data["reason"]

    # A model that fails twice is no error any more: the checkpoint is built by code and the
    # usual events follow, with the failure in the report.
    events, engine = _record(
        EngineConfig(context_size=8192, min_messages=2), summarizer=EmptySummarizer(), turns=10
    )
    assert compact(engine, force=True).status == "compacted"
    names = [e.name for e in events]
    assert "compression-error" not in names
    assert (
        names.index("compression-triggered")
        < names.index("llm-summarizing")
        < names.index("checkpoint-created")
        < names.index("compressed")
    )
    compressed = next(e for e in events if e.name == "compressed")
    assert compressed.data["extractive"] is True
    assert compressed.data["gate_rejections"] == ["empty", "empty"]
    assert "empty" in compressed.data["error"]


class _Replacing(GoodSummarizer):
    """Replaces the conversation while its summary is being written.

    ``load_state`` and undo are refused during a run, so this bumps the generation the way
    they do: the one path that still ends in ``failed`` and ``compression-error``.
    """

    def __init__(self) -> None:
        super().__init__()
        self.engine: ContextEngine | None = None

    def answer(self, prompt: list[dict[str, str]], call: int) -> str:
        assert self.engine is not None
        self.engine._generation += 1
        return super().answer(prompt, call)


def test_a_conversation_replaced_mid_run_fails_with_an_error_event() -> None:
    summarizer = _Replacing()
    events, engine = _record(
        EngineConfig(context_size=8192, min_messages=2), summarizer=summarizer, turns=10
    )
    summarizer.engine = engine
    before = engine.api_messages()
    report = compact(engine, force=True)
    assert report.status == "failed" and report.error
    names = [e.name for e in events]
    assert "compression-error" in names and "compressed" not in names
    assert names.index("compression-triggered") < names.index("compression-error")
    assert engine.groups == [] and engine.api_messages() == before


def test_rollover_event_in_small_tiers() -> None:
    events, engine = _record(EngineConfig(context_size=4096, min_messages=2), turns=8)
    assert compact(engine, force=True).status == "compacted"
    assert "rollover-complete" in [e.name for e in events]


def test_unsubscribe_and_broken_listeners() -> None:
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2), turns=8)
    seen: list[str] = []

    def broken(event: EngineEvent) -> None:
        raise RuntimeError("listener bug")

    engine.subscribe(broken)
    unsubscribe = engine.subscribe(lambda e: seen.append(e.name))
    engine.add("user", "hello")
    assert seen == ["message-added"]
    unsubscribe()
    assert compact(engine, force=True).status == "compacted"
    assert seen == ["message-added"]


def test_pin_and_goal_events() -> None:
    engine, _ = chat(turns=2)
    names: list[str] = []
    engine.subscribe(lambda e: names.append(e.name))
    engine.set_pinned(engine.display_messages()[0].id, True)
    engine.add("assistant", "[GOAL] Write the report")
    assert names[:2] == ["pin-changed", "budget-recalculated"]
    assert "goal-updated" in names
