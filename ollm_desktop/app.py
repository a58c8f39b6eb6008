"""Command line entry point (placeholder until the window lands; the CLI is a contract)."""

from __future__ import annotations

import argparse
import os
import sys

from ollm_desktop import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ollm-desktop", description="Local chat for Ollama.")
    parser.add_argument("--data-dir", help="folder for chats, snapshots and settings")
    parser.add_argument("--host", help="Ollama URL (default: settings, $OLLAMA_HOST, 127.0.0.1)")
    parser.add_argument("--model", help="model to select at start")
    parser.add_argument("--version", action="version", version=f"ollm-desktop {__version__}")
    parser.add_argument("--self-test", action="store_true", help="start, check, exit 0")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.self_test:
        if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        from ollm_desktop.engine.tokens import count_tokens

        assert count_tokens("self test") > 0
        from PySide6.QtWidgets import QApplication, QMainWindow

        app = QApplication.instance() or QApplication(sys.argv[:1])
        window = QMainWindow()
        window.setObjectName("mainWindow")
        window.show()
        app.processEvents()
        window.close()
        print("ollm-desktop self-test: ok")
        return 0
    print("window not implemented yet", file=sys.stderr)
    return 1
