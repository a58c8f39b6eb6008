"""Budget arithmetic, the tier table, summary targets and the compaction trigger."""

from __future__ import annotations

import re

import pytest

from ollm_desktop.engine import (
    ContextEngine,
    EngineConfig,
    level_targets,
    render_goal_block,
    tier_for,
)
from ollm_desktop.engine.budget import effective_preserve
from ollm_desktop.engine.context import EARLIER_CLOSE, EARLIER_OPEN, SUMMARY_CLOSE, SUMMARY_OPEN
from ollm_desktop.engine.tokens import MESSAGE_OVERHEAD, count_message_tokens, count_tokens
from tests.engine_fakes import GoodSummarizer, chat, compact


def test_defaults_match_the_issue() -> None:
    config = EngineConfig()
    assert (config.usable_ratio, config.trigger_ratio) == (0.85, 0.80)
    assert (config.preserve_recent_tokens, config.summary_max_tokens) == (2048, 1024)
    assert config.preserve_user_messages is True
    assert config.user_message_share == 0.25
    assert (config.strategy, config.min_messages) == ("summarize", 6)


@pytest.mark.parametrize(
    ("context_size", "usable"),
    [(2048, 1740), (4096, 3481), (8192, 6963), (16384, 13926), (32768, 27852), (131072, 111411)],
)
def test_usable_is_ratio_times_context(context_size: int, usable: int) -> None:
    engine = ContextEngine(EngineConfig(context_size=context_size), GoodSummarizer())
    assert engine.usage().usable == usable == int(context_size * 0.85)


def test_available_subtracts_system_goal_checkpoints_and_pins() -> None:
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2), turns=24)
    early_pin = engine.display_messages()[2]
    engine.add("user", "pinned spec: the API is frozen", pinned=True)
    engine.add("assistant", "[GOAL] Ship the importer\n[NEXT] write tests")
    assert compact(engine, force=True).status == "compacted"
    engine.set_pinned(early_pin.id, True)  # a pin inside the compacted region
    late_pin = engine.add("assistant", "late pinned note", pinned=True)
    usage = engine.usage()
    # Every component, counted independently of the engine's own bookkeeping.
    text = "\n".join(m["content"] for m in engine.api_messages())
    wrapped = re.findall(f"{SUMMARY_OPEN}.*?{SUMMARY_CLOSE}", text, re.DOTALL)
    visible = engine.visibility()
    wrap = count_tokens(f"{EARLIER_OPEN}\n\n{EARLIER_CLOSE}")
    preserved = sum(
        m.tokens + (wrap if m.role == "user" else 0)
        for m in engine.display_messages()
        if visible[m.id] == "preserved"
    )
    assert usage.system == count_message_tokens("You are a helpful assistant.")
    assert usage.goal == count_tokens(render_goal_block(engine.goal)) > 0
    assert len(wrapped) == 1 and usage.checkpoints == count_message_tokens(wrapped[0])
    assert visible[early_pin.id] == "preserved" and usage.preserved == preserved
    assert usage.available == (
        usage.usable
        - usage.system
        - usage.goal
        - usage.checkpoints
        - preserved
        - late_pin.tokens
        - engine.display_messages()[-3].tokens  # the first pin, still in the recent window
    )
    assert usage.trigger == int(0.80 * usage.available)


def test_trigger_is_exact_at_eighty_percent_of_available() -> None:
    config = EngineConfig(context_size=8192, min_messages=2, preserve_recent_tokens=0)
    engine = ContextEngine(config, GoodSummarizer())  # no system prompt, no goal
    # 10 messages of exactly 557 tokens (553 reported + overhead): recent = 5570.
    for i in range(10):
        engine.add("user" if i % 2 == 0 else "assistant", f"m{i}", token_count=553)
    usage = engine.usage()
    assert usage.available == 6963
    assert usage.trigger == 5570 == usage.recent
    assert not engine.needs_compaction()
    assert engine.needs_compaction(ahead_tokens=1)


def test_pinned_tokens_shrink_available() -> None:
    engine = ContextEngine(EngineConfig(context_size=8192), GoodSummarizer())
    before = engine.usage().available
    engine.add("user", "keep me", pinned=True, token_count=400)
    after = engine.usage()
    assert before - after.available == 400 + MESSAGE_OVERHEAD
    assert after.pinned == 400 + MESSAGE_OVERHEAD
    assert after.recent == 0


def test_system_prompt_counted_once() -> None:
    prompt = "You are a careful assistant. Answer briefly."
    engine = ContextEngine(EngineConfig(), GoodSummarizer(), system_prompt=prompt)
    usage = engine.usage()
    assert usage.system == count_message_tokens(prompt)
    assert usage.total == usage.system
    assert engine.api_messages() == [{"role": "system", "content": prompt}]


@pytest.mark.parametrize(
    ("context_size", "tier", "max_checkpoints"),
    [
        (2048, 1, 1),
        (4096, 1, 1),
        (8192, 2, 1),
        (16384, 3, 3),
        (32768, 4, 10),
        (65536, 5, 15),
        (131072, 5, 15),
    ],
)
def test_tier_table(context_size: int, tier: int, max_checkpoints: int) -> None:
    spec = tier_for(context_size)
    assert (spec.tier, spec.max_checkpoints) == (tier, max_checkpoints)
    engine = ContextEngine(EngineConfig(context_size=context_size), GoodSummarizer())
    assert engine.usage().tier == tier
    assert spec.rolling is (max_checkpoints == 1)


def test_summary_targets_scale_with_context_and_level() -> None:
    sizes = [2048, 4096, 8192, 16384, 32768, 65536, 131072]
    detailed = [level_targets(EngineConfig(context_size=s))[3] for s in sizes]
    assert detailed == sorted(detailed)
    assert detailed[-1] > 4 * detailed[2]  # 128K checkpoints are much richer than 8K ones
    for size in sizes:
        targets = level_targets(EngineConfig(context_size=size))
        assert targets[3] > targets[2] > targets[1] > 0
        assert targets[3] < 0.1 * size


def test_summary_max_tokens_caps_targets() -> None:
    small = level_targets(EngineConfig(context_size=16384, summary_max_tokens=200))
    assert small[3] == 200


def test_preserve_window_scales_down_for_small_contexts() -> None:
    tiny = EngineConfig(context_size=2048)
    assert effective_preserve(tiny, 1700) < tiny.preserve_recent_tokens
    assert effective_preserve(tiny, 1700) == int(0.8 * 1700 * 0.5)
    big = EngineConfig(context_size=131072)
    assert effective_preserve(big, 100_000) == 2048


def test_config_rejects_bad_values() -> None:
    with pytest.raises(ValueError):
        EngineConfig(context_size=100)
    with pytest.raises(ValueError):
        EngineConfig(usable_ratio=1.5)
    with pytest.raises(ValueError):
        EngineConfig(strategy="delete")  # type: ignore[arg-type]
