"""P4 open and paint a stored long chat, P5 event-loop lag while streaming; the real window.

Both build the app's own objects the way ``app._run`` does (store, settings, theme,
ChatController, MainWindow) on a qasync loop, with the loopback FakeOllama as the server, and
drive each scenario in ONE ``run_until_complete``.

P4 times ``controller.open_chat`` of a stored 10,000-message chat (SQLite load, engine
restore, model reset, layout) until the conversation viewport's first paint plus three loop
rounds, against a bare QListView of the same size given a QStringListModel of 10,000 plain
strings (the chat's texts) in the same loop, interleaved run by run. Between runs the window
switches to a small chat so every timed open is a real switch.

P5 streams a 500-chunk reply at 100 chunks/s (``Reply(delay_per_chunk=0.01)``) into a stored
5,000-message chat through the controller, while a 10 ms QTimer records how late it fires;
the baseline is the same probe on the same idle window just before.

Run: ``.venv/bin/python bench/bench_window.py [--runs 5]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``bench`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (
    MODEL,
    LagProbe,
    Result,
    build_state,
    loop_rounds,
    make_data_dir,
    median,
    paint_watch,
    percentile,
    prose,
    qapp,
    qasync_loop,
    quiet_server,
    report,
)

P4_GOAL = 3.0
P5_GOAL_MS = 30.0


class RealApp:
    """The app's objects over ``data_dir``, built like ``ollm_desktop.app._run``."""

    def __init__(self, data_dir: Path, host: str) -> None:
        from ollm_desktop.controller import ChatController
        from ollm_desktop.paths import app_paths
        from ollm_desktop.session import load_settings
        from ollm_desktop.storage import ChatStore
        from ollm_desktop.ui.main_window import MainWindow
        from ollm_desktop.ui.theme import apply_theme

        self.app = qapp()
        paths = app_paths(data_dir)
        settings, _ = load_settings(paths.settings_file)
        settings.ollama_host = host
        store, _ = ChatStore.open(paths)
        apply_theme(self.app, settings.theme)
        self.controller = ChatController(store, settings, model=MODEL)
        self.window = MainWindow(self.controller, paths)
        self.window.restore_window_state()

    async def close(self) -> None:
        from tests.controller_harness import settle

        await settle(self.controller)
        self.window.close()
        await self.controller.shutdown()
        self.window.deleteLater()
        await loop_rounds()


def _server(reply_fn: Any) -> Any:
    from tests.ollama_server import FakeOllama

    server = quiet_server(FakeOllama().start())
    server.reply_fn = reply_fn
    return server


def _summary_or(chat_reply: Any) -> Any:
    """reply_fn: instant structured summaries for summary prompts, ``chat_reply`` otherwise."""
    from tests.controller_harness import is_summary_request, scripted_model

    summaries = scripted_model()

    def answer(body: dict[str, Any]) -> Any:
        return summaries(body) if is_summary_request(body) else chat_reply(body)

    return answer


# ---------------------------------------------------------------------------- P4
async def _p4_scenario(real: RealApp, big_id: str, small_id: str, texts: list[str],
                       runs: int) -> tuple[list[float], list[float], list[float]]:
    from PySide6.QtCore import QStringListModel
    from PySide6.QtWidgets import QListView

    window, controller = real.window, real.controller
    view = window.conversation_view
    ours_watch = paint_watch(view.viewport())
    ours_watch.arm()
    window.show()
    window.refresh_chat_list()
    controller.open_chat(small_id)
    await ours_watch.next_paint()
    controller.refresh_ollama()
    await asyncio.sleep(0.3)

    bare = QListView()
    bare.resize(view.size())
    bare_watch = paint_watch(bare.viewport())
    bare_watch.arm()
    bare.show()
    await bare_watch.next_paint()

    ours, ours_first, base = [], [], []
    for _ in range(runs):
        model = QStringListModel()
        bare_watch.arm()
        began = time.perf_counter()
        model.setStringList(texts)
        bare.setModel(model)
        bare.scrollToBottom()
        await bare_watch.next_paint()
        await loop_rounds()
        base.append(time.perf_counter() - began)
        bar = bare.verticalScrollBar()
        assert bar.maximum() > 0 and bar.value() == bar.maximum(), "bare list not at bottom"
        bare.setModel(None)
        model.deleteLater()
        await asyncio.sleep(0.05)

        ours_watch.arm()
        began = time.perf_counter()
        controller.open_chat(big_id)
        painted = await ours_watch.next_paint()
        await loop_rounds()
        ours.append(time.perf_counter() - began)
        ours_first.append(painted - began)
        bar = view.verticalScrollBar()
        assert bar.maximum() > 0 and bar.value() == bar.maximum(), "chat not at its bottom"
        assert window.conversation_model.rowCount() >= len(texts)
        await asyncio.sleep(0.05)
        ours_watch.arm()
        controller.open_chat(small_id)
        await ours_watch.next_paint()
        await asyncio.sleep(0.05)
    bare.close()
    bare.deleteLater()
    await real.close()
    return ours, ours_first, base


