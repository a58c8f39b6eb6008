"""Scripted closes of the real app while it works (issue 29): how many end with ``os._exit``,
and how many tasks, threads and child processes are left.

Run: ``.venv/bin/python bench/shutdown_closes.py [--closes 20] [--json PATH]``. Each close
is a fresh process running ``ollm_desktop.app.main()`` (``tests/shutdown_driver.py``) against
the loopback Ollama, closed during a stream, a compaction, a warm-up, an embedding or a
recall, in turn, at 0, 0.15, 0.3 and 0.5 s after the state is reached (the recall's query
waits 0.3 s, so both sides of that are closed on). Not part of the test suite (the suite
closes each state once: tests/test_app_shutdown.py).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``tests`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.shutdown_closes import FIVE_STATES, ShutdownServer, clean, close_once

DELAYS = (0.0, 0.15, 0.3, 0.5)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--closes", type=int, default=20)
    parser.add_argument("--json", help="write every close's report here")
    args = parser.parse_args(argv)
    states = list(FIVE_STATES)
    reports = []
    with tempfile.TemporaryDirectory(prefix="ollm-closes-") as scratch, \
            ShutdownServer().running() as server:
        for n in range(args.closes):
            state = states[n % len(states)]
            delay = DELAYS[(n // len(states)) % len(DELAYS)]
            report = close_once(server, state, Path(scratch) / f"{n:02d}-{state}", delay)
            report["close_after"] = delay
            reports.append(report)
            forced = report.get("forced_exit") or {}
            left = [t["name"] for t in forced.get("tasks", [])]
            print(f"{n + 1:2d} {state:<10} +{delay:.2f}s  "
                  f"{'clean' if clean(report) else 'NOT CLEAN'}  "
                  f"code={report.get('returncode')} close={report.get('close_seconds')}s"
                  f"{'  os._exit: ' + ', '.join(left) if forced else ''}"
                  f"{'  error: ' + report['error'] if report.get('error') else ''}",
                  flush=True)
    forced = sum(1 for r in reports if r.get("forced_exit"))
    tasks = sum(len((r.get("forced_exit") or {}).get("tasks", [])) for r in reports)
    children = sum(len(r.get("children") or []) for r in reports)
    threads = sum(len(r.get("threads") or []) for r in reports)
    unreached = sum(1 for r in reports if not r.get("reached"))
    hung = sum(1 for r in reports if r.get("returncode") is None)
    closes = [r["close_seconds"] for r in reports if r.get("close_seconds") is not None]
    print(f"\n{len(reports)} closes: {forced} ended with os._exit, {tasks} task(s), "
          f"{children} child process(es) and {threads} thread(s) left, {hung} hung, "
          f"{unreached} never reached their state; close to exit: "
          f"max {max(closes, default=0):.2f} s (load {os.getloadavg()[0]:.1f})")
    if args.json:
        Path(args.json).write_text(json.dumps(reports, indent=1), encoding="utf-8")
    return 0 if all(clean(r) for r in reports) else 1


if __name__ == "__main__":
    raise SystemExit(main())
