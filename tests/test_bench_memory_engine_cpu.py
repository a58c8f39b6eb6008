"""The memory benchmark's "engine CPU per compaction" (issue 28's cost goal) leaves out the
benchmark's own bookkeeping, which runs on the same thread inside the summariser call: the
one-slot cache model's diff of each summary request was 93 % of the figure at 32K."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from bench.memory import strategies
from bench.memory.strategies import Truncate


def test_the_engine_cpu_of_a_compaction_leaves_out_the_benchs_bookkeeping(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr(strategies, "time", SimpleNamespace(
        thread_time=lambda: clock[0], monotonic=lambda: clock[0]))
    summarizer: Any = SimpleNamespace(bookkeeping_cpu=5.0)
    strategy = Truncate("system", 4096, summarizer)

    async def compaction() -> bool:
        clock[0] += 0.040  # the engine's stages
        clock[0] += 0.600  # the summariser's bookkeeping (the slot model)...
        summarizer.bookkeeping_cpu += 0.600  # ...which it records
        return True

    asyncio.run(strategy._timed(compaction()))
    assert strategy.compaction_cpu == [pytest.approx(0.040)]
    assert strategy.compaction_seconds == [pytest.approx(0.640)]
