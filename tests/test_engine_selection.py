"""Which messages a compaction takes: recent window, whole exchanges, min_messages."""

from __future__ import annotations

from ollm_desktop.engine import ContextEngine, EngineConfig, Message
from ollm_desktop.engine.budget import effective_preserve
from ollm_desktop.engine.tokens import count_message_tokens
from tests.engine_fakes import (
    GoodSummarizer,
    api_text,
    api_token_total,
    chat,
    compact,
    exchange,
    words,
)


def verbatim_suffix(engine: ContextEngine) -> list[Message]:
    """Messages after the compacted region (sent as they are)."""
    visible = engine.visibility()
    messages = engine.display_messages()
    start = len(messages)
    while start > 0 and visible[messages[start - 1].id] == "verbatim":
        start -= 1
    return messages[start:]


def test_recent_window_is_kept_verbatim_and_minimal() -> None:
    engine, _ = chat(EngineConfig(context_size=16384), turns=30)
    keep = effective_preserve(engine.config, engine.usage().available)
    report = compact(engine, force=True)
    assert report.status == "compacted"
    suffix = verbatim_suffix(engine)
    assert suffix[0].role == "user"
    assert sum(m.tokens for m in suffix) >= keep
    # Minimal: dropping the first exchange of the window would fall short of ``keep``.
    second_user = next(i for i, m in enumerate(suffix) if i > 0 and m.role == "user")
    assert sum(m.tokens for m in suffix[second_user:]) < keep
    for message in suffix:
        assert message.content in api_text(engine)


def test_never_splits_an_exchange() -> None:
    """Exchanges with several assistant parts and a huge reply still move as a whole."""
    config = EngineConfig(context_size=8192, preserve_recent_tokens=900, min_messages=2)
    engine = ContextEngine(config, GoodSummarizer())
    for turn in range(8):
        engine.add("user", f"question {turn} " + words(20, turn))
        engine.add("assistant", f"part one {turn} " + words(150, turn))
        engine.add("assistant", f"part two {turn} " + words(150 if turn != 6 else 900, turn))
    assert compact(engine, force=True).status == "compacted"
    suffix = verbatim_suffix(engine)
    assert suffix[0].role == "user"
    messages = engine.display_messages()
    boundary = len(messages) - len(suffix)
    assert messages[boundary - 1].role == "assistant"
    assert messages[boundary - 1].content.startswith("part two")


def test_force_keeps_at_least_the_last_exchange() -> None:
    config = EngineConfig(context_size=131072, min_messages=2)
    engine, _ = chat(config, turns=4, user_words=5, assistant_words=5)
    report = compact(engine, force=True)
    assert report.status == "compacted"
    suffix = verbatim_suffix(engine)
    last_user = [m for m in engine.display_messages() if m.role == "user"][-1]
    assert suffix[0].id == last_user.id
    assert suffix[-1].id == engine.display_messages()[-1].id


def test_pending_user_message_is_the_last_exchange() -> None:
    config = EngineConfig(context_size=131072, min_messages=2)
    engine, _ = chat(config, turns=5, user_words=5, assistant_words=5)
    pending = engine.add("user", "a question still waiting for its answer")
    assert compact(engine, force=True).status == "compacted"
    assert [m.id for m in verbatim_suffix(engine)] == [pending.id]
    assert engine.api_messages()[-1]["content"].endswith(pending.content)


def _three_long_turns(min_messages: int) -> tuple[ContextEngine, GoodSummarizer]:
    summarizer = GoodSummarizer()
    engine = ContextEngine(EngineConfig(context_size=4096, min_messages=min_messages), summarizer)
    for turn in range(3):
        engine.add("user", f"q{turn} " + words(60, turn))
        engine.add("assistant", words(900, turn))
    return engine, summarizer


def test_fewer_than_min_messages_is_skipped_with_reason() -> None:
    """Over the trigger, but the span before the recent window is too short to summarise."""
    engine, summarizer = _three_long_turns(min_messages=6)
    usage = engine.usage()
    assert usage.recent > usage.trigger and usage.total <= usage.usable  # no overflow
    assert not engine.needs_compaction()
    report = compact(engine)
    assert report.status == "skipped"
    assert "6" in report.reason and "older messages" in report.reason
    assert summarizer.calls == 0 and not engine.groups
    engine2, _ = _three_long_turns(min_messages=4)
    assert engine2.needs_compaction()
    assert compact(engine2).status == "compacted"


