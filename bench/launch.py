"""Subprocess launcher for P1 (cold start) and P8 (memory): prints ``painted`` at first paint.

``bare``: a plain PySide6 QMainWindow (the baseline). ``app``: the real entry point,
``ollm_desktop.app.main(["--data-dir", D, "--host", URL])``, unchanged; the launcher only
creates the QApplication first (``main`` reuses an existing one) so an application-wide event
filter can see the main window's first paint event. The filter is removed at that paint.

With ``--rss-after MS`` the process keeps running its event loop for MS milliseconds after the
first paint (the chat's rows get measured and painted), then prints ``rss <MB>`` and exits.

Run: ``QT_QPA_PLATFORM=offscreen python bench/launch.py app --data-dir D --host URL``.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time

STARTED = time.perf_counter()


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("bare", "app"))
    parser.add_argument("--data-dir")
    parser.add_argument("--host")
    parser.add_argument("--rss-after", type=int, default=None, help="ms after the first paint")
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

    class FirstPaint(QObject):
        def eventFilter(self, obj: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and isinstance(obj, QMainWindow):
                app.removeEventFilter(self)
                print(f"painted {time.perf_counter() - STARTED:.4f}", flush=True)
                if args.rss_after is None:
                    finish()
                QTimer.singleShot(args.rss_after, finish)
            return False

    watcher = FirstPaint()
    app.installEventFilter(watcher)
    if args.mode == "bare":
        window = QMainWindow()
        window.setWindowTitle("bare")
        window.resize(1180, 780)
        window.show()
        return app.exec()
    from ollm_desktop.app import main as app_main

    argv = []
    if args.data_dir:
        argv += ["--data-dir", args.data_dir]
    if args.host:
        argv += ["--host", args.host]
    return app_main(argv)


if __name__ == "__main__":
    raise SystemExit(main())
