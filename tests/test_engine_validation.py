"""Summary validation: reject, retry once stricter, trim, or fail without losing anything."""

from __future__ import annotations

import pytest

from ollm_desktop.engine import CompactionReport, ContextEngine, EngineConfig, EngineEvent
from ollm_desktop.engine.budget import level_targets
from tests.engine_fakes import (
    EmptySummarizer,
    GoodSummarizer,
    LongerSummarizer,
    OverTargetSummarizer,
    RaisingSummarizer,
    RecordingSummarizer,
    ScriptedSummarizer,
    SlowSummarizer,
    api_text,
    api_token_total,
    chat,
    compact,
    exchange,
    prompt_target,
    text_of_tokens,
)
from tests.engine_fakes import words as filler


def _engine(summarizer: RecordingSummarizer) -> tuple[ContextEngine, list[EngineEvent]]:
    engine, _ = chat(
        EngineConfig(context_size=8192, min_messages=2), summarizer=summarizer, turns=20
    )
    events: list[EngineEvent] = []
    engine.subscribe(events.append)
    return engine, events


def _assert_failed(
    engine: ContextEngine,
    report: CompactionReport,
    events: list[EngineEvent],
    calls: int,
    error: str,
) -> None:
    assert report.status == "failed"
    assert report.error is not None and error in report.error
    assert "Nothing was compacted" in report.reason and "retried" in report.reason
    assert not engine.groups and engine.compaction_count == 0
    assert report.summarizer_calls == calls
    errors = [e for e in events if e.name == "compression-error"]
    assert len(errors) == 1 and error in errors[0].data["reason"]
    assert "compressed" not in [e.name for e in events]
    assert all(m.content in api_text(engine) for m in engine.display_messages())


def test_empty_summary_twice_fails() -> None:
    summarizer = EmptySummarizer()
    engine, events = _engine(summarizer)
    report = compact(engine, force=True)
    _assert_failed(engine, report, events, calls=2, error="empty summary")
    assert "Your previous attempt was rejected" in summarizer.prompts[1][-1]["content"]


def test_summary_longer_than_input_twice_fails() -> None:
    engine, events = _engine(LongerSummarizer())
    report = compact(engine, force=True)
    _assert_failed(engine, report, events, calls=2, error="not shorter than its input")


def test_empty_then_good_is_accepted_after_one_retry() -> None:
    good = GoodSummarizer()
    engine, _ = _engine(ScriptedSummarizer(lambda p: "", lambda p: good.answer(p, 2)))
    report = compact(engine, force=True)
    assert report.status == "compacted"
    assert report.retried and not report.trimmed and report.summarizer_calls == 2


def test_over_target_then_ok_condenses_the_long_answer() -> None:
    summarizer = OverTargetSummarizer(times=1)
    engine, _ = _engine(summarizer)
    report = compact(engine, force=True)
    assert report.status == "compacted"
    assert report.retried and not report.trimmed
    target = prompt_target(summarizer.prompts[0])
    retry = summarizer.prompts[1][-1]["content"]
    assert "<checkpoint>" in retry and "<chat_history>" not in retry  # cheap: no history
    assert "rejected" in retry
    assert report.summary_tokens <= target + max(24, target // 6)


def test_over_target_twice_is_trimmed_to_the_target() -> None:
    summarizer = OverTargetSummarizer(times=2)
    engine, _ = _engine(summarizer)
    report = compact(engine, force=True)
    assert report.status == "compacted"
    assert report.retried and report.trimmed and report.summarizer_calls == 2
    target = prompt_target(summarizer.prompts[0])
    cap = max(24, target // 6)  # the "Key references" line may follow the trimmed text
    assert report.summary_tokens <= target + cap
    assert engine.groups[0].current_tokens == report.summary_tokens


def test_raising_summarizer_fails_cleanly() -> None:
    engine, events = _engine(RaisingSummarizer())
    report = compact(engine, force=True)
    _assert_failed(engine, report, events, calls=1, error="ConnectionError")


def test_slow_summarizer_times_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ollm_desktop.engine.context.SUMMARY_TIMEOUT", 0.05)
    summarizer = SlowSummarizer()
    engine, events = _engine(summarizer)
    report = compact(engine, force=True)
    _assert_failed(engine, report, events, calls=1, error="timed out")
    assert not summarizer.never.is_set()
    assert not engine.compacting


def test_failure_is_retried_after_the_next_turn() -> None:
    engine, _ = chat(EngineConfig(context_size=8192), summarizer=RaisingSummarizer())
    turn = 0
    while not engine.needs_compaction():
        exchange(engine, turn)
        turn += 1
    assert compact(engine).status == "failed"
    assert not engine.needs_compaction()  # no retry storm on the same turn
    assert engine.reliability().context_confidence < 1.0
    exchange(engine, turn)
    assert engine.needs_compaction()


def test_failure_over_budget_leaves_oldest_out_with_a_marker() -> None:
    engine = ContextEngine(EngineConfig(context_size=4096, min_messages=2), RaisingSummarizer())
    pin = engine.add("user", "PINNED: the deadline is Friday", pinned=True)
    for turn in range(40):
        engine.add("user", f"q{turn} " + filler(20, turn))
        engine.add("assistant", f"a{turn} " + filler(80, turn))
    assert engine.needs_compaction()
    report = compact(engine)
    assert report.status == "failed" and report.dropped_messages > 0
    assert f"{report.dropped_messages} oldest messages are left out" in report.reason
    api = engine.api_messages()
    assert api_token_total(engine) <= engine.usable
    assert f"[{report.dropped_messages} earlier messages were left out" in api_text(engine)
    assert pin.content in api_text(engine)
    assert api[-1]["content"].startswith("a39")
    assert len(engine.display_messages()) == 81
    visible = engine.visibility()
    assert sum(v == "dropped" for v in visible.values()) == report.dropped_messages


def test_recovered_summarizer_brings_dropped_messages_back() -> None:
    answers: list[str] = []

    def flaky(prompt: list[dict[str, str]]) -> str:
        if not answers:
            answers.append("failed once")
            raise TimeoutError("busy")
        return text_of_tokens(prompt_target(prompt) // 2)

    engine = ContextEngine(
        EngineConfig(context_size=4096, min_messages=2), ScriptedSummarizer(flaky)
    )
    for turn in range(45):
        engine.add("user", f"q{turn}")
        engine.add("assistant", filler(80, turn))
    assert compact(engine).status == "failed"
    assert engine.usage().dropped_messages > 0
    for _ in range(6):
        if engine.usage().dropped_messages == 0:
            break
        assert compact(engine).status == "compacted"
    usage = engine.usage()
    assert usage.dropped_messages == 0 and usage.total <= usage.usable
    assert "earlier messages were left out" not in api_text(engine)


def test_summary_target_is_below_the_input_size() -> None:
    summarizer = GoodSummarizer()
    engine, _ = _engine(summarizer)
    report = compact(engine, force=True)
    target = prompt_target(summarizer.prompts[0])
    assert target <= level_targets(engine.config)[3]
    assert target <= 0.6 * report.original_tokens
