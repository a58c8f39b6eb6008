"""Closing the real app while it works, against the loopback Ollama (issue 29, point 3).

``ShutdownServer`` is the fake Ollama with one kind of request held open at a time (a chat
turn, a summary, a warm-up, a round's embedding or a query's embedding) and a marker file
dropped as such a request arrives, so ``tests.shutdown_driver`` (another process: the real
``main()``) knows when to close the window. ``close_once`` runs one such close and returns
its report; ``tests/test_app_shutdown.py`` and ``bench/shutdown_closes.py`` use it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.controller_harness import is_summary_request, is_warmup, scripted_model
from tests.ollama_server import FakeModel, FakeOllama, Reply, _Handler, _Server

ROOT = Path(__file__).resolve().parent.parent
HOLD_S = 60.0  # how long a held request stays open (the close comes long before)
# What each state holds open; everything else is answered at once.
HELD = {"stream": "turn", "compaction": "summary", "warm-up": "warm-up",
        "embedding": "document", "recall": "query", "edits": ""}
FIVE_STATES = ("stream", "compaction", "warm-up", "embedding", "recall")  # issue 29, point 3
QUERY_PREFIX = "search_query: "  # nomic-embed-text's (session/recall.py)


class _HoldingHandler(_Handler):
    def _embed(self, body: dict[str, Any]) -> None:
        fake = self.fake
        texts = body.get("input")
        texts = [texts] if isinstance(texts, str) else list(texts or [])
        kind = "query" if texts and str(texts[0]).startswith(QUERY_PREFIX) else "document"
        if fake.mark(kind) and fake.wait(HOLD_S):
            self.close_connection = True
            return
        super()._embed(body)


class _HoldingServer(_Server):
    pass


class ShutdownServer(FakeOllama):
    """The fake Ollama for closes: ``hold(kind)`` and ``markers`` are set per close."""

    def __init__(self) -> None:
        super().__init__([FakeModel("llama3.2:3b", "llama", "3.2B", 131072)])
        self.held = ""
        self.markers: Path | None = None
        self._model_answer = scripted_model(reply_words=120)
        self.reply_fn = self._answer

    def _server(self, address: tuple[str, int]) -> _HoldingServer:
        return _HoldingServer(address, _HoldingHandler, self)

    def mark(self, kind: str) -> bool:
        """Note that a request of ``kind`` arrived; True when that kind is held open."""
        if self.markers is not None:
            (self.markers / kind).touch()
        return kind == self.held

    def _answer(self, body: dict[str, Any]) -> Reply | str:
        kind = ("summary" if is_summary_request(body) else
                "warm-up" if is_warmup(body) else "turn")
        text = self._model_answer(body)
        if not self.mark(kind):
            return text
        if kind == "turn":  # a reply that streams for a minute
            return Reply(text=(text + " ") * 4, delay_per_chunk=HOLD_S / 400)
        return Reply(text=text, delay_before=HOLD_S)


def close_once(server: ShutdownServer, state: str, folder: Path,
               close_after: float = 0.0, timeout: float = 120.0) -> dict[str, Any]:
    """One run of the real app, closed in ``state``; the driver's report, plus how the
    process ended (``returncode``, ``stderr`` tail)."""
    folder.mkdir(parents=True, exist_ok=True)
    markers = folder / "markers"
    markers.mkdir(exist_ok=True)
    for old in markers.iterdir():
        old.unlink()
    server.markers, server.held = markers, HELD[state]
    report_file = folder / "report.json"
    report_file.unlink(missing_ok=True)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT),
           "HOME": str(folder / "home"), "TMPDIR": str(folder)}
    for name in ("OLLM_DATA_DIR", "OLLAMA_HOST", "DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    command = [sys.executable, "-m", "tests.shutdown_driver", state, "--host", server.url,
               "--data-dir", str(folder / "data"), "--report", str(report_file),
               "--markers", str(markers), "--close-after", str(close_after)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT,
                              timeout=timeout, check=False)
        returncode, stderr = done.returncode, done.stderr
    except subprocess.TimeoutExpired as expired:
        returncode, stderr = None, str(expired.stderr or "")
    finally:
        server.held = ""
    report: dict[str, Any] = (json.loads(report_file.read_text(encoding="utf-8"))
                              if report_file.exists() else {"state": state, "reached": False})
    report["returncode"] = returncode
    report["stderr"] = stderr[-3000:]
    log = folder / "data" / "logs" / "ollm-desktop.log"
    report["log_stuck"] = [line for line in (log.read_text(encoding="utf-8").splitlines()
                                             if log.exists() else [])
                           if "would not stop" in line or "did not stop" in line]
    return report


def clean(report: dict[str, Any]) -> bool:
    """Reached its state, ended by returning 0, left no task, thread or child process."""
    return (report.get("reached") is True and report.get("error") is None
            and report.get("forced_exit") is None and report.get("returncode") == 0
            and report.get("code") == 0 and not report.get("children")
            and not report.get("threads") and not report.get("log_stuck"))
