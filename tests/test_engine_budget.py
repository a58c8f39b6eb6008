"""Budget arithmetic, the tier table, summary targets and the compaction trigger."""

from __future__ import annotations

import re
from typing import get_type_hints

import pytest
from pydantic import ValidationError

from ollm_desktop.engine import (
    CONTEXT_SIZE_MAX,
    CONTEXT_SIZE_MIN,
    CompactionTimeout,
    ContextEngine,
    ContextSize,
    EngineConfig,
    KeepRecentTurns,
    PreserveRecentTokens,
    SummaryTimeout,
    TriggerRatio,
    facts,
    level_targets,
    render_goal_block,
    tier_for,
)
from ollm_desktop.engine.budget import MIN_TARGET, effective_preserve
from ollm_desktop.engine.context import SUMMARY_CLOSE, SUMMARY_OPEN
from ollm_desktop.engine.tokens import MESSAGE_OVERHEAD, count_message_tokens, count_tokens
from tests.engine_fakes import GoodSummarizer, chat, compact

SEPARATOR = 2  # the blank line between two parts of the compressed-history block


def test_defaults_match_the_issue() -> None:
    config = EngineConfig()
    assert (config.usable_ratio, config.trigger_ratio) == (0.85, 0.80)
    # 0 = automatic: the recent window scales with the context (issue 11), no fixed 2,048.
    assert (config.preserve_recent_tokens, config.keep_recent_turns) == (0, 0)
    assert config.summary_max_tokens == 1024
    assert (config.message_overhead, config.request_overhead) == (8, 16)
    assert (config.summary_timeout_s, config.compaction_timeout_s) == (180.0, 480.0)
    assert config.preserve_user_messages is True
    assert config.user_message_share == 0.25
    assert (config.strategy, config.min_messages) == ("summarize", 6)


def test_setting_limits_have_one_source() -> None:
    # The app's settings reuse these types; EngineConfig enforces exactly them.
    config = EngineConfig(context_size=CONTEXT_SIZE_MIN)
    assert EngineConfig(context_size=CONTEXT_SIZE_MAX).context_size == CONTEXT_SIZE_MAX
    for field, bad in [("context_size", CONTEXT_SIZE_MIN - 1),
                       ("context_size", CONTEXT_SIZE_MAX + 1), ("trigger_ratio", 0.1),
                       ("trigger_ratio", 1.01), ("preserve_recent_tokens", -1),
                       ("keep_recent_turns", 201), ("summary_timeout_s", 0),
                       ("summary_timeout_s", 3601), ("compaction_timeout_s", 7201)]:
        with pytest.raises(ValidationError):
            setattr(config, field, bad)
    hints = get_type_hints(EngineConfig, include_extras=True)
    assert hints["context_size"] == ContextSize
    assert (hints["trigger_ratio"], hints["preserve_recent_tokens"],
            hints["keep_recent_turns"], hints["summary_timeout_s"],
            hints["compaction_timeout_s"]) == (TriggerRatio, PreserveRecentTokens,
                                               KeepRecentTurns, SummaryTimeout,
                                               CompactionTimeout)


@pytest.mark.parametrize(
    ("context_size", "usable"),
    [(2048, 1740), (4096, 3481), (8192, 6963), (16384, 13926), (32768, 27852), (131072, 111411)],
)
def test_usable_is_ratio_times_context(context_size: int, usable: int) -> None:
    engine = ContextEngine(EngineConfig(context_size=context_size), GoodSummarizer())
    assert engine.usage().usable == usable == int(context_size * 0.85)


def test_available_subtracts_system_goal_checkpoints_and_pins() -> None:
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2), turns=24)
    # A fact the user typed, so that the ledger has a line: it carries the user's facts, and
    # those the user wrote in the compacted turns are quoted word for word instead.
    engine.add_fact("The staging server listens on port 8443.")
    early_pin = engine.display_messages()[2]
    first_pin = engine.add("user", "pinned spec: the API is frozen", pinned=True)
    engine.add("assistant", "[GOAL] Ship the importer\n[NEXT] write tests")
    assert compact(engine, force=True).status == "compacted"
    engine.set_pinned(early_pin.id, True)  # a pin inside the compacted region
    late_pin = engine.add("assistant", "late pinned note", pinned=True)
    usage = engine.usage()
    # Every component, counted independently of the engine's own bookkeeping: each part of
    # the compressed-history block costs its text plus the blank line that separates it.
    system = engine.api_messages()[0]["content"]
    wrapped = re.findall(f"{SUMMARY_OPEN}.*?{SUMMARY_CLOSE}", system, re.DOTALL)
    assert len(wrapped) == 1
    visible = engine.visibility()
    assert visible[early_pin.id] == "preserved"
    quoted = []
    for m in engine.display_messages():
        if visible[m.id] != "preserved":
            continue
        head = (f"Pinned by the user ({m.role} message, word for word):" if m.pinned
                else "Earlier request from the user (word for word, already answered):")
        quoted.append(f"{head}\n" + "\n".join(f"> {line}" for line in m.content.splitlines()))
    assert len(quoted) > 1 and all(q in wrapped[0] for q in quoted)
    preserved = sum(count_tokens(q) + SEPARATOR for q in quoted)
    (group,) = engine.groups
    checkpoint = f"[Checkpoint, level {group.level}]\n{group.summary}"
    assert checkpoint in wrapped[0]
    # (the ledger ends at a blank line or at the block's close: it is the block's last part)
    ledger_text = re.search(re.escape(facts.HEADER) + rf"(?:\n(?!{SUMMARY_CLOSE})[^\n]+)+",
                            wrapped[0])
    assert ledger_text is not None
    assert usage.system == count_tokens("You are a helpful assistant.")
    assert usage.goal == count_tokens(render_goal_block(engine.goal)) > 0
    assert render_goal_block(engine.goal) in system
    # The checkpoint, plus the block's wrapper and the system message's overhead: the parts add
    # up to exactly the system message as sent.
    assert usage.checkpoints >= count_tokens(checkpoint) + SEPARATOR
    assert (usage.system + usage.goal + usage.checkpoints + usage.ledger + usage.preserved
            == count_tokens(system) + engine.config.message_overhead)
    assert usage.ledger == count_tokens(ledger_text.group(0)) > 0
    assert usage.preserved == preserved
    assert usage.available == (
        usage.usable
        - engine.config.request_overhead
        - usage.system
        - usage.goal
        - usage.checkpoints
        - usage.ledger
        - preserved
        - late_pin.tokens
        - first_pin.tokens  # the first pin, still in the recent window
    )
    assert engine.display_messages()[-3].id == first_pin.id and visible[first_pin.id] == "verbatim"
    assert usage.trigger == int(0.80 * usage.available)


