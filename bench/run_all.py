"""Run every benchmark against its goal and write docs/performance.md.

Run: ``.venv/bin/python bench/run_all.py`` (full, writes the doc; about 5 minutes),
``--quick`` (small sizes, a smoke run), ``--only P2,P3`` (some benchmarks). Runs with
``--quick`` or ``--only`` print their table but write the doc only with ``--output PATH``.
Not part of the test suite; tests/test_bench_smoke.py keeps this code from rotting.

Everything after the ``<!-- notes -->`` line of an existing docs/performance.md (findings,
analysis) is kept when the doc is rewritten.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_API", "pyside6")

from bench.common import ROOT, Result, build_state, machine

DOC = ROOT / "docs" / "performance.md"
NOTES_MARK = "<!-- notes -->"
KEYS = ("P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "P11")

# Sizes per profile. "full" is what the goals are stated for.
PROFILES: dict[str, dict[str, Any]] = {
    "full": {"p1_runs": 7, "p2_turns": 400, "p2_sizes": (100, 1_000, 10_000),
             "p2_contexts": (8192, 131072), "p3_samples": 400, "p3_sizes": (100, 10_000),
             "p4_runs": 5, "p4_messages": 10_000, "p5_chunks": 500, "p5_messages": 5_000,
             "p5_idle": 2.0, "p6_turns": 300, "p7_turns": 120, "p8_runs": 3,
             "p8_messages": 10_000, "p9_messages": 10_000, "p9_sends": 200,
             "p11_runs": 5, "p11_sizes": (4096, 8192, 32768, 131072)},
    "quick": {"p1_runs": 2, "p2_turns": 40, "p2_sizes": (100, 300, 1_000),
              "p2_contexts": (8192,), "p3_samples": 40, "p3_sizes": (100, 2_000),
              "p4_runs": 1, "p4_messages": 1_000, "p5_chunks": 100, "p5_messages": 500,
              "p5_idle": 0.5, "p6_turns": 40, "p7_turns": 20, "p8_runs": 1,
              "p8_messages": 1_000, "p9_messages": 1_000, "p9_sends": 40,
              "p11_runs": 1, "p11_sizes": (4096,)},
}


class States:
    """Long chats are costly to build (about 14 s for 10,000 messages); build each once."""

    def __init__(self) -> None:
        self._cache: dict[int, Any] = {}

    def get(self, count: int) -> Any:
        if count not in self._cache:
            self._cache[count] = build_state(count)
        return self._cache[count]


def _p1(p: dict[str, Any], _s: States) -> list[Result]:
    from bench.bench_startup import run_p1

    return run_p1(p["p1_runs"])  # P1 and P1b, from the same launches


def _p2(p: dict[str, Any], _s: States) -> list[Result]:
    from bench.bench_engine import run_p2

    return run_p2(p["p2_turns"], p["p2_sizes"], p["p2_contexts"])


def _p3(p: dict[str, Any], _s: States) -> list[Result]:
    from bench.bench_store import run_p3

    return [run_p3(p["p3_samples"], p["p3_sizes"])]


def _p4(p: dict[str, Any], s: States) -> list[Result]:
    from bench.bench_window import run_p4, run_p4_view_only

    count = p["p4_messages"]
    return [run_p4(p["p4_runs"], count, s.get(count)),
            run_p4_view_only(max(1, p["p4_runs"] // 2), count)]


def _p5(p: dict[str, Any], s: States) -> list[Result]:
    from bench.bench_window import run_p5

    count = p["p5_messages"]
    return [run_p5(p["p5_chunks"], count, p["p5_idle"], s.get(count))]


def _p6_p7(p: dict[str, Any], _s: States, keys: set[str]) -> list[Result]:
    from bench.bench_conversation import converse, p6_results, p7_result

    p6 = converse(p["p6_turns"])
    results = p6_results(p6) if "P6" in keys else []
    if "P7" in keys:
        results.append(p7_result(converse(p["p7_turns"], pauses=(0.2, 0.4), timed=True), p6))
    return results


def _p8(p: dict[str, Any], s: States) -> list[Result]:
    from bench.bench_startup import run_p8

    count = p["p8_messages"]
    return [run_p8(p["p8_runs"], count, s.get(count))]


def _p9(p: dict[str, Any], _s: States) -> list[Result]:
    from bench.bench_recall import run_p9

    return [run_p9(p["p9_messages"], p["p9_sends"])]


def _p11(p: dict[str, Any], _s: States) -> list[Result]:
    from bench.bench_compaction_stall import run_hostile, run_size

    return [*(run_size(size, p["p11_runs"]) for size in p["p11_sizes"]), run_hostile()]


RUNNERS: dict[str, Callable[[dict[str, Any], States], list[Result]]] = {
    "P1": _p1, "P2": _p2, "P3": _p3, "P4": _p4, "P5": _p5, "P8": _p8, "P9": _p9, "P11": _p11,
}


def run_benchmarks(keys: list[str], profile: dict[str, Any],
                   echo: Callable[[str], None] = print) -> tuple[list[Result], dict[str, float]]:
    """Run the chosen benchmarks in order; their results and seconds per benchmark."""
    states = States()
    results: list[Result] = []
    seconds: dict[str, float] = {}
    wanted = set(keys)
    for key in KEYS:
        if key not in wanted or (key == "P7" and "P6" in wanted):
            continue
        began = time.perf_counter()
        if key in ("P6", "P7"):
            rows = _p6_p7(profile, states, wanted & {"P6", "P7"})
        else:
            rows = RUNNERS[key](profile, states)
        seconds[key] = time.perf_counter() - began
        for row in rows:
            echo(row.line())
            for detail in row.details:
                echo(f"      {detail}")
        results.extend(rows)
    return results, seconds


def render(results: list[Result], seconds: dict[str, float], command: str, total: float,
           notes: str = "") -> str:
    """docs/performance.md: machine, command, date, the table, details, kept notes."""
    lines = ["# Performance", "",
             "Generated by `bench/run_all.py`; each figure is measured next to its baseline in "
             "the same run (medians, interleaved where it matters; the machine is a shared, "
             "noisy 2-core VM, so ratios mean more than absolute times).", "",
             f"- Date: {datetime.now().astimezone():%Y-%m-%d %H:%M %Z}",
             f"- Command: `{command}`",
             f"- Total runtime: {total:.0f} s "
             f"({', '.join(f'{k} {v:.0f} s' for k, v in seconds.items())})"]
    lines += [f"- {name}: {value}" for name, value in machine().items()]
    lines += ["", "| Benchmark | Figure | Baseline | Ratio | Goal | Met? |",
              "|---|---|---|---|---|---|"]
    for r in results:
        ratio = "-" if r.ratio is None else f"{r.ratio:.2f}"
        met = {True: "yes", False: "**NO**", None: "(info)"}[r.met]
        lines.append(f"| {r.key} {r.name} | {r.figure} | {r.baseline} | {ratio} | {r.goal} "
                     f"| {met} |")
    lines += ["", "## Details", ""]
    for r in results:
        lines += [f"- **{r.key}** {r.name}"] + [f"  - {d}" for d in r.details]
    lines += ["", NOTES_MARK, notes.strip("\n"), ""]
    return "\n".join(lines)


def kept_notes(path: Path) -> str:
    if not path.exists():
        return ""
    text = path.read_text(encoding="utf-8")
    return text.split(NOTES_MARK, 1)[1] if NOTES_MARK in text else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, a smoke run")
    parser.add_argument("--only", help="comma-separated keys, e.g. P2,P3")
    parser.add_argument("--output", type=Path, help="write the doc here (default for a full "
                        "run: docs/performance.md)")
    args = parser.parse_args(argv)
    keys = [k.strip().upper() for k in args.only.split(",")] if args.only else list(KEYS)
    unknown = set(keys) - set(KEYS)
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(sorted(unknown))}")
    profile = PROFILES["quick" if args.quick else "full"]
    began = time.perf_counter()
    results, seconds = run_benchmarks(keys, profile)
    total = time.perf_counter() - began
    output = args.output or (DOC if not args.quick and not args.only else None)
    command = " ".join([".venv/bin/python", "bench/run_all.py",
                        *(argv if argv is not None else sys.argv[1:])])
    print(f"total {total:.0f} s")
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(render(results, seconds, command, total, kept_notes(output)),
                          encoding="utf-8")
        print(f"wrote {output}")
    missed = [r for r in results if r.met is False]
    for r in missed:
        print(f"MISSED: {r.key} {r.name}: {r.figure} (goal {r.goal})")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
