"""Reliability: model factor x compression penalty x context confidence, four levels."""

from __future__ import annotations

import pytest

from ollm_desktop.engine import (
    AgingStep,
    CompressedGroup,
    ContextUsage,
    EngineConfig,
    compute_reliability,
    parse_parameter_size,
)
from tests.engine_fakes import chat, compact


def _usage(
    compactions: int = 0, dropped: int = 0, over: bool = False, percent: float = 0.5
) -> ContextUsage:
    return ContextUsage(
        context_size=8192,
        usable=6963,
        system=0,
        goal=0,
        checkpoints=0,
        preserved=0,
        pinned=0,
        recent=0,
        total=0,
        available=6963,
        trigger=5570,
        tier=2,
        tier_name="Basic",
        percent=percent,
        compaction_count=compactions,
        checkpoint_count=0,
        dropped_messages=dropped,
        over_budget=over,
    )


def _group(stated: int, kept: int, *, identifiers: int | None = None,
           identifiers_kept: int | None = None, extractive: bool = False) -> CompressedGroup:
    """A checkpoint whose one compaction read ``stated`` user facts and kept ``kept``."""
    step = AgingStep(kind="created", to_level=3, tokens_before=100, tokens_after=20,
                     user_facts=stated, user_facts_kept=kept,
                     identifiers=identifiers if identifiers is not None else stated,
                     identifiers_kept=identifiers_kept if identifiers_kept is not None else kept)
    return CompressedGroup(summary="## Context\nx", message_ids=["m"], original_tokens=100,
                           current_tokens=20, history=[step], extractive=extractive)


@pytest.mark.parametrize(
    ("billions", "factor"),
    [(70.0, 0.95), (30.0, 0.85), (13.0, 0.70), (7.0, 0.50), (3.0, 0.30), (0.135, 0.30)],
)
def test_the_model_factor_is_in_the_score_but_never_sets_the_level(billions: float,
                                                                    factor: float) -> None:
    result = compute_reliability(_usage(0), billions)
    assert result.level == "high" and result.chat_score == 1.0
    assert result.model_factor == factor
    assert result.score == pytest.approx(factor)
    assert result.score == pytest.approx(
        result.model_factor * result.compression_penalty * result.context_confidence, abs=1e-4
    )
    assert not result.warning


def test_a_small_models_healthy_compactions_are_not_critical() -> None:
    """Issue 25: the first compaction of a healthy chat turned a 135M chat "Critical (23%)";
    one compaction, or twenty, that kept every fact the user stated costs nothing."""
    for count in (1, 20):
        groups = [_group(4, 4) for _ in range(count)]
        result = compute_reliability(_usage(count), 0.135, groups=groups)
        assert result.level == "high", result.explanation
        assert result.compression_penalty == 1.0 and result.costly_compressions == 0
        assert not result.warning
        assert result.model_note == "Small models (under 7B) summarise less reliably"
        assert result.score == pytest.approx(0.30)  # the factor stays in the score


def test_the_seeds_example_a_3b_chat_after_two_lossy_compressions_is_medium() -> None:
    groups = [_group(10, 2), _group(10, 4)]  # lost 80 % and 60 % of the user's facts
    result = compute_reliability(_usage(2), 3.0, groups=groups)
    assert result.compression_penalty == pytest.approx(1 - 0.15 * (0.8 + 0.6))
    assert result.level == "medium" and result.costly_compressions == 2
    assert not result.warning  # 2 costly compressions, the recommendation for 3B is 3
    assert "2 lost facts you stated (14 of 20)" in result.explanation


def test_the_penalty_counts_what_was_lost_in_proportion_with_the_seeds_floor() -> None:
    assert compute_reliability(_usage(1), 8.0, groups=[_group(4, 0)]).compression_penalty \
        == pytest.approx(0.85)
    assert compute_reliability(_usage(1), 8.0, groups=[_group(4, 2)]).compression_penalty \
        == pytest.approx(0.925)
    assert compute_reliability(_usage(1), 8.0, groups=[_group(0, 0)]).compression_penalty \
        == 1.0  # nothing stated, nothing lost
    lost_all = [_group(3, 0) for _ in range(10)]
    assert compute_reliability(_usage(10), 70.0, groups=lost_all).compression_penalty == 0.30


