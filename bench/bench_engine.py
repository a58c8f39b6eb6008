"""Per-turn engine cost at 100, 1,000 and 10,000 messages (8K and 128K contexts).

A turn is what the controller does for every message: ``add`` then ``api_messages()`` and
``usage()``. Each conversation is built the realistic way, compacting whenever the engine asks
(with an instant fake summarizer), so long chats carry checkpoints, preserved user messages and
a long display history. Compactions are not timed (they wait on the model); the turn after one
is (it rebuilds the cached context).

Run: ``python bench/bench_engine.py [--turns 400]``. Goal: median at 10,000 messages below 2 ms
and at most 2x the median at 100 messages.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import time

from ollm_desktop.engine import ContextEngine, EngineConfig
from ollm_desktop.engine.tokens import truncate_to_tokens

SIZES = (100, 1_000, 10_000)
CONTEXTS = (8192, 131072)
GOAL_MS = 2.0
GOAL_RATIO = 2.0

_PHRASE = (
    "the build uses src/app/main.py and the cache takes 35 ms when the index is warm "
    "so we keep the importer and measure again after release"
)
_WORDS = _PHRASE.split()
_TARGET = re.compile(r"at most (\d+) tokens")


def text(words: int, seed: int) -> str:
    return " ".join(_WORDS[(seed + i * 7) % len(_WORDS)] for i in range(words))


async def summarize(prompt: list[dict[str, str]]) -> str:
    """An instant model: a structured summary at half the requested size."""
    target = int(_TARGET.findall(prompt[-1]["content"])[-1])
    return truncate_to_tokens("## Context\n" + text(target, target), max(8, target // 2))


def add_turn(engine: ContextEngine, index: int) -> None:
    if index % 2 == 0:
        engine.add("user", f"Question {index}: " + text(35, index))
    else:
        engine.add("assistant", f"Answer {index}: " + text(160, index))


def build(context_size: int, messages: int) -> ContextEngine:
    engine = ContextEngine(
        EngineConfig(context_size=context_size), summarize, "You are a helpful assistant."
    )
    for index in range(messages):
        add_turn(engine, index)
        if engine.needs_compaction():
            asyncio.run(engine.compact())
    return engine


def measure(engine: ContextEngine, turns: int) -> list[float]:
    """Milliseconds per turn; compactions in between are run untimed."""
    samples = []
    start_index = len(engine.display_messages())
    for step in range(turns):
        index = start_index + step
        began = time.perf_counter()
        add_turn(engine, index)
        engine.api_messages()
        engine.usage()
        samples.append((time.perf_counter() - began) * 1000)
        if engine.needs_compaction():
            asyncio.run(engine.compact())
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=400, help="timed turns per size")
    args = parser.parse_args()
    failed = False
    print(
        f"{'context':>8} {'messages':>9} {'median ms':>10} {'p95 ms':>8} {'max ms':>8} "
        f"{'compactions':>12} {'checkpoints':>12} {'api msgs':>9}"
    )
    for context_size in CONTEXTS:
        medians = {}
        for size in SIZES:
            built = time.perf_counter()
            engine = build(context_size, size)
            build_s = time.perf_counter() - built
            samples = measure(engine, args.turns)
            median = statistics.median(samples)
            p95 = statistics.quantiles(samples, n=20)[-1]
            medians[size] = median
            print(
                f"{context_size:>8} {size:>9,} {median:>10.3f} {p95:>8.3f} {max(samples):>8.2f} "
                f"{engine.compaction_count:>12} {len(engine.groups):>12} "
                f"{len(engine.api_messages()):>9}   (built in {build_s:.1f} s)"
            )
        ratio = medians[SIZES[-1]] / medians[SIZES[0]]
        ok = ratio <= GOAL_RATIO and medians[SIZES[-1]] < GOAL_MS
        failed |= not ok
        print(
            f"{context_size:>8} ratio 10,000/100 = {ratio:.2f} "
            f"(goal <= {GOAL_RATIO:g}x and < {GOAL_MS:g} ms): {'met' if ok else 'MISSED'}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
