"""Subprocess launcher for P1/P1b (cold start) and P8 (memory): prints ``painted`` and ``ready``.

``bare``: a plain PySide6 QMainWindow (the baseline). ``app``: the real entry point,
``ollm_desktop.app.main(["--data-dir", D, "--host", URL])``, unchanged; the launcher creates
the QApplication first (``main`` reuses an existing one) and wraps ``MainWindow.__init__`` so
an event filter on the main window sees its first paint event (``painted``, P1); the bare
window gets the same filter. The filter is removed at that paint. It watches the window only:
an application-wide Python filter would make PySide wrap every object that gets an event, and
a window with child widgets then paid about 100-150 ms for it that the bare window did not.

``ready`` (P1b, app mode): the moment a user can type into the chat they left. The launcher
wraps ``MainWindow.open_initial_chat`` (the last step of the app's start) and then the
conversation view's ``paintEvent``; it prints ``ready <seconds>`` when the first paint of the
conversation's viewport has finished drawing at which all of these hold: the window's content
is attached, the message input is visible, enabled and writable, the chat opened is
``--expect-chat`` and the conversation model holds ``--expect-messages`` message rows. Then it
prints ``ready-info`` (focus, last row on screen). The app itself is not changed.

Without ``--rss-after`` the process exits at ``painted`` (bare) or ``ready`` (app). With
``--rss-after MS`` it keeps running its event loop for MS milliseconds after ``ready`` (app;
the shell paints before the chat is loaded, so the first paint would be too early) or the
first paint (bare), then prints ``rss <MB>`` and exits.
``--trace`` prints ``mark <step> <seconds>`` at each step of the app's start (diagnostics).

Run: ``QT_QPA_PLATFORM=offscreen python bench/launch.py app --data-dir D --host URL``.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections.abc import Callable
from typing import Any

STARTED = time.perf_counter()
READY_TIMEOUT_MS = 60_000


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def _since_start() -> str:
    return f"{time.perf_counter() - STARTED:.4f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("bare", "app"))
    parser.add_argument("--data-dir")
    parser.add_argument("--host")
    parser.add_argument("--rss-after", type=int, default=None,
                        help="ms after ready (app) or the first paint (bare)")
    parser.add_argument("--expect-chat", help="ready only once this chat id is open")
    parser.add_argument("--expect-messages", type=int, default=None,
                        help="ready only once the conversation shows this many messages")
    parser.add_argument("--trace", action="store_true", help="print a mark at each step")
    parser.add_argument("--stall", action="store_true",
                        help="after ready, keep going until the full content has opened the "
                             "chat; print when (attached) and the longest gap between 5 ms "
                             "timer ticks meanwhile (stall-ms: how long typing could wait)")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication, QMainWindow

    app = QApplication(sys.argv[:1])

    def finish() -> None:
        if args.rss_after is not None:
            gc.collect()
            print(f"rss {_rss_mb():.1f}", flush=True)
        os._exit(0)

    def settled() -> None:  # the start is over: exit now, or measure memory a bit later
        if args.rss_after is None:
            finish()
        QTimer.singleShot(args.rss_after, finish)

    class FirstPaint(QObject):
        def eventFilter(self, obj: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                obj.removeEventFilter(self)
                print(f"painted {_since_start()}", flush=True)
                if args.mode == "bare":
                    settled()
            return False

    watcher = FirstPaint()
    if args.mode == "bare":
        window = QMainWindow()
        window.installEventFilter(watcher)
        window.setWindowTitle("bare")
        window.resize(1180, 780)
        window.show()
        return app.exec()
    _watch_ready(args, watcher, settled)
    from ollm_desktop.app import main as app_main

    argv = []
    if args.data_dir:
        argv += ["--data-dir", args.data_dir]
    if args.host:
        argv += ["--host", args.host]
    return app_main(argv)


def _watch_ready(args: argparse.Namespace, first_paint: Any,
                 on_ready: Callable[[], None]) -> None:
    """Watch the app's main window for its first paint, and arm the P1b watch when the app
    calls ``MainWindow.open_initial_chat`` (the app itself is unchanged).

    ``ollm_desktop.ui.main_window`` is the shell module the app imports before its first paint
    anyway; importing it here only moves that cost a little earlier.
    """
    from PySide6.QtCore import QTimer

    from ollm_desktop.ui import main_window

    state: dict[str, Any] = {"window": None, "done": False, "opened": 0.0}

    def mark(step: str) -> None:
        if args.trace:
            print(f"mark {step} {_since_start()}", flush=True)

    def pane(window: Any) -> tuple[Any, Any, Any] | None:
        """(input, model, view) on screen: the full content's, else the shell's first picture
        of the stored chat (drawn before the engine loads; the content adopts the same ones)."""
        if getattr(window, "content", None) is not None:
            return window.message_input, window.conversation_model, window.conversation_view
        preview = getattr(window, "preview", None)
        return None if preview is None else (preview.input, preview.model, preview.view)

    def chat_ready(window: Any) -> bool:
        shown = pane(window)
        if shown is None:
            return False
        box, model, _view = shown
        if not (box.isVisible() and box.isEnabled() and not box.isReadOnly()):
            return False
        chat_id = getattr(window, "shown_chat_id", None)
        if args.expect_chat is not None and chat_id != args.expect_chat:
            return False
        if args.expect_messages is not None:
            from ollm_desktop.ui.conversation.conversation_model import MessageIdRole

            shown = sum(1 for row in range(model.rowCount())
                        if model.data(model.index(row, 0), MessageIdRole) is not None)
            if shown != args.expect_messages:
                return False
        return True

    def report(window: Any) -> None:
        print(f"ready {_since_start()}", flush=True)
        box, model, view = pane(window)  # type: ignore[misc]
        last = model.index(model.rowCount() - 1, 0) if model.rowCount() else None
        on_screen = last is not None and view.visualRect(last).intersects(
            view.viewport().rect())
        focus = type(window.focusWidget()).__name__ if window.focusWidget() else "none"
        stage = "content" if getattr(window, "content", None) is not None else "first-picture"
        print(f"ready-info focus={int(box.hasFocus())} focus_widget={focus} "
              f"active={int(window.isActiveWindow())} last_row_on_screen={int(on_screen)} "
              f"rows={model.rowCount()} stage={stage}", flush=True)
        if args.stall:
            watch_stalls()
        else:
            on_ready()

    def watch_stalls() -> None:
        ticks = {"last": time.perf_counter(), "worst": 0.0}
        timer = QTimer()
        timer.setInterval(5)

        def tick() -> None:
            now = time.perf_counter()
            ticks["worst"] = max(ticks["worst"], now - ticks["last"])
            ticks["last"] = now
            if state["opened"]:
                timer.stop()
                print(f"attached {state['opened']:.4f}", flush=True)
                print(f"stall-ms {ticks['worst'] * 1000:.0f}", flush=True)
                on_ready()

        timer.timeout.connect(tick)
        timer.start()
        state["timer"] = timer

    def timeout() -> None:
        print("ready-timeout", flush=True)
        os._exit(3)

    original_init = main_window.MainWindow.__init__
    original_attach = main_window.MainWindow.attach
    original_restore = main_window.MainWindow.restore_window_state
    original_open = main_window.MainWindow.open_initial_chat

    def init(self: Any, *a: Any, **k: Any) -> None:
        original_init(self, *a, **k)
        self.installEventFilter(first_paint)  # before the app shows the window

    def attach(self: Any, controller: Any, paths: Any) -> None:
        mark("attach-start")
        original_attach(self, controller, paths)
        mark("attach-end")

    def restore_window_state(self: Any) -> None:
        original_restore(self)
        mark("restore-end")

    def arm(window: Any, view_class: type) -> None:
        """Watch the conversation viewport's paints (once: the first picture or the content)."""
        if state["window"] is not None:
            return
        state["window"] = window
        original_paint = view_class.paintEvent

        def paint_event(view: Any, event: Any) -> None:
            shown = pane(state["window"])
            watching = not state["done"] and shown is not None and view is shown[2]
            if watching:
                mark("viewport-paint-start")
            original_paint(view, event)
            if watching and chat_ready(state["window"]):  # the chat's rows are drawn now
                state["done"] = True
                report(state["window"])

        view_class.paintEvent = paint_event
        QTimer.singleShot(READY_TIMEOUT_MS, timeout)

    original_preview = main_window.MainWindow.show_preview

    def show_preview(self: Any, chat: Any, *a: Any) -> None:
        mark("preview-start")
        from ollm_desktop.ui.conversation.conversation_view import ConversationView

        arm(self, ConversationView)
        original_preview(self, chat, *a)
        mark("preview-end")

    def open_initial_chat(self: Any) -> None:
        mark("open-start")
        original_open(self)
        mark("open-end")
        state["opened"] = time.perf_counter() - STARTED
        arm(self, type(self.conversation_view))

    main_window.MainWindow.__init__ = init  # type: ignore[method-assign]
    main_window.MainWindow.attach = attach  # type: ignore[method-assign]
    main_window.MainWindow.restore_window_state = restore_window_state  # type: ignore[method-assign]
    main_window.MainWindow.open_initial_chat = open_initial_chat  # type: ignore[method-assign]
    main_window.MainWindow.show_preview = show_preview  # type: ignore[method-assign]
    if args.trace:
        import ollm_desktop.app as app_module

        original_run = app_module._run

        async def run(*a: Any, **k: Any) -> int:
            mark("run-start")
            return await original_run(*a, **k)

        app_module._run = run  # type: ignore[assignment]


if __name__ == "__main__":
    raise SystemExit(main())
