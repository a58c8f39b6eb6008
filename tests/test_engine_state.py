"""State round trips, token counting per message, display history completeness."""

from __future__ import annotations

import pytest

import ollm_desktop.engine.context as context_module
from ollm_desktop.engine import ContextEngine, EngineConfig, EngineState
from ollm_desktop.engine.tokens import (
    MESSAGE_OVERHEAD,
    count_message_tokens,
    count_tokens,
    truncate_to_tokens,
)
from tests.engine_fakes import GoodSummarizer, RaisingSummarizer, chat, compact, exchange, words


def _rebuilt(engine: ContextEngine) -> ContextEngine:
    """Through JSON, as storage does."""
    state = EngineState.model_validate_json(engine.state().model_dump_json())
    return ContextEngine.from_state(state, None, GoodSummarizer())


def test_from_state_gives_identical_api_messages_after_everything() -> None:
    engine, _ = chat(
        EngineConfig(context_size=4096, min_messages=2), turns=6, system_prompt="Be terse."
    )
    engine.add("user", "PIN me", pinned=True)
    engine.add("assistant", "[GOAL] Finish the port\n[DECISION] Rust - LOCKED")
    for turn in range(6, 30):
        exchange(engine, turn)
        if engine.needs_compaction():
            compact(engine)
    assert engine.compaction_count >= 2
    rebuilt = _rebuilt(engine)
    assert rebuilt.api_messages() == engine.api_messages()
    assert rebuilt.usage() == engine.usage()
    assert rebuilt.goal == engine.goal
    assert [m.id for m in rebuilt.display_messages()] == [m.id for m in engine.display_messages()]
    assert rebuilt.config == engine.config
    assert (
        rebuilt.can_undo and rebuilt.undo_last_compaction().ok == engine.undo_last_compaction().ok
    )
    assert rebuilt.api_messages() == engine.api_messages()


def test_from_state_keeps_a_failed_compaction_pending() -> None:
    engine, _ = chat(
        EngineConfig(context_size=4096, min_messages=2), summarizer=RaisingSummarizer(), turns=40
    )
    assert compact(engine).status == "failed"
    rebuilt = _rebuilt(engine)
    assert rebuilt.api_messages() == engine.api_messages()
    assert rebuilt.usage().dropped_messages == engine.usage().dropped_messages > 0
    assert rebuilt.needs_compaction() == engine.needs_compaction() is False


def test_from_state_config_argument_wins() -> None:
    engine, _ = chat(EngineConfig(context_size=8192), turns=2)
    other = ContextEngine.from_state(
        engine.state(), EngineConfig(context_size=16384), GoodSummarizer()
    )
    assert other.usage().context_size == 16384


def test_exact_token_counts_win_over_estimates() -> None:
    engine = ContextEngine(EngineConfig(), GoodSummarizer())
    estimated = engine.add("assistant", "hello world")
    exact = engine.add("assistant", "hello world", token_count=50)
    assert estimated.tokens == count_tokens("hello world") + MESSAGE_OVERHEAD
    assert not estimated.exact_tokens
    assert exact.tokens == 50 + MESSAGE_OVERHEAD and exact.exact_tokens
    engine.set_estimate_scale(2.0)
    assert engine.message(exact.id).tokens == 50 + MESSAGE_OVERHEAD  # type: ignore[union-attr]
    assert engine.message(estimated.id).tokens == count_message_tokens(  # type: ignore[union-attr]
        "hello world", 2.0
    )
    assert engine.usage().recent == 54 + count_message_tokens("hello world", 2.0)


def test_token_counts_are_cached_per_message(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = ContextEngine(EngineConfig(context_size=131072), GoodSummarizer(), system_prompt="sys")
    for turn in range(50):
        exchange(engine, turn)
    engine.usage()

    def refuse(*args: object) -> int:
        raise AssertionError("a message was re-tokenised")

    monkeypatch.setattr(context_module, "count_message_tokens", refuse)
    monkeypatch.setattr(context_module, "count_tokens", refuse)
    for turn in range(50, 60):
        engine.add("user", f"q{turn}", token_count=10)
        engine.add("assistant", f"a{turn}", token_count=20)
        engine.api_messages()
        engine.usage()
    assert engine.usage().recent == sum(m.tokens for m in engine.display_messages())


def test_display_history_is_complete_and_ordered_after_compactions() -> None:
    engine, _ = chat(EngineConfig(context_size=2048, min_messages=2))
    added = []
    for turn in range(40):
        exchange(engine, turn, user_words=10, assistant_words=60)
        added += [m.id for m in engine.display_messages()[-2:]]
        if engine.needs_compaction():
            compact(engine)
    assert engine.compaction_count >= 3
    assert [m.id for m in engine.display_messages()] == added
    assert all(m.content for m in engine.display_messages())


def test_duplicate_message_ids_are_refused() -> None:
    engine, _ = chat(turns=1)
    first = engine.display_messages()[0]
    with pytest.raises(ValueError, match="already"):
        engine.add_message(first.model_copy())
    assert len(engine.display_messages()) == 2


def test_load_state_replaces_everything() -> None:
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2), turns=12)
    state = engine.state()
    assert compact(engine, force=True).status == "compacted"
    engine.load_state(state)
    assert not engine.groups
    assert (
        engine.api_messages()
        == ContextEngine.from_state(state, None, GoodSummarizer()).api_messages()
    )


def test_a_cut_context_is_rebuilt_not_extended() -> None:
    """Regression: a message added after the safety net cut the tail must not freeze the cut."""
    engine = ContextEngine(EngineConfig(context_size=4096), RaisingSummarizer())
    engine.add("user", "PINNED " + words(2500), pinned=True)
    engine.add("user", "long question " + words(1500))
    assert "[message truncated" in engine.api_messages()[-1]["content"]
    engine.add("assistant", "short answer")
    api = engine.api_messages()
    assert api == _rebuilt(engine).api_messages()
    assert all("[message truncated" not in m["content"] for m in api)
    assert engine.usage().total <= engine.usable


def test_a_checkpoint_left_out_counts_its_messages_as_dropped() -> None:
    """Regression: leaving a summary out must not report zero messages left out."""
    engine, _ = chat(EngineConfig(context_size=4096, min_messages=2), turns=8, assistant_words=60)
    assert compact(engine, force=True).status == "compacted"
    group = engine.groups[0]
    before = engine.usage()
    # Pins that leave room for the marker and the reply, but not for the checkpoint too.
    room = before.usable - before.system - before.checkpoints // 2 - 40
    engine.add("user", truncate_to_tokens(words(2 * room), room), pinned=True)
    engine.add("assistant", "ok")
    usage = engine.usage()
    assert not usage.over_budget and usage.total <= usage.usable
    text = "\n".join(m["content"] for m in engine.api_messages())
    assert group.summary not in text
    visible = engine.visibility()
    assert all(visible[mid] == "dropped" for mid in group.message_ids)
    assert usage.dropped_messages >= len(group.message_ids)
    assert f"[{usage.dropped_messages} earlier messages were left out" in text
