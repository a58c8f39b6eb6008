"""Shared pieces of the benchmarks: results, statistics, machine facts, chat builders, Qt loop.

Every benchmark returns ``Result`` rows (figure, baseline, ratio, goal, met) so ``run_all.py``
can print them and write docs/performance.md. Goals are checked here, in one place per row,
never adjusted to the figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # ``tests.ollama_server`` and ``bench.*`` import from the root
    sys.path.insert(0, str(ROOT))

MODEL = "llama3.2:3b"  # a model the loopback FakeOllama lists

_VOCABULARY = (
    "the a build cache index context token model window summary pinned budget stream python "
    "file compaction message layout render delegate we you should could would because when "
    "after before release test measure latency design keep change update value error result "
    "function class module import return list dict string number user reply server client "
    "request response chat engine store query table column row page data time memory disk "
    "network thread loop event signal slot widget paint size height width scroll bar text "
    "line word point step plan goal task issue fix bug feature option setting default path "
    "folder version install package library tool command output input format json yaml sql"
)
_WORDS = _VOCABULARY.split()


@dataclass
class Result:
    """One row of the results table."""

    key: str  # "P1" ...
    name: str
    figure: str
    baseline: str
    ratio: float | None
    goal: str
    met: bool | None  # None: informational row
    details: list[str] = field(default_factory=list)

    def line(self) -> str:
        ratio = "-" if self.ratio is None else f"{self.ratio:.2f}"
        verdict = {True: "met", False: "MISSED", None: "-"}[self.met]
        return (f"{self.key:<4} {self.name}: {self.figure} | baseline {self.baseline} | "
                f"ratio {ratio} | goal {self.goal} | {verdict}")


def report(results: list[Result]) -> int:
    """Print each result with its details; exit status 1 when a goal is missed."""
    for result in results:
        print(result.line())
        for detail in result.details:
            print("     ", detail)
    return 0 if all(r.met is not False for r in results) else 1


def median(values: list[float]) -> float:
    return statistics.median(values)


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (no interpolation: a p95 is a lag that really happened)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def machine() -> dict[str, str]:
    """The facts docs/performance.md records next to the figures."""
    cpu = "unknown"
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    ram = "unknown"
    with contextlib.suppress(OSError), open("/proc/meminfo", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("MemTotal"):
                ram = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                break
    from importlib.metadata import version

    import PySide6

    return {
        "CPU": cpu, "nproc": str(os.cpu_count()), "RAM": ram,
        "OS": f"{platform.system()} {platform.release()}",
        "Python": platform.python_version(), "PySide6": PySide6.__version__,
        "qasync": version("qasync"),
    }


def rss_mb() -> float:
    """Resident memory of this process (VmRSS; psutil is not installed here)."""
    with open("/proc/self/status", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


# ------------------------------------------------------------------ text and chats
def prose(rng: random.Random, count: int) -> str:
    """``count`` words of varied English-like text (cl100k: about 1.3 tokens per word)."""
    words = [rng.choice(_WORDS) for _ in range(count)]
    sentences, start = [], 0
    while start < len(words):
        end = start + rng.randint(8, 18)
        sentence = " ".join(words[start:end])
        sentences.append(sentence[:1].upper() + sentence[1:] + ".")
        start = end
    return " ".join(sentences)


def chat_messages(count: int, seed: int = 7) -> list[tuple[str, str]]:
    """(role, content) of a realistic chat: prose, lists and code blocks, varied lengths."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        if i % 2 == 0:
            text = prose(rng, rng.randint(12, 80))
        else:
            text = prose(rng, rng.randint(40, 220))
            if i % 7 == 3:
                text += "\n\n```python\nfor i in range(10):\n    print(i)\n```\n"
            if i % 5 == 1:
                text = "- " + text[:80] + "\n- second point\n- third point\n\n" + text[80:]
        out.append(("user" if i % 2 == 0 else "assistant", text))
    return out


def build_state(count: int, context_size: int = 8192, seed: int = 7) -> Any:
    """The EngineState of a ``count``-message chat built the way the app grows one.

    Messages are added one at a time and compacted whenever the engine asks, with an instant
    summarizer, so the state carries checkpoints and preserved messages like a real long chat.
    """
    from bench.bench_engine import summarize
    from ollm_desktop.engine import ContextEngine, EngineConfig

    engine = ContextEngine(EngineConfig(context_size=context_size), summarize, "")
    loop = asyncio.new_event_loop()
    try:
        start = datetime(2026, 1, 1, tzinfo=UTC)
        for i, (role, text) in enumerate(chat_messages(count, seed)):
            message = engine.add(role, text)
            message.created_at = start + timedelta(seconds=30 * i)
            if engine.needs_compaction():
                loop.run_until_complete(engine.compact())
    finally:
        loop.close()
    return engine.state()


