"""Checkpoints added after the older ones, batch merges past each tier's maximum or budget,
rolling checkpoints up to 8K, and bounded summarisation cost."""

from __future__ import annotations

import pytest

from ollm_desktop.engine import CompactionReport, ContextEngine, EngineConfig, EngineEvent, budget
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


def _system(engine: ContextEngine) -> str:
    return engine.api_messages()[0]["content"]


def test_tier3_adds_checkpoints_after_the_older_ones_then_merges_in_one_batch() -> None:
    """No aging at every compaction (it rewrote the front of every request): a new checkpoint
    goes after the older ones, whose text stays byte for byte, until they are too many or too
    large; then all but the newest become one base, in one call that reuses the chat's system
    message (issue 21)."""
    engine, summarizer = _engine(16384)
    limit = budget.checkpoint_budget(engine.config)
    maximum = engine.tier.max_checkpoints
    merges = 0
    for n in range(8):
        before = [g.model_copy(deep=True) for g in engine.groups]
        system_before = _system(engine) if before else ""
        calls_before = summarizer.calls
        report = _round(engine, n)
        groups = engine.groups
        assert groups[-1].level == 3 and groups[-1].sequence == n + 1
        if report.merged_groups:
            merges += 1
            grew = [*before, None]  # what would have been kept without the merge
            assert len(grew) > maximum or sum(g.current_tokens for g in before) + \
                groups[-1].current_tokens > limit
            assert len(groups) == 2 and groups[0].level == 1
            assert groups[0].merged_from[-len(before):] == [g.id for g in before]
            merge_prompt = summarizer.prompts[calls_before + 1]
            assert merge_prompt[0]["content"] == system_before  # the chat's own prefix
            assert f"rewrite the {len(before)} checkpoints" in merge_prompt[-1]["content"]
        else:
            assert [g.summary for g in groups[:-1]] == [g.summary for g in before]
            assert [g.level for g in groups[:-1]] == [g.level for g in before]
            # The request is byte for byte the same up to the end of the older checkpoints.
            if before:
                last_old = before[-1].summary
                cut = system_before.index(last_old) + len(last_old)
                assert _system(engine)[:cut] == system_before[:cut]
        assert len(groups) <= maximum
    assert merges >= 1
    owned = [mid for g in engine.groups for mid in g.message_ids]
    assert len(owned) == len(set(owned))  # every summarised message in exactly one checkpoint


def test_a_merged_base_keeps_within_its_level_target() -> None:
    engine, _ = _engine(16384)
    for n in range(8):
        _round(engine, n)
    base = engine.groups[0]
    assert base.level == 1 and base.history[-1].kind == "merged"
    assert base.current_tokens <= budget.level_targets(engine.config)[1] * 1.05


@pytest.mark.parametrize("context_size", [32768, 65536])
def test_large_tiers_stay_within_their_maximum_and_budget(context_size: int) -> None:
    engine, _ = _engine(context_size)
    limit = budget.checkpoint_budget(engine.config)
    for n in range(engine.tier.max_checkpoints + 2):
        report = _round(engine, n)
        groups = engine.groups
        assert len(groups) <= engine.tier.max_checkpoints
        assert sum(g.current_tokens for g in groups[:-1]) <= limit
        if report.merged_groups:
            assert groups[0].level == 1 and len(groups) == 2
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
            prompt = summarizer.prompts[calls_before]
            # The request reuses the chat's prefix, where the previous checkpoint is, and
            # asks for it to be folded in.
            assert previous.split("\n\n")[0] in prompt[0]["content"]
            assert "fold it into the new one" in prompt[-1]["content"]
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


def _long_chat(context_size: int, turns: int) -> tuple[list[int], list[int], int, int]:
    """Summarizer input tokens after each turn, per compaction, the conversation's total, and
    what the server must read of all summary requests (issue 21: a summary that reuses the
    chat's prefix finds it in the cache; both are counted)."""
    engine, _ = chat(EngineConfig(context_size=context_size))
    spent, costs, cumulative, read = [], [], 0, 0
    for turn in range(turns):
        exchange(engine, turn)
        if engine.needs_compaction():
            report = compact(engine)
            assert report.status == "compacted", report.reason
            cumulative += report.summarizer_input_tokens
            if not report.merged_groups:  # a batch merge also reads the checkpoints, rarely
                costs.append(report.summarizer_input_tokens)
            read += report.summarizer_read_tokens
            assert report.summarizer_read_tokens <= report.summarizer_input_tokens
        spent.append(cumulative)
    return spent, costs, sum(m.tokens for m in engine.display_messages()), read


def test_summarisation_cost_is_linear_over_300_turns_at_8k() -> None:
    spent, _, conversation, read = _long_chat(8192, 300)
    assert read / conversation <= 1.5
    first_half, second_half = spent[149], spent[-1] - spent[149]
    assert first_half > 0
    assert second_half <= 1.3 * first_half  # quadratic growth would be about 3x


@pytest.mark.parametrize("context_size", [4096, 16384])
def test_summarisation_cost_is_linear_in_other_tiers(context_size: int) -> None:
    """Halves are counted from the first compaction: at 16K the context fills for ~55 turns
    before anything is summarised, so halves from turn 0 compare a warm-up with steady state."""
    spent, costs, conversation, read = _long_chat(context_size, 200)
    assert read / conversation <= 1.6
    first = next(turn for turn, total in enumerate(spent) if total)
    middle = (first + len(spent)) // 2
    first_half, second_half = spent[middle - 1], spent[-1] - spent[middle - 1]
    assert len(costs) >= 4 and first_half > 0
    assert second_half <= 1.4 * first_half  # quadratic growth would be about 1.8x
    # Each compaction costs about the same however long the chat: no re-reading of history.
    assert max(costs[len(costs) // 2:]) <= 1.2 * max(costs[: len(costs) // 2])
