"""P1 cold start to the first painted main window, and P8 resident memory; fresh processes.

Both run ``bench/launch.py`` in subprocesses (offscreen). P1 times, from the parent, process
start to the ``painted`` line: the real ``ollm_desktop.app.main`` opening a small stored chat
vs a bare PySide6 QMainWindow, interleaved run by run after one untimed warm-up of each (so
both read Python and Qt from a warm page cache alike). P8 compares VmRSS, 1.5 s after the first
paint, of the real app opening a stored 10,000-message chat vs the real app with no chat.

Run: ``.venv/bin/python bench/bench_startup.py [--runs 7]``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import ROOT, Result, build_state, make_data_dir, median, quiet_server, report

LAUNCHER = Path(__file__).resolve().parent / "launch.py"
P1_GOAL = 1.5
P8_GOAL_MB = 150.0
RSS_SETTLE_MS = 1500


def launch(mode: str, data_dir: Path | None = None, host: str | None = None,
           rss_after: int | None = None, timeout: float = 120.0,
           pycache: Path | None = None) -> tuple[float, float | None]:
    """(seconds from spawn to the first paint, RSS in MB or None) of one fresh process.

    ``pycache``: a bytecode cache folder (PYTHONPYCACHEPREFIX), as an installed app has
    compiled modules; without it a PYTHONDONTWRITEBYTECODE environment (like this project's)
    would compile every ollm_desktop module from source at each start.
    """
    cmd = [sys.executable, str(LAUNCHER), mode]
    if data_dir is not None:
        cmd += ["--data-dir", str(data_dir)]
    if host is not None:
        cmd += ["--host", host]
    if rss_after is not None:
        cmd += ["--rss-after", str(rss_after)]
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    began = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=env, cwd=ROOT)
    painted: float | None = None
    rss: float | None = None
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("painted") and painted is None:
                painted = time.perf_counter() - began
            elif line.startswith("rss "):
                rss = float(line.split()[1])
        proc.wait(timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if painted is None:
        raise RuntimeError(f"{mode} never painted (exit {proc.returncode})")
    return painted, rss


def _fake_ollama() -> object:
    from tests.ollama_server import FakeOllama

    return quiet_server(FakeOllama().start())


def run_p1(runs: int = 7, chat_messages: int = 40) -> Result:
    """P1 row: real app start (small stored chat) vs bare QMainWindow, medians of ``runs``."""
    server = _fake_ollama()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            data = Path(tmp) / "data"
            make_data_dir(data, build_state(chat_messages), title="Small chat")
            host = server.url  # type: ignore[attr-defined]
            cache = Path(tmp) / "pycache"
            launch("bare", pycache=cache)
            launch("app", data, host, pycache=cache)  # warm-up: page cache, .pyc files
            bare, ours = [], []
            for _ in range(runs):
                bare.append(launch("bare", pycache=cache)[0])
                ours.append(launch("app", data, host, pycache=cache)[0])
    finally:
        server.stop()  # type: ignore[attr-defined]
    ratio = median(ours) / median(bare)
    return Result(
        "P1", "cold start to first painted main window", f"{median(ours) * 1000:.0f} ms",
        f"{median(bare) * 1000:.0f} ms (bare QMainWindow)", ratio, f"<= {P1_GOAL}x",
        ratio <= P1_GOAL,
        [f"app runs ms: {[round(x * 1000) for x in ours]}",
         f"bare runs ms: {[round(x * 1000) for x in bare]}",
         f"app = ollm_desktop.app.main opening a stored {chat_messages}-message chat; "
         "timed from spawn to the QMainWindow's first Paint event; bytecode cached "
         "(PYTHONPYCACHEPREFIX) as in an installed app"])


def run_p8(runs: int = 3, messages: int = 10_000, state: object | None = None) -> Result:
    """P8 row: RSS with a ``messages`` chat open vs the empty app, fresh processes."""
    server = _fake_ollama()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            empty, full = Path(tmp) / "empty", Path(tmp) / "full"
            make_data_dir(empty, None)
            make_data_dir(full, state if state is not None else build_state(messages))
            host = server.url  # type: ignore[attr-defined]
            base, loaded = [], []
            for _ in range(runs):
                base.append(launch("app", empty, host, RSS_SETTLE_MS)[1] or 0.0)
                loaded.append(launch("app", full, host, RSS_SETTLE_MS)[1] or 0.0)
    finally:
        server.stop()  # type: ignore[attr-defined]
    delta = median(loaded) - median(base)
    return Result(
        "P8", f"RSS with a {messages:,}-message chat open", f"{median(loaded):.0f} MB",
        f"{median(base):.0f} MB (empty app)", median(loaded) / median(base),
        f"<= +{P8_GOAL_MB:.0f} MB", delta <= P8_GOAL_MB,
        [f"delta {delta:+.0f} MB; runs loaded {loaded} MB, empty {base} MB "
         f"(VmRSS {RSS_SETTLE_MS} ms after the first paint, after gc.collect())"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--messages", type=int, default=10_000)
    args = parser.parse_args()
    results = [run_p1(args.runs), run_p8(3, args.messages)]
    return report(results)


if __name__ == "__main__":
    raise SystemExit(main())