def run_p4(runs: int = 5, messages: int = 10_000, state: Any | None = None) -> Result:
    """P4 row: open+paint the stored chat in the real window vs a bare QListView."""
    state = state if state is not None else build_state(messages)
    texts = [m.content for m in state.messages]
    server = _server(_summary_or(lambda _body: "ok"))
    try:
        with tempfile.TemporaryDirectory() as tmp:
            data = Path(tmp) / "data"
            big_id = make_data_dir(data, state)
            small_id = make_data_dir(data, build_state(20, seed=3), title="Small chat")
            assert big_id and small_id
            real = RealApp(data, server.url)
            with qasync_loop() as loop:
                ours, first, base = loop.run_until_complete(
                    _p4_scenario(real, big_id, small_id, texts, runs))
    finally:
        server.stop()
    ratio = median(ours) / median(base)
    return Result(
        "P4", f"open+paint a stored {messages:,}-message chat (real MainWindow)",
        f"{median(ours) * 1000:.0f} ms", f"{median(base) * 1000:.0f} ms (bare QListView)",
        ratio, f"<= {P4_GOAL:g}x", ratio <= P4_GOAL,
        [f"real window runs ms: {[round(x * 1000) for x in ours]} (first paint "
         f"{[round(x * 1000) for x in first]})",
         f"bare QListView + QStringListModel runs ms: {[round(x * 1000) for x in base]}",
         "ours = controller.open_chat (SQLite load, engine restore, model reset, layout) "
         "to the conversation viewport's first paint + 3 loop rounds"])


def run_p4_view_only(runs: int = 3, messages: int = 10_000) -> Result:
    """Informational: the conversation view alone (bench_ui_list) vs the bare list."""
    from bench import bench_ui_list as ui
    from ollm_desktop.engine.models import CompressedGroup

    app = qapp()
    items = ui.make_messages(messages)
    ids = [m.id for m in items]
    groups = [CompressedGroup(summary="s", message_ids=ids[i:i + 40], span_ids=ids[i:i + 50],
                              original_tokens=9000, current_tokens=900)
              for i in range(0, messages // 2, 500)]
    texts = [m.content for m in items]
    ours, base = [], []
    for _ in range(runs):
        base.append(ui.open_bare(app, texts))
        ours.append(ui.open_ours(app, items, groups))
    ratio = median(ours) / median(base)
    return Result("P4v", f"ConversationView alone, {messages:,} messages (informational)",
                  f"{median(ours) * 1000:.0f} ms", f"{median(base) * 1000:.0f} ms", ratio,
                  f"<= {P4_GOAL:g}x", None,
                  ["bench_ui_list.open_ours vs open_bare: model.set_history + show + paint, "
                   "no store or engine"])


# ---------------------------------------------------------------------------- P5
async def _p5_scenario(real: RealApp, idle_seconds: float, chunks: int,
                       ) -> tuple[list[float], list[float], dict[str, Any]]:
    window, controller = real.window, real.controller
    watch = paint_watch(window.conversation_view.viewport())
    watch.arm()
    window.show()
    window.open_initial_chat()
    controller.refresh_ollama()
    await watch.next_paint()
    await asyncio.sleep(0.5)

    probe = LagProbe()
    probe.start()
    began = time.perf_counter()
    await asyncio.sleep(idle_seconds)
    idle = probe.lags(began)

    marks: dict[str, float] = {}
    received = [0]

    def chunk(_id: str, _text: str) -> None:
        received[0] += 1
        marks.setdefault("first", time.perf_counter())

    controller.replyChunk.connect(chunk)
    controller.replyFinished.connect(lambda *_: marks.setdefault("done", time.perf_counter()))
    task = controller.send("Please explain the design once more, with the trade-offs.")
    assert task is not None
    await task
    probe.stop()
    streaming = probe.lags(marks["first"], marks["done"])
    facts = {"chunks": received[0], "seconds": marks["done"] - marks["first"],
             "rows": window.conversation_model.rowCount()}
    await real.close()
    return idle, streaming, facts


def run_p5(chunks: int = 500, messages: int = 5_000, idle_seconds: float = 2.0,
           state: Any | None = None) -> Result:
    """P5 row: lag p50/p95 while streaming 100 chunks/s into a ``messages`` chat."""
    state = state if state is not None else build_state(messages)
    words = prose(random.Random(5), chunks).split(" ")

    def chat_reply(_body: dict[str, Any]) -> Any:
        from tests.ollama_server import Reply

        return Reply(chunks=[w + " " for w in words], delay_per_chunk=0.01)

    server = _server(_summary_or(chat_reply))
    try:
        with tempfile.TemporaryDirectory() as tmp:
            data = Path(tmp) / "data"
            make_data_dir(data, state)
            real = RealApp(data, server.url)
            with qasync_loop() as loop:
                idle, streaming, facts = loop.run_until_complete(
                    _p5_scenario(real, idle_seconds, chunks))
    finally:
        server.stop()
    p50, p95 = percentile(streaming, 0.5), percentile(streaming, 0.95)
    i50, i95 = percentile(idle, 0.5), percentile(idle, 0.95)
    rate = facts["chunks"] / facts["seconds"]
    return Result(
        "P5", f"event-loop lag streaming into a {messages:,}-message chat",
        f"p50 {p50:.1f} / p95 {p95:.1f} ms", f"p50 {i50:.1f} / p95 {i95:.1f} ms (idle)",
        p95 / i95 if i95 > 0 else None, f"p95 <= {P5_GOAL_MS:g} ms", p95 <= P5_GOAL_MS,
        [f"{facts['chunks']} chunks in {facts['seconds']:.1f} s ({rate:.0f}/s), "
         f"{len(streaming)} ticks of a 10 ms QTimer, max lag {max(streaming):.1f} ms, "
         f"{sum(lag > P5_GOAL_MS for lag in streaming)} ticks over {P5_GOAL_MS:g} ms; "
         f"{facts['rows']} rows in the view",
         "real MainWindow + ChatController + FakeOllama Reply(delay_per_chunk=0.01)"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    results = [run_p4(args.runs), run_p4_view_only(), run_p5()]
    return report(results)


if __name__ == "__main__":
    raise SystemExit(main())