def test_the_warning_follows_the_level_or_the_costly_compressions() -> None:
    assert not compute_reliability(_usage(0), 3.0).warning  # nothing compressed yet
    three = [_group(10, 9) for _ in range(3)]  # each lost a little: still high
    small = compute_reliability(_usage(3), 3.0, groups=three)
    assert small.level == "high" and small.warning and small.recommendations
    assert not compute_reliability(_usage(3), 70.0, groups=three).warning  # 70B: 7
    lossy = [_group(2, 2, identifiers=10, identifiers_kept=2, extractive=True)]
    low = compute_reliability(_usage(1, over=True), 70.0, groups=lossy)
    assert low.level == "low" and low.warning
    # What the next compaction resolves (messages left out, a full context) lowers the level
    # shown, never the warning: it would come and go with one turn.
    passing = compute_reliability(_usage(1, dropped=3, percent=0.99), 70.0, groups=lossy)
    assert passing.level == "low" and not passing.warning


def test_context_confidence_is_measured_from_the_checkpoints() -> None:
    clean = compute_reliability(_usage(1), 70.0, groups=[_group(5, 5)])
    worse = compute_reliability(
        _usage(1, dropped=3, over=True, percent=0.99), 70.0,
        groups=[_group(2, 2, identifiers=10, identifiers_kept=2, extractive=True)])
    assert clean.context_confidence == 1.0
    # 2 of 10 identifiers kept, a code-built checkpoint, 3 left out, pins over, almost full
    assert worse.context_confidence == pytest.approx(
        (0.7 + 0.3 * 0.2) * 0.9 * 0.8 * 0.7 * 0.9, abs=1e-4)
    assert "3 messages left out" in worse.explanation
    assert "built from the messages" in worse.explanation
    assert "2 of 10 identifiers" in worse.explanation
    assert worse.recommendations and not clean.recommendations


def test_an_unknown_size_is_unknown_not_7b() -> None:
    """Issue 25: with Ollama unreachable the same chat jumped to 35 % (unknown counted as 7B)."""
    unknown = compute_reliability(_usage(1), None, groups=[_group(3, 3)])
    assert unknown.model_size == "unknown" and not unknown.model_known
    assert unknown.model_note == "Model size unknown"
    assert "model size unknown" in unknown.explanation.lower()
    assert "7B" not in unknown.explanation and unknown.score == unknown.chat_score
    known = compute_reliability(_usage(1), 0.135, groups=[_group(3, 3)])
    assert known.model_size == "135M" and known.level == unknown.level


def test_parameter_sizes() -> None:
    assert parse_parameter_size("8.0B") == 8.0
    assert parse_parameter_size("137M") == pytest.approx(0.137)
    assert parse_parameter_size("") is None and parse_parameter_size("big") is None


@pytest.mark.parametrize(("text", "billions"), [
    # What both former parsers (engine and backend) accepted: unchanged.
    ("8.0B", 8.0), ("7B", 7.0), (" 7 b ", 7.0), ("3.2B", 3.2), ("268.10M", 0.2681),
    ("270M", 0.27), ("135M", 0.135), (".5B", 0.5), ("7.B", 7.0), ("1K", 1e-6),
    # Only the backend's: a bare number is billions; trillions.
    ("7", 7.0), ("1.5T", 1500.0),
    # Only the engine's: a size inside longer text, when it has its unit.
    ("Llama 8B", 8.0), ("7 billion", 7.0),
    # Neither: unusable text is None (the engine's parser used to raise on "1.2.3B").
    (None, None), ("", None), ("big", None), ("lots", None), ("1.2.3B", None), ("..B", None),
])
def test_one_parameter_size_parser_for_every_layer(text: str | None,
                                                   billions: float | None) -> None:
    parsed = parse_parameter_size(text)
    assert parsed == (None if billions is None else pytest.approx(billions))


def test_engine_reliability_follows_what_its_compactions_kept() -> None:
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2), turns=10)
    engine.set_model_info(13.0)
    assert engine.reliability().level == "high"
    assert compact(engine, force=True).status == "compacted"
    after = engine.reliability()
    step = engine.groups[-1].history[-1]
    assert step.user_facts and step.user_facts == step.user_facts_kept  # src/module_N.py
    assert after.compression_penalty == 1.0 and after.level == "high"
    assert after.user_facts == step.user_facts
