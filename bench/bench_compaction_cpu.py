"""Engine CPU of each compaction (issue 28, point 7): the noisy coding chat of ``bench.memory``
played into an in-process engine with a cheap fake summariser, whose own CPU is subtracted.

    python -m bench.bench_compaction_cpu [ctx] [turns]      # default 32768 150

Prints the median, p95 and max CPU per compaction, the median CPU per added message (where
each message's facts are now extracted, once), and the extraction counter.
"""

from __future__ import annotations

import statistics
import sys
import time

from bench.memory.generator import generate
from bench.memory.noisy import replies
from ollm_desktop.engine import ContextEngine, EngineConfig, facts_extract
from tests.engine_fakes import GoodSummarizer, compact


class _Timed(GoodSummarizer):
    spent = 0.0

    def answer(self, prompt, call):  # type: ignore[no-untyped-def]
        start = time.process_time()
        try:
            return super().answer(prompt, call)
        finally:
            _Timed.spent += time.process_time() - start


def main(ctx: int = 32768, turns: int = 150) -> str:
    chat = generate("coding", turns, 1, "long")
    noisy = replies(chat)
    engine = ContextEngine(EngineConfig(context_size=ctx, min_messages=2), _Timed())
    costs: list[float] = []
    adds: list[float] = []
    before = facts_extract.extraction_count()
    for index, turn in enumerate(chat.turns):
        start = time.process_time()
        engine.add("user", turn.user)
        engine.add("assistant", noisy[index][0])
        adds.append(time.process_time() - start)
        if engine.needs_compaction():
            _Timed.spent = 0.0
            start = time.process_time()
            compact(engine)
            costs.append(time.process_time() - start - _Timed.spent)
    costs.sort()
    p95 = costs[min(len(costs) - 1, int(len(costs) * 0.95))] if costs else 0.0
    return (f"ctx {ctx} turns {turns}: {len(costs)} compactions, engine CPU median "
            f"{statistics.median(costs) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max "
            f"{max(costs, default=0) * 1000:.0f} ms; per added message pair median "
            f"{statistics.median(adds) * 1000:.1f} ms; extractions "
            f"{facts_extract.extraction_count() - before} for {2 * turns} messages")


if __name__ == "__main__":
    print(main(*(int(a) for a in sys.argv[1:3])))