def make_data_dir(folder: Path, state: Any | None, *, context_size: int = 8192,
                  title: str = "Long chat") -> str | None:
    """An app data folder holding ``state`` as its only chat (opened at start); its id."""
    from ollm_desktop.paths import app_paths
    from ollm_desktop.session import Settings, save_settings
    from ollm_desktop.storage import ChatStore

    paths = app_paths(folder)
    paths.ensure()
    store, _ = ChatStore.open(paths)
    chat_id = None
    try:
        if state is not None:
            chat_id = store.create_chat(title, model=MODEL, context_size=context_size).id
            store.replace_chat_state(chat_id, state)
    finally:
        store.close()
    save_settings(paths.settings_file, Settings(default_model=MODEL, last_chat_id=chat_id,
                                                context_size=context_size))
    return chat_id


# ------------------------------------------------------------------ Qt and qasync
def quiet_server(server: Any) -> Any:
    """Silence the fake server's tracebacks for clients hanging up idle keep-alive sockets."""
    httpd = server._httpd
    default = httpd.handle_error

    def handle_error(request: Any, address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            default(request, address)

    httpd.handle_error = handle_error
    return server


def qapp() -> Any:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("QT_API", "pyside6")
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)  # as the app does; closing a window must not stop
    return app


@contextlib.contextmanager
def qasync_loop() -> Iterator[asyncio.AbstractEventLoop]:
    """A qasync loop set up like the app's (async-generator hooks), torn down cleanly.

    Drive a whole scenario with ONE ``run_until_complete``: stopping and restarting a qasync
    loop while an httpx request is in flight breaks anyio.
    """
    app = qapp()
    import qasync

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    old_hooks = sys.get_asyncgen_hooks()
    sys.set_asyncgen_hooks(firstiter=loop._asyncgen_firstiter_hook,
                           finalizer=loop._asyncgen_finalizer_hook)
    try:
        yield loop
    finally:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
        sys.set_asyncgen_hooks(*old_hooks)
        loop.close()
        asyncio.set_event_loop(None)


def paint_watch(widget: Any) -> Any:
    """An event filter on ``widget`` whose ``next_paint()`` awaits its next paint event."""
    from PySide6.QtCore import QEvent, QObject

    class PaintWatch(QObject):
        def __init__(self) -> None:
            super().__init__()
            self.paints = 0
            self._waiter: asyncio.Future[float] | None = None
            widget.installEventFilter(self)

        def eventFilter(self, _obj: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                self.paints += 1
                if self._waiter is not None and not self._waiter.done():
                    self._waiter.set_result(time.perf_counter())
            return False

        def arm(self) -> None:
            """Call before the action whose paint you await."""
            self._waiter = asyncio.get_running_loop().create_future()

        async def next_paint(self, timeout: float = 60.0) -> float:
            if self._waiter is None:
                self.arm()
            assert self._waiter is not None
            try:
                return await asyncio.wait_for(self._waiter, timeout)
            finally:
                self._waiter = None

    watch = PaintWatch()
    widget._bench_paint_watch = watch  # keep the filter alive with the widget
    return watch


async def loop_rounds(count: int = 3) -> None:
    """Let the event loop run ``count`` rounds (posted events, zero timers, delayed layouts)."""
    for _ in range(count):
        await asyncio.sleep(0)


class LagProbe:
    """A 10 ms QTimer; each tick records (time, lag beyond its 10 ms interval in ms)."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.samples: list[tuple[float, float]] = []
        self._last = 0.0
        self._timer = QTimer()
        self._timer.setInterval(10)
        self._timer.timeout.connect(self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        self.samples.append((now, max(0.0, (now - self._last) * 1000 - 10)))
        self._last = now

    def start(self) -> None:
        self._last = time.perf_counter()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def lags(self, since: float = 0.0, until: float = float("inf")) -> list[float]:
        return [lag for at, lag in self.samples if since <= at <= until]


def timed(fn: Callable[[], Any]) -> float:
    began = time.perf_counter()
    fn()
    return time.perf_counter() - began
