"""Summary validation: reject, retry once stricter, trim, or fail without losing anything."""

from __future__ import annotations

from ollm_desktop.engine import CompactionReport, ContextEngine, EngineConfig, EngineEvent, prompts
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


def _assert_extractive(
    engine: ContextEngine,
    report: CompactionReport,
    events: list[EngineEvent],
    calls: int,
    error: str,
) -> None:
    """The model failed twice: the checkpoint was built by code, nothing was lost."""
    assert report.status == "compacted" and report.extractive
    assert report.error is not None and error in report.error
    assert "built from the messages by code" in report.reason
    assert engine.groups and engine.groups[-1].extractive
    assert report.summarizer_calls == calls
    assert "compressed" in [e.name for e in events]
    assert "compression-error" not in [e.name for e in events]
    assert api_token_total(engine) <= engine.usable
    assert engine.usage().dropped_messages == 0


def test_empty_summary_twice_gives_an_extractive_checkpoint() -> None:
    summarizer = EmptySummarizer()
    engine, events = _engine(summarizer)
    report = compact(engine, force=True)
    _assert_extractive(engine, report, events, calls=2, error="empty")
    assert report.gate_rejections == ["empty", "empty"]
    assert "Your previous answer could not be used" in summarizer.prompts[1][-1]["content"]


def test_an_echo_of_the_history_never_becomes_the_checkpoint() -> None:
    engine, _ = _engine(LongerSummarizer())
    report = compact(engine, force=True)
    assert report.status == "compacted"
    summary = engine.groups[-1].summary
    assert "<chat_history>" not in summary and "Compress the chat history" not in summary
    assert report.summary_tokens <= level_targets(engine.config)[3]


def test_empty_then_good_is_accepted_after_one_retry() -> None:
    good = GoodSummarizer()
    engine, _ = _engine(ScriptedSummarizer(lambda p: "", lambda p: good.answer(p, 2)))
    report = compact(engine, force=True)
    assert report.status == "compacted" and not report.extractive
    assert report.retried and not report.trimmed and report.summarizer_calls == 2


def test_a_good_answer_a_little_over_target_is_trimmed_without_a_second_call() -> None:
    summarizer = OverTargetSummarizer(times=1)  # 1.5x the target
    engine, _ = _engine(summarizer)
    report = compact(engine, force=True)
    assert report.status == "compacted" and not report.extractive
    assert report.trimmed and report.summarizer_calls == 1
    assert report.summary_tokens <= prompt_target(summarizer.prompts[0])


def test_a_far_too_long_answer_is_condensed_from_itself_not_the_history() -> None:
    def rambling(prompt: list[dict[str, str]]) -> str:
        target = prompt_target(prompt)
        if prompt[-1]["content"].startswith(prompts.CHAT_SUMMARY_OPENING):
            return "## Context\n" + "\n".join(f"- item {i}: {filler(6, i)}"
                                               for i in range(target // 2))
        return "## Context\nShort version.\n## Key Information\n- " + filler(target // 3)

    summarizer = ScriptedSummarizer(rambling)
    engine, _ = _engine(summarizer)
    report = compact(engine, force=True)
    assert report.status == "compacted" and report.retried
    retry = summarizer.prompts[1][-1]["content"]
    assert "<checkpoint>" in retry and "<chat_history>" not in retry  # cheap: no history
    assert report.summary_tokens <= prompt_target(summarizer.prompts[0])


def test_raising_summarizer_gives_an_extractive_checkpoint() -> None:
    engine, events = _engine(RaisingSummarizer())
    report = compact(engine, force=True)
    _assert_extractive(engine, report, events, calls=2, error="ConnectionError")


def test_slow_summarizer_times_out() -> None:
    summarizer = SlowSummarizer()
    engine, events = _engine(summarizer)
    engine.config.summary_timeout_s = 0.05
    report = compact(engine, force=True)
    _assert_extractive(engine, report, events, calls=2, error="timed out")
    assert not summarizer.never.is_set()
    assert not engine.compacting


def test_a_failing_model_is_paused_then_asked_again() -> None:
    summarizer = RaisingSummarizer()
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2), summarizer=summarizer)
    turn = 0
    for _ in range(2):  # two failed compactions open the breaker
        for _ in range(8):
            exchange(engine, turn)
            turn += 1
        assert compact(engine, force=True).extractive
    assert engine.state().breaker.open_until is not None
    assert engine.reliability().context_confidence < 1.0
    calls = summarizer.calls
    for _ in range(2):
        exchange(engine, turn)
        turn += 1
    report = compact(engine, force=True)
    assert report.extractive and summarizer.calls == calls  # paused: not asked
    while len(engine.display_messages()) < engine.state().breaker.open_until:
        exchange(engine, turn)
        turn += 1
    compact(engine, force=True)
    assert summarizer.calls > calls  # the pause is over: the model is tried again


def test_a_failing_model_loses_nothing_and_keeps_pins() -> None:
    engine = ContextEngine(EngineConfig(context_size=4096, min_messages=2), RaisingSummarizer())
    pin = engine.add("user", "PINNED: the deadline is Friday", pinned=True)
    for turn in range(40):
        engine.add("user", f"q{turn} " + filler(20, turn))
        engine.add("assistant", f"a{turn} " + filler(80, turn))
    assert engine.needs_compaction()
    report = compact(engine)
    assert report.status == "compacted" and report.extractive
    api = engine.api_messages()
    assert api_token_total(engine) <= engine.usable
    assert pin.content in api_text(engine)
    assert api[-1]["content"].startswith("a39")
    assert len(engine.display_messages()) == 81
    assert "dropped" not in engine.visibility().values()


def test_recovered_summarizer_writes_the_next_checkpoint() -> None:
    answers: list[str] = []

    def flaky(prompt: list[dict[str, str]]) -> str:
        if len(answers) < 2:
            answers.append("failed")
            raise TimeoutError("busy")
        return "## Context\nRecovered.\n" + text_of_tokens(prompt_target(prompt) // 2)

    engine = ContextEngine(
        EngineConfig(context_size=4096, min_messages=2), ScriptedSummarizer(flaky)
    )
    for turn in range(45):
        engine.add("user", f"q{turn}")
        engine.add("assistant", filler(80, turn))
    assert compact(engine).extractive
    for turn in range(45, 60):
        engine.add("user", f"q{turn}")
        engine.add("assistant", filler(80, turn))
    report = compact(engine, force=True)
    assert report.status == "compacted" and not report.extractive
    assert "Recovered." in engine.groups[-1].summary
    assert engine.state().breaker.failures == 0
    usage = engine.usage()
    assert usage.dropped_messages == 0 and usage.total <= usage.usable


def test_summary_target_is_below_the_input_size() -> None:
    summarizer = GoodSummarizer()
    engine, _ = _engine(summarizer)
    report = compact(engine, force=True)
    target = prompt_target(summarizer.prompts[0])
    assert target <= level_targets(engine.config)[3]
    assert target <= 0.6 * report.original_tokens
