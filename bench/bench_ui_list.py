"""P4: opening a 10,000-message chat, and event-loop lag while streaming (offscreen).

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_ui_list.py [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QElapsedTimer, QEventLoop, QObject, QStringListModel, QTimer
from PySide6.QtCore import QEvent as _QEvent
from PySide6.QtWidgets import QApplication, QListView, QWidget

from ollm_desktop.engine.models import CompressedGroup, Message
from ollm_desktop.ui.conversation.conversation_model import ConversationModel
from ollm_desktop.ui.conversation.conversation_view import ConversationView

WORDS = [
    "context", "token", "model", "window", "summary", "pinned", "budget", "stream",
    "python", "file", "compaction", "message", "layout", "render", "cache", "delegate",
]


def make_messages(count: int) -> list[Message]:
    start = datetime(2025, 1, 1, tzinfo=UTC)
    messages = []
    for i in range(count):
        length = 12 + (i * 37) % 160
        words = " ".join(WORDS[(i + k) % len(WORDS)] for k in range(length))
        if i % 7 == 3:
            words += "\n\n```python\nfor i in range(10):\n    print(i)\n```\n"
        if i % 5 == 1:
            words = "- " + words[:80] + "\n- second point\n- third point"
        messages.append(Message(role="user" if i % 2 == 0 else "assistant", content=words,
                                created_at=start + timedelta(seconds=i), pinned=i % 97 == 0))
    return messages


class PaintWatch(QObject):
    """Counts paint events of a viewport, to wait until the view has painted."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__()
        self.paints = 0
        widget.installEventFilter(self)

    def eventFilter(self, _obj: QObject, event: _QEvent) -> bool:
        if event.type() == _QEvent.Type.Paint:
            self.paints += 1
        return False


def pump_until(app: QApplication, done: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.perf_counter() + timeout
    while not done():
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
        if time.perf_counter() > deadline:
            raise TimeoutError("view never painted")


def settle(app: QApplication) -> None:
    """Run the event loop until no posted work remains (delayed layouts included)."""
    for _ in range(4):
        app.processEvents()


def open_ours(app: QApplication, messages: list[Message],
              groups: list[CompressedGroup]) -> float:
    model = ConversationModel()
    view = ConversationView()
    view.setModel(model)
    view.resize(900, 800)
    watch = PaintWatch(view.viewport())
    started = time.perf_counter()
    model.set_history(messages, groups, {})
    view.show()
    view.scrollToBottom()
    pump_until(app, lambda: watch.paints > 0)
    settle(app)
    elapsed = time.perf_counter() - started
    bar = view.verticalScrollBar()
    assert bar.value() == bar.maximum(), "not at the bottom"
    view.close()
    view.deleteLater()
    model.deleteLater()
    settle(app)
    return elapsed


def open_bare(app: QApplication, texts: list[str]) -> float:
    view = QListView()
    view.resize(900, 800)
    watch = PaintWatch(view.viewport())
    started = time.perf_counter()
    model = QStringListModel(texts)
    view.setModel(model)
    view.show()
    view.scrollToBottom()
    pump_until(app, lambda: watch.paints > 0)
    settle(app)
    elapsed = time.perf_counter() - started
    view.close()
    view.deleteLater()
    model.deleteLater()
    settle(app)
    return elapsed


def stream_lag(app: QApplication, count: int, seconds: float, rate: int) -> list[float]:
    messages = make_messages(count)
    model = ConversationModel()
    view = ConversationView()
    view.setModel(model)
    view.resize(900, 800)
    model.set_history(messages, [], {})
    view.show()
    view.scrollToBottom()
    settle(app)
    reply = Message(role="assistant", content="", partial=True)
    model.set_streaming(reply.id)  # as the window does on replyStarted
    model.append_message(reply)
    view.scrollToBottom()
    settle(app)

    lags: list[float] = []
    clock = QElapsedTimer()
    clock.start()
    last = [clock.elapsed()]

    def tick() -> None:
        now = clock.elapsed()
        lags.append(max(0.0, now - last[0] - 10))
        last[0] = now

    ticker = QTimer()
    ticker.setInterval(10)
    ticker.timeout.connect(tick)
    sent = [0]
    total = int(seconds * rate)

    def token() -> None:
        sent[0] += 1
        piece = WORDS[sent[0] % len(WORDS)] + (" " if sent[0] % 40 else "\n\n")
        model.append_stream_text(reply.id, piece)

    producer = QTimer()
    producer.setInterval(int(1000 / rate))
    producer.timeout.connect(token)
    ticker.start()
    producer.start()
    pump_until(app, lambda: sent[0] >= total, timeout=seconds * 4)
    producer.stop()
    ticker.stop()
    settle(app)
    view.close()
    return lags


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--stream-messages", type=int, default=5_000)
    parser.add_argument("--stream-seconds", type=float, default=5.0)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication(sys.argv)

    messages = make_messages(args.messages)
    ids = [m.id for m in messages]
    groups = [CompressedGroup(summary="s", message_ids=ids[i:i + 40], span_ids=ids[i:i + 50],
                              original_tokens=9000, current_tokens=900)
              for i in range(0, args.messages // 2, 500)]
    texts = [m.content for m in messages]
    short = [f"message {i}" for i in range(args.messages)]
    ours, bare, bare_short = [], [], []
    for _ in range(args.runs):
        bare.append(open_bare(app, texts))
        bare_short.append(open_bare(app, short))
        ours.append(open_ours(app, messages, groups))
    ours_ms = statistics.median(ours) * 1000
    bare_ms = statistics.median(bare) * 1000
    print(f"P4 open+paint {args.messages} messages: ConversationView {ours_ms:.0f} ms, "
          f"bare QListView+QStringListModel {bare_ms:.0f} ms, ratio {ours_ms / bare_ms:.2f} "
          f"(goal <= 3); runs ours={[round(x * 1000) for x in ours]} "
          f"bare={[round(x * 1000) for x in bare]}")
    short_ms = statistics.median(bare_short) * 1000
    print(f"    (bare QListView with short strings 'message N': {short_ms:.0f} ms, "
          f"ratio {ours_ms / short_ms:.2f})")

    lags = stream_lag(app, args.stream_messages, args.stream_seconds, 100)
    print(f"Streaming 100 tokens/s for {args.stream_seconds:.0f} s over "
          f"{args.stream_messages} messages: event-loop lag p50 {percentile(lags, 0.5):.1f} ms,"
          f" p95 {percentile(lags, 0.95):.1f} ms, max {max(lags):.1f} ms "
          f"({len(lags)} ticks; goal p95 <= 30 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
