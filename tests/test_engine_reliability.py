"""Reliability: model factor x compression penalty x context confidence, four levels."""

from __future__ import annotations

import pytest

from ollm_desktop.engine import (
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


@pytest.mark.parametrize(
    ("billions", "compactions", "level", "score"),
    [
        (70.0, 0, "high", 0.95),
        (30.0, 0, "high", 0.85),
        (13.0, 0, "medium", 0.70),
        (7.0, 0, "low", 0.50),
        (3.0, 0, "critical", 0.30),
        (70.0, 1, "medium", 0.8075),
        (70.0, 3, "low", 0.5225),
        (8.0, 2, "critical", 0.35),
        (70.0, 10, "critical", 0.285),
    ],
)
def test_levels(billions: float, compactions: int, level: str, score: float) -> None:
    result = compute_reliability(_usage(compactions), billions)
    assert result.level == level
    assert result.score == pytest.approx(score, abs=1e-4)
    assert result.score == pytest.approx(
        result.model_factor * result.compression_penalty * result.context_confidence, abs=1e-4
    )


def test_context_confidence_drops_for_dropped_pins_and_failures() -> None:
    clean = compute_reliability(_usage(1), 70.0)
    worse = compute_reliability(
        _usage(1, dropped=3, over=True, percent=0.99), 70.0, failed_summary=True
    )
    assert clean.context_confidence == 1.0
    assert worse.context_confidence == pytest.approx(0.8 * 0.9 * 0.7 * 0.9, abs=1e-4)
    assert "3 messages left out" in worse.explanation
    assert worse.recommendations and not clean.recommendations


def test_penalty_floor_and_warning() -> None:
    assert compute_reliability(_usage(50), 70.0).compression_penalty == 0.30
    assert not compute_reliability(_usage(0), 3.0).warning  # nothing compressed yet
    assert compute_reliability(_usage(3), 8.0).warning
    assert not compute_reliability(_usage(3), 70.0).warning


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


def test_engine_reliability_follows_compactions() -> None:
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2), turns=10)
    engine.set_model_info(13.0)
    assert engine.reliability().level == "medium"
    assert compact(engine, force=True).status == "compacted"
    after = engine.reliability()
    assert after.compression_penalty == 0.85
    assert after.level == "low"
