"""TokenCalibration: learning the model's token ratio and spotting Ollama's silent truncation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ollm_desktop.backend import TokenCalibration


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
    assert data == {"factor": pytest.approx(1.3), "samples": 1}
    assert TokenCalibration(**data).factor == calibration.factor


@given(st.lists(st.tuples(st.integers(1, 200_000), st.integers(0, 200_000)), max_size=40))
def test_factor_always_within_bounds(samples: list[tuple[int, int]]) -> None:
    calibration = TokenCalibration()
    for estimate, actual in samples:
        factor = calibration.observe(estimate, actual)
        assert 0.5 <= factor <= 3.0
    assert calibration.samples <= len(samples)
