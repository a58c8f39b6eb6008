"""Pinned messages: never summarised, always verbatim, in order, never dropped silently."""

from __future__ import annotations

import pytest

from ollm_desktop.engine import ContextEngine, EngineConfig
from tests.engine_fakes import (
    RaisingSummarizer,
    api_text,
    api_token_total,
    chat,
    compact,
    exchange,
    words,
)


def pins_in_order(engine: ContextEngine) -> bool:
    text = api_text(engine)
    position = 0
    for message in engine.display_messages():
        if message.pinned:
            found = text.find(message.content, position)
            if found < 0:
                return False
            position = found + len(message.content)
    return True


def test_pins_survive_many_compactions_verbatim_and_in_order() -> None:
    config = EngineConfig(context_size=4096)
    engine, summarizer = chat(config)
    pinned_ids = []
    for turn in range(60):
        exchange(engine, turn)
        if turn % 9 == 2:
            pinned_ids.append(
                engine.add("user", f"PIN-{turn}: never forget rule {turn}", pinned=True).id
            )
            engine.add("assistant", f"Noted rule {turn}.")
        if engine.needs_compaction():
            compact(engine)
    assert engine.compaction_count >= 3
    assert pins_in_order(engine)
    assert api_token_total(engine) <= engine.usable
    for prompt in summarizer.prompts:
        assert "PIN-" not in prompt[-1]["content"]  # never shown to be summarised
    for group in engine.groups:
        assert not set(pinned_ids) & set(group.message_ids)


def test_pinning_a_summarised_message_brings_it_back_verbatim() -> None:
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2), turns=20)
    old_reply = engine.display_messages()[1]
    assert compact(engine, force=True).status == "compacted"
    assert engine.visibility()[old_reply.id] == "summarized"
    assert old_reply.content not in api_text(engine)
    engine.set_pinned(old_reply.id, True)
    assert old_reply.content in api_text(engine)
    assert engine.visibility()[old_reply.id] == "preserved"
    engine.set_pinned(old_reply.id, False)
    assert old_reply.content not in api_text(engine)


def test_pins_alone_over_budget_are_reported_never_dropped() -> None:
    engine = ContextEngine(EngineConfig(context_size=2048), RaisingSummarizer())
    pins = [
        engine.add("user" if i % 2 == 0 else "assistant", f"PIN{i} " + words(500, i), pinned=True)
        for i in range(4)
    ]
    engine.add("user", "unpinned question")
    usage = engine.usage()
    assert usage.over_budget
    assert "Pinned" in usage.note
    assert all(p.content in api_text(engine) for p in pins)
    assert "unpinned question" in api_text(engine)  # the message being answered stays
    report = compact(engine, force=True)
    assert report.status in ("skipped", "failed")
    assert all(p.content in api_text(engine) for p in pins)
    assert engine.usage().over_budget


def test_over_budget_clears_once_pins_are_released() -> None:
    engine = ContextEngine(EngineConfig(context_size=2048), RaisingSummarizer())
    big = engine.add("user", words(2000), pinned=True)
    assert engine.usage().over_budget
    engine.set_pinned(big.id, False)
    usage = engine.usage()
    assert not usage.over_budget
    assert usage.total <= usage.usable


def test_compaction_report_flags_pins_over_budget() -> None:
    config = EngineConfig(context_size=2048, min_messages=2)
    engine, _ = chat(config, turns=4, user_words=10, assistant_words=60)
    engine.add("user", "PINNED " + words(1900), pinned=True)
    engine.add("assistant", "ok")
    report = compact(engine, force=True)
    assert report.status == "compacted"
    assert report.pins_over_budget
    assert "PINNED" in api_text(engine)


def test_set_pinned_unknown_message() -> None:
    engine, _ = chat(turns=1)
    with pytest.raises(KeyError):
        engine.set_pinned("nope", True)


def test_oversized_system_prompt_is_reported_as_such() -> None:
    engine = ContextEngine(
        EngineConfig(context_size=2048), RaisingSummarizer(), system_prompt=words(2000)
    )
    engine.add("user", "hi")
    usage = engine.usage()
    assert usage.over_budget and usage.pinned == 0
    assert "system prompt" in usage.note and "Pinned" not in usage.note
    assert engine.api_messages()[-1] == {"role": "user", "content": "hi"}