def test_trigger_is_exact_at_eighty_percent_of_available() -> None:
    config = EngineConfig(context_size=8192, min_messages=2, preserve_recent_tokens=0)
    engine = ContextEngine(config, GoodSummarizer())  # no system prompt, no goal
    # available = usable - the request's template overhead = 6963 - 16 = 6947; trigger 5557.
    # Ten messages reported at 548/545 tokens (+8 overhead each): recent = 9 x 556 + 553.
    for i in range(10):
        engine.add("user" if i % 2 == 0 else "assistant", f"m{i}",
                   token_count=548 if i < 9 else 545)
    usage = engine.usage()
    assert usage.available == 6963 - 16 == 6947
    assert usage.trigger == 5557 == usage.recent
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
    assert usage.system == count_tokens(prompt)
    # One system message (its template overhead) plus the request's overhead, nothing else.
    assert usage.total == count_message_tokens(prompt) + engine.config.request_overhead
    assert usage.total == usage.system + MESSAGE_OVERHEAD + engine.config.request_overhead
    assert engine.api_messages() == [{"role": "system", "content": prompt}]


@pytest.mark.parametrize(
    ("context_size", "tier", "max_checkpoints"),
    [
        (2048, 1, 1),
        (4096, 1, 1),
        (8192, 2, 1),
        (16384, 3, 4),
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
        assert targets[3] >= targets[2] >= targets[1] >= MIN_TARGET
        # Each level halves the one above it unless that would go below MIN_TARGET.
        assert targets[2] == max(MIN_TARGET, targets[3] // 2)
        assert targets[1] == max(MIN_TARGET, targets[3] // 4)
        assert targets[3] < 0.1 * size
    # Where the floor does not bind, the levels are strictly ordered.
    big = level_targets(EngineConfig(context_size=16384))
    assert big[3] > big[2] > big[1] > MIN_TARGET
    assert level_targets(EngineConfig(context_size=2048))[1] == MIN_TARGET


def test_summary_max_tokens_caps_targets() -> None:
    small = level_targets(EngineConfig(context_size=16384, summary_max_tokens=200))
    assert small[3] == 200


def test_preserve_window_scales_down_for_small_contexts() -> None:
    tiny = EngineConfig(context_size=2048, preserve_recent_tokens=2048)
    assert effective_preserve(tiny, 1700) < tiny.preserve_recent_tokens
    assert effective_preserve(tiny, 1700) == int(0.8 * 1700 * 0.5)
    big = EngineConfig(context_size=131072, preserve_recent_tokens=2048)
    assert effective_preserve(big, 100_000) == 2048


def test_automatic_preserve_window_scales_with_the_context() -> None:
    """0 (the default) keeps a quarter of what is available, not 2,048 at every size; up to
    4K a smaller share, so the next compaction is several turns away (issue 21); at 8K a fifth,
    where the facts ledger takes room the turns had (issue 22)."""
    automatic = EngineConfig(context_size=131072)
    assert automatic.preserve_recent_tokens == 0
    assert effective_preserve(automatic, 100_000) == 25_000
    assert effective_preserve(EngineConfig(context_size=8192), 6000) == int(6000 * 0.20)
    assert effective_preserve(EngineConfig(context_size=16384), 12000) == int(12000 * 0.25)
    assert effective_preserve(EngineConfig(context_size=2048), 1700) == int(1700 * 0.15)
    # Never more than half the trigger, so a compaction still frees room.
    low_trigger = EngineConfig(context_size=8192, trigger_ratio=0.4)
    assert effective_preserve(low_trigger, 6000) == int(0.4 * 6000 * 0.5)


def test_config_rejects_bad_values() -> None:
    with pytest.raises(ValueError):
        EngineConfig(context_size=100)
    with pytest.raises(ValueError):
        EngineConfig(usable_ratio=1.5)
    with pytest.raises(ValueError):
        EngineConfig(strategy="delete")  # type: ignore[arg-type]
