"""A tool-heavy chat through the real controller at 2K (``bench/bench_tool_chat.py``, smaller:
24 turns, 36 calls): no request over num_ctx, no result sent whole over its share, every
pruned result the user asks about answered in the request that asks, and the user's facts
kept at least as well as in the same chat without tools. Counts only; the bench prints the
figures at 2K and 4K over 40 turns."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.bench_tool_chat import play


@pytest.mark.slow
def test_a_tool_heavy_chat_through_the_controller_stays_in_the_window(qloop, tmp_path: Path,
                                                                      ) -> None:
    figures = play(2048, 24, 4, True, tmp_path / "tools", qloop)
    assert figures["calls"] >= 36 and figures["calls_failed"] == 0  # every call ran
    assert figures["approved_always"] == 3  # asked once per tool, through the controller
    assert figures["over_num_ctx"] == 0 and figures["largest_prompt"] <= 2048
    assert figures["results_over_share"] > 0 and figures["results_sent_whole_over_share"] == 0
    assert figures["asked_results_not_sent_whole"] == figures["pruned_questions"] == 4
    assert figures["pruned_answered_in_request"] == 4
    plain = play(2048, 24, 4, False, tmp_path / "plain", qloop)
    assert figures["facts_answered_in_request"] >= plain["facts_answered_in_request"]
    assert figures["facts_in_final_request"] >= plain["facts_in_final_request"]
