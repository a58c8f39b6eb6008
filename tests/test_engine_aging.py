"""Progressive aging, merges past each tier's maximum, and bounded summarisation cost."""

from __future__ import annotations

import pytest

from ollm_desktop.engine import CompactionReport, ContextEngine, EngineConfig, EngineEvent
from tests.engine_fakes import GoodSummarizer, chat, compact, exchange


def _engine(context_size: int) -> tuple[ContextEngine, GoodSummarizer]:
    # The smallest explicit recent window (1 token): only the last exchange stays verbatim
    # (0 now means an automatic window scaled with the context).
    config = EngineConfig(context_size=context_size, min_messages=2, preserve_recent_tokens=1)
    summarizer = GoodSummarizer(fill=0.9)
    return ContextEngine(config, summarizer), summarizer


def _round(engine: ContextEngine, n: int) -> CompactionReport:
    """Two exchanges of reported size 1,500 tokens, then a forced compaction."""
    for i in range(2):
        engine.add("user", f"question {n}.{i}", token_count=300)
        engine.add("assistant", f"answer {n}.{i}", token_count=1200)
    report = compact(engine, force=True)
    assert report.status == "compacted", report.reason
    return report


def test_tier3_ages_one_level_per_compaction_then_merges() -> None:
    engine, summarizer = _engine(16384)
    aged_events: list[EngineEvent] = []
    engine.subscribe(lambda e: aged_events.append(e) if e.name == "checkpoints-aged" else None)
    expected_levels = [[3], [2, 3], [1, 2, 3], [1, 2, 3], [1, 2, 3]]
    merges = [0, 0, 0, 1, 1]
    for n, (levels, merged) in enumerate(zip(expected_levels, merges, strict=True)):
        calls_before = summarizer.calls
        old_summary = engine.groups[-1].summary if engine.groups else None
        report = _round(engine, n)
        assert [g.level for g in engine.groups] == levels
        assert report.merged_groups == merged
        if n == 1:
            # Aging re-summarises the checkpoint's own text, never the original history.
            condense = summarizer.prompts[calls_before + 1][-1]["content"]
            assert "<checkpoint>" in condense and "<chat_history>" not in condense
            assert old_summary is not None and old_summary.split("\n\n")[0] in condense
            assert engine.groups[0].compression_count == 2
            assert engine.groups[0].aged_at is not None
            assert [s.kind for s in engine.groups[0].history] == ["created", "aged"]
    assert len(aged_events) == 4
    oldest = engine.groups[0]
    assert len(oldest.merged_from) >= 2
    assert oldest.history[-1].kind == "merged"
    # Every summarised message is still owned by exactly one checkpoint.
    owned = [mid for g in engine.groups for mid in g.message_ids]
    assert len(owned) == len(set(owned))


def test_aged_checkpoints_shrink_towards_their_level_targets() -> None:
    engine, _ = _engine(16384)
    for n in range(3):
        _round(engine, n)
    by_level = {g.level: g.current_tokens for g in engine.groups}
    assert by_level[1] < by_level[2] < by_level[3]


@pytest.mark.parametrize(("context_size", "maximum"), [(32768, 10), (65536, 15)])
def test_large_tiers_keep_their_maximum_then_merge_the_two_oldest(
    context_size: int, maximum: int
) -> None:
    engine, _ = _engine(context_size)
    merged = 0
    for n in range(maximum + 2):
        report = _round(engine, n)
        merged += report.merged_groups
        assert len(engine.groups) == min(n + 1, maximum)
        assert merged == max(0, n + 1 - maximum)
    assert engine.groups[0].level == 1
    assert engine.groups[-1].level == 3
    sequences = [g.sequence for g in engine.groups]
    assert sequences == sorted(sequences)  # oldest first


def test_tier2_keeps_one_rolling_checkpoint() -> None:
    engine, summarizer = _engine(8192)
    rollovers: list[EngineEvent] = []
    engine.subscribe(lambda e: rollovers.append(e) if e.name == "rollover-complete" else None)
    for n in range(4):
        calls_before = summarizer.calls
        previous = engine.groups[0].summary if engine.groups else None
        _round(engine, n)
        assert len(engine.groups) == 1
        group = engine.groups[0]
        assert group.level == 3
        assert group.compression_count == n + 1
        if previous is not None:
            prompt = summarizer.prompts[calls_before][-1]["content"]
            assert "<previous_checkpoint>" in prompt
            assert previous.split("\n\n")[0] in prompt
    assert len(rollovers) == 4
    group = engine.groups[0]
    older = engine.display_messages()[:-2]  # all but the last exchange
    assert group.span_ids == [m.id for m in older]
    assert {m.id for m in older if m.role == "assistant"} <= set(group.message_ids)


def test_tier1_rolls_over_at_the_compact_level() -> None:
    engine, _ = _engine(4096)
    for n in range(3):
        _round(engine, n)
        assert [g.level for g in engine.groups] == [1]
    assert engine.groups[0].compression_count == 3


def _long_chat(context_size: int, turns: int) -> tuple[list[int], list[int], int]:
    """Summarizer input tokens after each turn, per compaction, and the conversation's total."""
    engine, _ = chat(EngineConfig(context_size=context_size))
    spent, costs, cumulative = [], [], 0
    for turn in range(turns):
        exchange(engine, turn)
        if engine.needs_compaction():
            report = compact(engine)
            assert report.status == "compacted", report.reason
            cumulative += report.summarizer_input_tokens
            costs.append(report.summarizer_input_tokens)
        spent.append(cumulative)
    return spent, costs, sum(m.tokens for m in engine.display_messages())


def test_summarisation_cost_is_linear_over_300_turns_at_8k() -> None:
    spent, _, conversation = _long_chat(8192, 300)
    assert spent[-1] / conversation <= 1.5
    first_half, second_half = spent[149], spent[-1] - spent[149]
    assert first_half > 0
    assert second_half <= 1.3 * first_half  # quadratic growth would be about 3x


@pytest.mark.parametrize("context_size", [4096, 16384])
def test_summarisation_cost_is_linear_in_other_tiers(context_size: int) -> None:
    """Halves are counted from the first compaction: at 16K the context fills for ~55 turns
    before anything is summarised, so halves from turn 0 compare a warm-up with steady state."""
    spent, costs, conversation = _long_chat(context_size, 200)
    assert spent[-1] / conversation <= 1.6
    first = next(turn for turn, total in enumerate(spent) if total)
    middle = (first + len(spent)) // 2
    first_half, second_half = spent[middle - 1], spent[-1] - spent[middle - 1]
    assert len(costs) >= 4 and first_half > 0
    assert second_half <= 1.4 * first_half  # quadratic growth would be about 1.8x
    # Each compaction costs about the same however long the chat: no re-reading of history.
    assert max(costs[len(costs) // 2:]) <= 1.2 * max(costs[: len(costs) // 2])