def test_below_threshold_is_skipped_without_force() -> None:
    engine, summarizer = chat(EngineConfig(context_size=131072), turns=10)
    assert not engine.needs_compaction()
    report = compact(engine)
    assert report.status == "skipped"
    assert "threshold" in report.reason
    assert summarizer.calls == 0


def test_overflow_compacts_even_below_min_messages() -> None:
    config = EngineConfig(context_size=4096, min_messages=6)
    engine = ContextEngine(config, GoodSummarizer())
    engine.add("user", "short question")
    engine.add("assistant", words(1700))  # each part under the one-message cap,
    engine.add("assistant", words(1800, 5))  # together over the usable context
    engine.add("user", "and then?")
    assert engine.usage().dropped_messages >= 1  # the safety net already acts
    assert engine.needs_compaction()
    report = compact(engine)
    assert report.status == "compacted"
    assert report.compacted_messages == 2
    usage = engine.usage()
    assert usage.dropped_messages == 0 and usage.total <= usage.usable
    assert "short question" in api_text(engine)


def test_one_huge_reply_is_clipped_not_a_reason_to_leave_messages_out() -> None:
    """A reply larger than the message cap is sent head + tail; nothing else is left out."""
    config = EngineConfig(context_size=4096, min_messages=6)
    engine = ContextEngine(config, GoodSummarizer())
    question = engine.add("user", "short question")
    reply = engine.add("assistant", words(3600))
    follow_up = engine.add("user", "and then?")
    assert reply.tokens > engine.usable
    usage = engine.usage()
    assert usage.dropped_messages == 0 and usage.clipped_messages == 1
    assert usage.total <= usage.usable and api_token_total(engine) <= usage.usable
    assert engine.visibility() == {question.id: "verbatim", reply.id: "clipped",
                                   follow_up.id: "verbatim"}
    text = api_text(engine)
    assert reply.content[:200] in text and reply.content[-200:] in text
    assert reply.content not in text
    assert question.content in text and follow_up.content in text


def test_span_never_exceeds_what_one_summary_request_can_hold() -> None:
    """A long uncompacted history is taken in pieces that fit the model's context."""
    config = EngineConfig(context_size=4096, min_messages=2)
    engine = ContextEngine(config, GoodSummarizer())
    for turn in range(30):  # far beyond 4K, never compacted
        engine.add("user", f"q{turn}")
        engine.add("assistant", words(150, turn))
    summarizer = engine._summarize
    assert isinstance(summarizer, GoodSummarizer)
    report = compact(engine)
    assert report.status == "compacted"
    assert len(summarizer.prompts) == report.summarizer_calls >= 1
    for prompt in summarizer.prompts:
        assert sum(count_message_tokens(m["content"]) for m in prompt) <= engine.usable
    assert "q0" in summarizer.prompts[0][-1]["content"]
    assert "q29" not in summarizer.prompts[0][-1]["content"]


def test_truncate_strategy_leaves_the_span_out_without_a_model() -> None:
    config = EngineConfig(context_size=4096, strategy="truncate")
    engine, summarizer = chat(config)
    pin = engine.add("user", "PINNED: budget is 40 GB", pinned=True)
    turn = 0
    while not engine.needs_compaction():
        exchange(engine, turn)
        turn += 1
    report = compact(engine)
    assert report.status == "truncated" and report.compacted_messages > 0
    assert "truncate strategy" in report.reason
    assert summarizer.calls == 0 and not engine.groups
    visible = engine.visibility()
    dropped = [m for m in engine.display_messages() if visible[m.id] == "dropped"]
    assert len(dropped) == report.compacted_messages
    text = api_text(engine)
    assert all(m.content not in text for m in dropped)
    assert pin.content in text
    assert engine.usage().total <= engine.usable
    assert len(engine.display_messages()) == 2 * turn + 1
    assert engine.undo_last_compaction().ok
    assert all(m.content in api_text(engine) for m in dropped)
