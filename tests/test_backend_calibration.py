"""TokenCalibration: learning the model's token ratio and spotting Ollama's silent truncation."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ollm_desktop.backend import TokenCalibration, load_calibration, save_calibration
from ollm_desktop.backend.calibration import MIN_FIT_SAMPLES, Sample, fit_counts
from ollm_desktop.engine.models import EngineConfig


def test_first_sample_sets_the_factor() -> None:
    calibration = TokenCalibration()
    assert calibration.observe(1000, 1200) == pytest.approx(1.2)
    assert calibration.samples == 1
    assert calibration.factor == pytest.approx(1.2)


def test_converges_to_a_steady_ratio_and_resists_one_outlier() -> None:
    calibration = TokenCalibration()
    for estimate in range(500, 3500, 100):
        calibration.observe(estimate, round(estimate * 0.8))
    assert calibration.factor == pytest.approx(0.8, abs=0.01)
    after_outlier = calibration.observe(1000, 1600)
    assert after_outlier < 1.0  # one odd sample moves it, but not all the way to 1.6
    assert after_outlier > 0.8


def test_factor_is_bounded() -> None:
    high = TokenCalibration()
    for _ in range(20):
        high.observe(100, 10_000)
    assert high.factor == 3.0
    low = TokenCalibration()
    for _ in range(20):
        low.observe(10_000, 100)
    assert low.factor == 0.5


def test_tiny_prompts_and_missing_counts_are_ignored() -> None:
    calibration = TokenCalibration(factor=1.1, samples=4)
    assert calibration.observe(20, 40) == 1.1
    assert calibration.observe(1000, 0) == 1.1
    assert calibration.samples == 4


def test_truncation_needs_a_shortfall_near_the_window() -> None:
    calibration = TokenCalibration(factor=1.0, samples=10)
    # sent ~6000 into a 4096 window, Ollama counted 3900: it dropped messages
    assert calibration.truncation_suspected(6000, 3900, 4096)
    # sent ~3000 into a 32k window and the model counted less: just a different tokenizer
    assert not calibration.truncation_suspected(3000, 2000, 32768)
    # at the window but Ollama agrees with us: nothing dropped
    assert not calibration.truncation_suspected(4000, 3950, 4096)
    # a huge dropped message can leave the kept prompt far below the window
    assert calibration.truncation_suspected(9000, 1500, 4096)
    assert not calibration.truncation_suspected(10, 1, 4096)


def test_uncalibrated_models_get_more_benefit_of_the_doubt() -> None:
    fresh = TokenCalibration()
    settled = TokenCalibration(samples=5)
    # a tokenizer counting 25% less than ours, right at the window
    assert not fresh.truncation_suspected(4000, 3000, 4096)
    assert settled.truncation_suspected(4000, 3000, 4096)


def test_a_truncated_sample_does_not_skew_the_factor() -> None:
    calibration = TokenCalibration(factor=1.0, samples=10)
    assert calibration.truncation_suspected(8000, 4000, 4096)
    assert calibration.observe(8000, 4000) == 1.0
    assert calibration.samples == 10
    # the skip applies to that sample only
    assert calibration.observe(1000, 1100) > 1.0
    # passing num_ctx lets observe judge by itself
    before = calibration.factor
    assert calibration.observe(8000, 4000, num_ctx=4096) == before


def test_persists_as_plain_fields() -> None:
    calibration = TokenCalibration()
    calibration.observe(1000, 1300)
    data = calibration.model_dump()
    assert data == {"factor": pytest.approx(1.3), "samples": 1, "per_message": 8,
                    "per_request": 16}
    assert TokenCalibration(**data).factor == calibration.factor


def test_defaults_are_the_engines_overhead() -> None:
    config = EngineConfig()
    calibration = TokenCalibration()
    assert (calibration.per_message, calibration.per_request) == (
        config.message_overhead, config.request_overhead)


# --------------------------------------------------------- template overhead
def _chat_samples(seed: int, turns: int = 30, noise: float = 0.0) -> list[Sample]:
    """Requests of a growing chat with a compaction every 7 turns, counted by a model that
    counts 1.2x cl100k plus 5 tokens per message and 6 per request (Llama-3-like)."""
    rng = random.Random(seed)
    samples, raw, messages = [], 0, 1
    for turn in range(turns):
        raw += rng.randint(20, 400)
        messages += 2
        if turn % 7 == 6:
            raw, messages = int(raw * 0.4), max(3, messages // 3)
        actual = round(1.2 * raw * (1 + rng.uniform(-noise, noise))) + 5 * messages + 6
        samples.append(Sample(raw, messages, actual))
    return samples


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_recovers_factor_and_template_overhead_from_observed_turns(seed: int) -> None:
    calibration = TokenCalibration()
    for sample in _chat_samples(seed):
        calibration.observe(sample.raw, sample.actual, messages=sample.messages)
    assert calibration.factor == pytest.approx(1.2, abs=0.01)
    assert calibration.per_message == 5
    assert abs(calibration.per_request - 6) <= 2
    # Its estimate of a new request matches the model's count within a few tokens.
    assert abs(calibration.estimate(3000, 40) - (3600 + 5 * 40 + 6)) <= 4


def test_noisy_counts_still_give_a_close_estimate() -> None:
    calibration = TokenCalibration()
    for sample in _chat_samples(7, noise=0.02):
        calibration.observe(sample.raw, sample.actual, messages=sample.messages)
    assert calibration.factor == pytest.approx(1.2, abs=0.04)
    assert 2 <= calibration.per_message <= 8
    assert 0 <= calibration.per_request <= 128
    expected = 1.2 * 4000 + 5 * 30 + 6
    assert abs(calibration.estimate(4000, 30) - expected) / expected < 0.04


def test_factor_only_while_samples_cannot_separate_the_overhead() -> None:
    calibration = TokenCalibration()
    # Always 3 messages: the per-message overhead cannot be told from the factor.
    for raw in range(500, 3000, 250):
        calibration.observe(raw, round(1.2 * raw) + 5 * 3 + 6, messages=3)
    assert (calibration.per_message, calibration.per_request) == (8, 16)  # defaults kept
    # The factor absorbs the difference so that requests of this shape are estimated right.
    assert abs(calibration.estimate(2000, 3) - (2400 + 21)) <= 12
    assert fit_counts([Sample(1000, 3, 1221)] * 12) is None


def test_a_template_smaller_than_assumed_never_makes_a_long_prompt_under_counted() -> None:
    # The model counts exactly cl100k plus 4 per message: less overhead than the 8 + 16 held
    # fixed until a fit. Short early turns must not teach a factor below 1 that then
    # under-counts a long prompt (seen: 1,772 tokens sent where 1,687 were estimated).
    calibration = TokenCalibration()
    for raw, messages in ((120, 2), (300, 4), (520, 6)):
        calibration.observe(raw, raw + 4 * messages, messages=messages)
    assert calibration.samples < MIN_FIT_SAMPLES  # still the factor-only phase
    assert calibration.estimate(1700, 10) >= 1700 + 4 * 10
    # A model that really counts fewer tokens is still followed, never below what it proves.
    fewer = TokenCalibration()
    for raw in (400, 800, 1200):
        fewer.observe(raw, round(0.7 * raw), messages=2)
    assert fewer.factor < 0.8
    assert fewer.estimate(2000, 2) >= round(0.7 * 2000)


def test_a_fit_needs_enough_samples() -> None:
    assert fit_counts(_chat_samples(0)[:MIN_FIT_SAMPLES - 1]) is None
    assert fit_counts(_chat_samples(0)[:12]) is not None


def test_fit_is_clamped() -> None:
    # A template of 90 tokens per message and 500 per request: beyond any plausible bound.
    wild = [Sample(raw, n, raw + 90 * n + 500)
            for raw, n in zip([800, 2500, 1200, 4000, 900, 3100, 1800, 2200, 600, 3500, 1500,
                               2800], [2, 4, 7, 9, 12, 14, 3, 16, 5, 11, 18, 6], strict=True)]
    fit = fit_counts(wild)
    assert fit is not None
    assert 0.5 <= fit.factor <= 3.0
    assert 0 <= fit.per_message <= 32 and 0 <= fit.per_request <= 128


def test_truncated_samples_are_ignored_by_the_fit() -> None:
    calibration = TokenCalibration()
    samples = _chat_samples(3)
    for sample in samples[:20]:
        calibration.observe(sample.raw, sample.actual, messages=sample.messages)
    learned = (calibration.factor, calibration.per_message, calibration.per_request)
    # An older server cut this 9,000-token request to fit 4,096 and counted what it kept.
    raw, messages = 7000, 60
    estimate = calibration.estimate(raw, messages)
    assert calibration.truncation_suspected(estimate, 4000, 4096)
    calibration.observe(raw, 4000, messages=messages)
    assert (calibration.factor, calibration.per_message, calibration.per_request) == learned
    calibration.observe(raw, 4000, messages=messages, num_ctx=4096)  # judged by itself too
    assert (calibration.factor, calibration.per_message, calibration.per_request) == learned


def test_a_model_that_starts_counting_more_is_followed_at_once() -> None:
    calibration = TokenCalibration()
    for sample in _chat_samples(4):
        calibration.observe(sample.raw, sample.actual, messages=sample.messages)
    assert calibration.factor == pytest.approx(1.2, abs=0.01)
    # Same name, another tokenizer: twice the count.
    calibration.observe(2000, 2 * (2400 + 5 * 20 + 6), messages=20)
    assert calibration.estimate(2000, 20) >= 0.9 * 2 * (2400 + 5 * 20 + 6)


# ------------------------------------------------------------------- overflow
def test_a_refused_prompt_with_its_count_is_estimated_above_that_count() -> None:
    calibration = TokenCalibration()
    for sample in _chat_samples(5):
        calibration.observe(sample.raw, sample.actual, messages=sample.messages)
    # Ollama refused a request it counted at 9,500 (we thought it fitted 8,192).
    raw, messages = 6200, 50
    assert calibration.estimate(raw, messages) < 9500
    calibration.observe_overflow(raw, messages, prompt_tokens=9500, num_ctx=8192)
    assert calibration.estimate(raw, messages) > 9500


def test_a_refused_prompt_without_a_count_steps_the_factor_past_the_window() -> None:
    calibration = TokenCalibration(factor=1.0, samples=10)
    raw, messages = 3000, 20
    assert calibration.estimate(raw, messages) < 4096
    factor = calibration.observe_overflow(raw, messages, prompt_tokens=None, num_ctx=4096)
    assert factor >= 1.5  # at least the overflow step
    assert calibration.estimate(raw, messages) > 4096
    capped = TokenCalibration(factor=2.5)
    assert capped.observe_overflow(1000, 2, prompt_tokens=None, num_ctx=8192) == 3.0


def test_store_round_trip_keeps_the_overhead(store) -> None:
    calibration = TokenCalibration()
    for sample in _chat_samples(6):
        calibration.observe(sample.raw, sample.actual, messages=sample.messages)
    save_calibration(store, "llama3.2:3b", calibration)
    loaded = load_calibration(store, "llama3.2:3b")
    assert (loaded.factor, loaded.samples, loaded.per_message, loaded.per_request) == (
        calibration.factor, calibration.samples, calibration.per_message,
        calibration.per_request)
    assert store.get_calibration("llama3.2:3b") == (calibration.factor, calibration.samples)
    fresh = load_calibration(store, "other:1b")
    assert (fresh.factor, fresh.per_message, fresh.per_request) == (1.0, 8, 16)


@given(st.lists(st.tuples(st.integers(1, 200_000), st.integers(0, 200_000)), max_size=40))
def test_factor_always_within_bounds(samples: list[tuple[int, int]]) -> None:
    calibration = TokenCalibration()
    for estimate, actual in samples:
        factor = calibration.observe(estimate, actual)
        assert 0.5 <= factor <= 3.0
    assert calibration.samples <= len(samples)
