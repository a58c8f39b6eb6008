"""P1/P1b cold start and P8 resident memory; fresh processes.

All run ``bench/launch.py`` in subprocesses (offscreen). P1 times, from the parent, process
start to the ``painted`` line: the real ``ollm_desktop.app.main`` opening a small stored chat
vs a bare PySide6 QMainWindow, interleaved run by run after one untimed warm-up of each (so
both read Python and Qt from a warm page cache alike). P1b times, in the same app processes,
spawn to the ``ready`` line: the message input accepts text and the stored chat (the one
``last_chat_id`` names, with all its messages) has been painted; same baseline as P1. P8
compares VmRSS of the real app opening a stored 10,000-message chat vs the real app with no
chat, 1.5 s after ``ready`` (the chat is open and painted; the shell's first paint comes
before the chat is loaded).

Run: ``.venv/bin/python bench/bench_startup.py [--runs 7] [--only P1|P8]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import ROOT, Result, build_state, make_data_dir, median, quiet_server, report

LAUNCHER = Path(__file__).resolve().parent / "launch.py"
P1_GOAL = 1.5
P1B_GOAL = 2.0
P8_GOAL_MB = 150.0
RSS_SETTLE_MS = 1500


class Launch(NamedTuple):
    painted: float  # seconds from spawn to the main window's first paint
    ready: float | None  # seconds from spawn to a usable stored chat (app mode)
    rss: float | None  # MB (with ``rss_after``)
    info: str  # the launcher's ``ready-info`` line
    attached: float | None = None  # seconds to the full window with the chat open (--stall)
    stall_ms: float | None = None  # longest event-loop gap between ready and attached


def launch(mode: str, data_dir: Path | None = None, host: str | None = None,
           rss_after: int | None = None, timeout: float = 120.0,
           pycache: Path | None = None, expect_chat: str | None = None,
           expect_messages: int | None = None, stall: bool = False) -> Launch:
    """Times of one fresh process, read from the parent as the launcher's lines arrive.

    ``pycache``: a bytecode cache folder (PYTHONPYCACHEPREFIX), as an installed app has
    compiled modules; without it a PYTHONDONTWRITEBYTECODE environment (like this project's)
    would compile every ollm_desktop module from source at each start.
    ``expect_chat`` / ``expect_messages``: what ``ready`` waits for (see launch.py).
    """
    cmd = [sys.executable, str(LAUNCHER), mode]
    if data_dir is not None:
        cmd += ["--data-dir", str(data_dir)]
    if host is not None:
        cmd += ["--host", host]
    if rss_after is not None:
        cmd += ["--rss-after", str(rss_after)]
    if expect_chat is not None:
        cmd += ["--expect-chat", expect_chat]
    if expect_messages is not None:
        cmd += ["--expect-messages", str(expect_messages)]
    if stall:
        cmd.append("--stall")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    with tempfile.TemporaryFile("w+", encoding="utf-8") as errors:  # read if it fails
        began = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=errors, text=True,
                                env=env, cwd=ROOT)
        painted: float | None = None
        ready: float | None = None
        rss: float | None = None
        info = ""
        attached: float | None = None
        stall_ms: float | None = None
        try:
            assert proc.stdout is not None
            for line in proc.stdout:
                if line.startswith("painted") and painted is None:
                    painted = time.perf_counter() - began
                elif line.startswith("ready ") and ready is None:
                    ready = time.perf_counter() - began
                elif line.startswith("ready-info "):
                    info = line.split(" ", 1)[1].strip()
                elif line.startswith("rss "):
                    rss = float(line.split()[1])
                elif line.startswith("attached "):
                    attached = float(line.split()[1])
                elif line.startswith("stall-ms "):
                    stall_ms = float(line.split()[1])
            proc.wait(timeout)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        failed = ("never painted" if painted is None else
                  "never got ready" if mode == "app" and ready is None
                  else "")
        if failed:
            errors.seek(0)
            tail = errors.read()[-2000:]
            raise RuntimeError(f"{mode} {failed} (exit {proc.returncode}); stderr:\n{tail}")
    assert painted is not None
    return Launch(painted, ready, rss, info, attached, stall_ms)


def _fake_ollama() -> object:
    from tests.ollama_server import FakeOllama

    return quiet_server(FakeOllama().start())


def run_p1(runs: int = 7, chat_messages: int = 40) -> list[Result]:
    """P1 and P1b rows: real app start (small stored chat) vs bare QMainWindow, medians."""
    server = _fake_ollama()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            data = Path(tmp) / "data"
            state = build_state(chat_messages)
            chat_id = make_data_dir(data, state, title="Small chat")
            expect = {"expect_chat": chat_id, "expect_messages": len(state.messages)}
            host = server.url  # type: ignore[attr-defined]
            cache = Path(tmp) / "pycache"
            launch("bare", pycache=cache)
            launch("app", data, host, pycache=cache, **expect)  # warm-up: page cache, .pyc
            bare: list[float] = []
            ours: list[Launch] = []
            for _ in range(runs):
                bare.append(launch("bare", pycache=cache).painted)
                ours.append(launch("app", data, host, pycache=cache, stall=True, **expect))
    finally:
        server.stop()  # type: ignore[attr-defined]
    painted = [run.painted for run in ours]
    ready = [run.ready or 0.0 for run in ours]
    infos = sorted({run.info for run in ours})
    attached = [run.attached or 0.0 for run in ours]
    stalls = [run.stall_ms or 0.0 for run in ours]
    ratio, ratio_b = median(painted) / median(bare), median(ready) / median(bare)
    bare_text = f"{median(bare) * 1000:.0f} ms (bare QMainWindow)"
    bare_runs = f"bare runs ms: {[round(x * 1000) for x in bare]}"
    setup = (f"app = ollm_desktop.app.main opening a stored {chat_messages}-message chat; "
             "bytecode cached (PYTHONPYCACHEPREFIX) as in an installed app; bare and app "
             "launches interleaved")
    return [
        Result("P1", "cold start to first painted main window",
               f"{median(painted) * 1000:.0f} ms", bare_text, ratio, f"<= {P1_GOAL}x",
               ratio <= P1_GOAL,
               [f"app runs ms: {[round(x * 1000) for x in painted]}", bare_runs,
                setup + "; timed from spawn to the main window's first Paint event (an event "
                "filter on that window only)"]),
        Result("P1b", "cold start to a usable stored chat (input ready, chat painted)",
               f"{median(ready) * 1000:.0f} ms", bare_text, ratio_b, f"<= {P1B_GOAL}x",
               ratio_b <= P1B_GOAL,
               [f"app runs ms: {[round(x * 1000) for x in ready]}", bare_runs,
                "timed from spawn to the end of the conversation viewport's first paint at "
                "which the message input is visible, enabled, writable and focused, and the "
                f"stored chat (last_chat_id) shows all its {len(state.messages)} messages "
                "(the shell's first picture, read without the engine; the full content adopts "
                "the same view and input); same processes as P1",
                f"then the full window (chat list, markers, engine) had the chat open at "
                f"{median(attached) * 1000:.0f} ms; the longest event-loop stall between the "
                f"two (how long a keystroke could wait): {median(stalls):.0f} ms median, "
                f"{max(stalls):.0f} ms worst",
                f"at ready: {'; '.join(infos)}"]),
    ]


def run_p8(runs: int = 3, messages: int = 10_000, state: Any | None = None) -> Result:
    """P8 row: RSS with a ``messages`` chat open vs the empty app, fresh processes."""
    server = _fake_ollama()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            empty, full = Path(tmp) / "empty", Path(tmp) / "full"
            make_data_dir(empty, None)
            state = state if state is not None else build_state(messages)
            chat_id = make_data_dir(full, state)
            expect = {"expect_chat": chat_id, "expect_messages": len(state.messages)}
            host = server.url  # type: ignore[attr-defined]
            base, loaded = [], []
            for _ in range(runs):
                base.append(launch("app", empty, host, RSS_SETTLE_MS).rss or 0.0)
                loaded.append(launch("app", full, host, RSS_SETTLE_MS, **expect).rss or 0.0)
    finally:
        server.stop()  # type: ignore[attr-defined]
    delta = median(loaded) - median(base)
    return Result(
        "P8", f"RSS with a {messages:,}-message chat open", f"{median(loaded):.0f} MB",
        f"{median(base):.0f} MB (empty app)", median(loaded) / median(base),
        f"<= +{P8_GOAL_MB:.0f} MB", delta <= P8_GOAL_MB,
        [f"delta {delta:+.0f} MB; runs loaded {loaded} MB, empty {base} MB "
         f"(VmRSS {RSS_SETTLE_MS} ms after ready (chat open and painted), after gc.collect())"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--only", choices=("P1", "P8"), help="run only P1/P1b or only P8")
    args = parser.parse_args()
    results: list[Result] = []
    if args.only in (None, "P1"):
        results += run_p1(args.runs)
    if args.only in (None, "P8"):
        results.append(run_p8(3, args.messages))
    return report(results)


if __name__ == "__main__":
    raise SystemExit(main())
