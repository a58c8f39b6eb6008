"""Pinned messages: never summarised, always verbatim, in order, never dropped silently."""

from __future__ import annotations

import pytest

from ollm_desktop.engine import ContextEngine, EngineConfig, PinsOverBudget
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
    """Nothing over the context is sent: the request is refused, naming the pins to unpin."""
    engine = ContextEngine(EngineConfig(context_size=2048), RaisingSummarizer())
    pins = [
        engine.add("user" if i % 2 == 0 else "assistant", f"PIN{i} " + words(500 + 10 * i, i),
                   pinned=True)
        for i in range(4)
    ]
    question = engine.add("user", "unpinned question")
    usage = engine.usage()
    assert usage.over_budget
    assert "Pinned" in usage.note and "unpin some to continue" in usage.note
    largest_first = sorted(pins, key=lambda m: -m.tokens)
    assert usage.blocking_pins == [p.id for p in largest_first]
    assert largest_first[0].content[:30] in usage.note
    with pytest.raises(PinsOverBudget) as refused:
        engine.api_messages()
    assert str(refused.value) == usage.note
    visible = engine.visibility()
    assert all(visible[p.id] == "verbatim" for p in pins)  # never dropped, never clipped
    report = compact(engine, force=True)
    assert report.status == "skipped"  # nothing unpinned to summarise
    assert engine.usage().over_budget
    with pytest.raises(PinsOverBudget):
        engine.api_messages()
    # Unpinning what the note names first makes the request fit again: the remaining pins
    # and the message being answered are sent word for word.
    for pin_id in usage.blocking_pins[:2]:
        engine.set_pinned(pin_id, False)
    after = engine.usage()
    assert not after.over_budget and after.blocking_pins == []
    assert api_token_total(engine) <= engine.usable
    text = api_text(engine)
    assert all(p.content in text for p in largest_first[2:])
    assert engine.api_messages()[-1] == {"role": "user", "content": question.content}


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
    pin = engine.add("user", "PINNED " + words(1900), pinned=True)
    engine.add("assistant", "ok")
    report = compact(engine, force=True)
    assert report.status == "compacted"
    assert report.pins_over_budget
    assert "unpin some to continue" in report.reason
    assert engine.usage().blocking_pins == [pin.id]
    assert engine.visibility()[pin.id] == "verbatim"  # kept whole, never clipped or dropped
    with pytest.raises(PinsOverBudget, match="PINNED"):
        engine.api_messages()


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
    assert usage.over_budget and usage.pinned == 0 and usage.blocking_pins == []
    assert "system prompt" in usage.note and "Pinned" not in usage.note
    with pytest.raises(PinsOverBudget, match="system prompt"):
        engine.api_messages()
    engine.set_system_prompt("Be brief.")
    assert engine.api_messages()[-1] == {"role": "user", "content": "hi"}
