"""State round trips, token counting per message, display history completeness."""

from __future__ import annotations

import sys

import pytest

from ollm_desktop.engine import ContextEngine, EngineConfig, EngineState
from ollm_desktop.engine.assembly import BLOCK_INTRO, SUMMARY_CLOSE, SUMMARY_OPEN
from ollm_desktop.engine.tokens import (
    MESSAGE_OVERHEAD,
    count_message_tokens,
    count_tokens,
    truncate_to_tokens,
)
from tests.engine_fakes import GoodSummarizer, RaisingSummarizer, chat, compact, exchange, words

MARKER = "tokens of this message are left out here to fit the context"  # tokens.CLIP_MARKER


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


def test_from_state_keeps_the_summarizer_backoff() -> None:
    """A model that keeps failing is paused (circuit breaker); a reload keeps the pause."""
    engine, summarizer = chat(
        EngineConfig(context_size=4096, min_messages=2), summarizer=RaisingSummarizer(), turns=40
    )
    calls = 0
    for _ in range(2):  # two compactions in a row in which the model failed
        report = compact(engine, force=True)
        assert report.status == "compacted" and report.extractive
        assert report.summarizer_calls == 2 * report.chunks  # per request: a call, a retry
        calls += report.summarizer_calls
        exchange(engine, 100 + engine.compaction_count)
    assert summarizer.calls == calls > 0
    breaker = engine.state().breaker
    assert breaker.failures == 2 and breaker.open_until is not None
    assert breaker.open_until > len(engine.display_messages())
    fresh = GoodSummarizer()
    state = EngineState.model_validate_json(engine.state().model_dump_json())
    rebuilt = ContextEngine.from_state(state, None, fresh)
    assert rebuilt.state().breaker == breaker
    assert rebuilt.api_messages() == engine.api_messages()
    assert rebuilt.usage() == engine.usage()
    assert rebuilt.needs_compaction() == engine.needs_compaction()
    # While the pause lasts, the rebuilt engine builds checkpoints without asking the model.
    report = compact(rebuilt, force=True)
    assert report.status == "compacted" and report.extractive
    assert report.summarizer_calls == 0 and fresh.calls == 0


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
    assert engine.usage().recent == 50 + MESSAGE_OVERHEAD + count_message_tokens(
        "hello world", 2.0
    )


def test_a_reply_cut_mid_stream_is_counted_from_its_text_on_load() -> None:
    """A streamed reply is saved with the count it started with while its text grows; after a
    crash it must be counted as it was cut, or the next request is under-counted."""
    engine = ContextEngine(EngineConfig(context_size=2048), GoodSummarizer())
    engine.add("user", "Tell me everything about the schema.")
    text = words(600, 3)
    engine.add("assistant", text, partial=True)
    state = engine.state()
    state.messages[-1].tokens = 1  # as the store holds it: the row's count from the first save
    loaded = ContextEngine.from_state(state, EngineConfig(context_size=2048), GoodSummarizer())
    assert loaded.display_messages()[-1].tokens == count_message_tokens(text)
    assert loaded.api_tokens() >= count_tokens(text)


def test_token_counts_are_cached_per_message(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = ContextEngine(EngineConfig(context_size=131072), GoodSummarizer(), system_prompt="sys")
    for turn in range(50):
        exchange(engine, turn)
    engine.usage()

    def refuse(*args: object) -> int:
        raise AssertionError("a message was re-tokenised")

    # Every engine module that can count (each imported the counters by name).
    patched = 0
    for name, module in list(sys.modules.items()):
        if name.startswith("ollm_desktop.engine"):
            for counter in ("count_tokens", "count_message_tokens"):
                if hasattr(module, counter):
                    monkeypatch.setattr(module, counter, refuse)
                    patched += 1
    assert patched >= 3
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
    """Regression: a message added after the safety net cut the tail must not freeze the cut.

    Pins alone fit here (about 2,500 of 3,481 tokens): the unpinned question is cut to fit,
    and once answered the request is fitted again from scratch, still within the budget.
    """
    engine = ContextEngine(EngineConfig(context_size=4096), RaisingSummarizer())
    pin = engine.add("user", "PINNED " + words(2500), pinned=True)
    question = engine.add("user", "long question " + words(1500))
    assert pin.tokens < engine.usable
    assert MARKER in engine.api_messages()[-1]["content"]
    assert engine.visibility()[question.id] == "clipped"
    engine.add("assistant", "short answer")
    usage = engine.usage()
    assert not usage.over_budget, usage.note  # pins alone fit: nothing to unpin
    api = engine.api_messages()
    assert api == _rebuilt(engine).api_messages()
    assert usage.total <= engine.usable
    text = "\n".join(m["content"] for m in api)
    assert pin.content in text and api[-1] == {"role": "assistant", "content": "short answer"}


def test_a_checkpoint_left_out_counts_its_messages_as_dropped() -> None:
    """Regression: leaving a summary out must not report zero messages left out."""
    engine, _ = chat(
        EngineConfig(context_size=4096, min_messages=2),
        summarizer=GoodSummarizer(fill=0.9),
        turns=8,
        assistant_words=60,
    )
    assert compact(engine, force=True).status == "compacted"
    group = engine.groups[0]
    before = engine.usage()
    config = engine.config
    # Pins that leave room for the system prompt, the block's note and the reply, but not for
    # the checkpoint too (the note's count is a 2-digit placeholder).
    note = ("[99 earlier messages are left out to fit the context window; they stay in the "
            "chat history.]")
    head = f"{engine.system_prompt}\n\n{SUMMARY_OPEN}\n{BLOCK_INTRO}\n\n{note}\n{SUMMARY_CLOSE}"
    fixed = config.request_overhead + count_message_tokens(head) + count_message_tokens("ok")
    room = before.usable - fixed - config.message_overhead - before.checkpoints // 2
    assert before.checkpoints // 2 > 16  # a clear margin either way
    engine.add("user", truncate_to_tokens(words(2 * room), room), pinned=True)
    engine.add("assistant", "ok")
    usage = engine.usage()
    assert not usage.over_budget and usage.total <= usage.usable
    text = "\n".join(m["content"] for m in engine.api_messages())
    assert group.summary not in text
    visible = engine.visibility()
    assert all(visible[mid] == "dropped" for mid in group.message_ids)
    assert usage.dropped_messages >= len(group.message_ids)
    assert f"[{usage.dropped_messages} earlier messages are left out" in text
