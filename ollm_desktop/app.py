"""Command line entry point: ``ollm-desktop [--data-dir DIR] [--host URL] [--api-key-env NAME]
[--model NAME] [--version] [--self-test]`` (a contract used by packaging checks)."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ollm_desktop import (
    APP_ID,
    APP_NAME,
    __version__,
    qt_libraries,
    single_instance,
    startup_failure,
)
from ollm_desktop.paths import AppPaths, app_paths
from ollm_desktop.startup_failure import StartupFailure

if TYPE_CHECKING:
    import asyncio

log = logging.getLogger("ollm_desktop")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ollm-desktop", description="Local chat for Ollama.")
    parser.add_argument("--data-dir", help="folder for chats, snapshots, settings and logs")
    parser.add_argument("--host", help="server URL for this run: Ollama, or an OpenAI-compatible "
                        "base URL (llama.cpp's server, LM Studio, vLLM), with or without /v1 "
                        "(default: settings, $OLLAMA_HOST, 127.0.0.1)")
    parser.add_argument("--api-key-env", metavar="NAME",
                        help="read the server's API key from the environment variable NAME "
                             "for this run (never saved)")
    parser.add_argument("--mcp-config", metavar="FILE",
                        help="an mcpServers file (Claude Desktop, Cursor, LM Studio, oterm): "
                             "offer its servers' tools to new chats for this run (never saved)")
    parser.add_argument("--model", help="model to select at start")
    parser.add_argument("--version", action="version", version=f"ollm-desktop {__version__}")
    parser.add_argument("--self-test", action="store_true",
                        help="start offscreen-capable, check tokenizer, window and snapshot "
                             "browser, exit 0")
    return parser


def _setup_logging(paths: AppPaths) -> None:
    import logging.handlers

    handler: logging.Handler
    try:
        handler = logging.handlers.RotatingFileHandler(
            paths.log_dir / "ollm-desktop.log", maxBytes=1_000_000, backupCount=3,
            encoding="utf-8")
    except OSError:
        handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.host is not None:  # checked as Preferences checks it; never saved (see _run)
        from ollm_desktop.host_check import EXAMPLE, host_problem

        if problem := host_problem(args.host):
            parser.error(f"--host {args.host!r}: {problem}; use a URL like {EXAMPLE}")
    args.mcp_servers = None
    if args.mcp_config is not None:  # read now: a bad file is said before any window opens
        from pathlib import Path

        from ollm_desktop.backend.mcp_config import load

        try:
            args.mcp_servers = load(Path(args.mcp_config).expanduser())
        except ValueError as exc:
            parser.error(f"--mcp-config: {exc}")
        if not args.mcp_servers.servers:
            parser.error(f"--mcp-config {args.mcp_config}: no server could be read ("
                         + "; ".join(args.mcp_servers.problems or ["none listed"]) + ")")
    if args.api_key_env is not None and not os.environ.get(args.api_key_env, "").strip():
        parser.error(f"--api-key-env {args.api_key_env}: the environment variable "
                     f"{args.api_key_env} is not set (export it with the server's API key)")
    scratch: str | None = None
    if args.self_test:
        if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
        if not args.data_dir and not os.environ.get("OLLM_DATA_DIR"):
            # Never touch the user's real chats from a packaging check.
            import tempfile

            args.data_dir = scratch = tempfile.mkdtemp(prefix="ollm-self-test-")
    paths = app_paths(args.data_dir)
    try:
        return _main(args, paths)
    except StartupFailure as failure:
        return startup_failure.report(paths, str(failure), traceback.format_exc(),
                                      code=failure.code, dialog=not args.self_test,
                                      qt_usable=failure.qt_usable)
    except Exception as exc:
        traceback.print_exc()  # stderr keeps the traceback of the unexpected
        return startup_failure.report(paths, f"stopped by an unexpected error: {exc!r}",
                                      traceback.format_exc(), code=1,
                                      dialog=not args.self_test)
    finally:
        if scratch is not None:
            import shutil

            logging.shutdown()
            shutil.rmtree(scratch, ignore_errors=True)


def _main(args: argparse.Namespace, paths: AppPaths) -> int:
    try:
        paths.ensure()
    except OSError as exc:
        raise StartupFailure(f"cannot create the data folder {paths.data_dir}: {exc}") from exc
    try:
        from PySide6.QtGui import QGuiApplication
        from PySide6.QtWidgets import QApplication
    except ImportError as exc:
        raise startup_failure.missing_qt_library(exc) from exc
    if (missing := qt_libraries.check()) is not None:  # before Qt aborts, blaming xcb-cursor0
        raise StartupFailure(missing, code=1, qt_usable=False)

    # One copy per data folder; the self-test never takes it (nor is stopped by it).
    instance = None if args.self_test else single_instance.Instance.claim(paths.data_dir)
    if instance is None and not args.self_test:
        return single_instance.hand_over(paths, dialog=True)
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        app = existing
    else:
        done_watching = startup_failure.watch_qt_start(paths, dialog=not args.self_test)
        app = QApplication(sys.argv[:1])
        done_watching()
    app.setApplicationName(APP_NAME)
    app.setApplicationDisplayName("ollm-desktop")
    app.setApplicationVersion(__version__)
    QGuiApplication.setDesktopFileName(APP_ID)
    icon = _app_icon()
    if not icon.isNull():
        app.setWindowIcon(icon)
    app.setQuitOnLastWindowClosed(False)
    window = _show_window(app, paths)
    if instance is not None:
        instance.serve(window)
    # Only now what the painted window does not need: logging, asyncio and qasync (imported
    # after PySide6 so that it picks this binding), then the engine, store and Ollama client.
    _setup_logging(paths)
    import asyncio

    import qasync

    try:
        return asyncio.run(_run(app, window, args, paths), loop_factory=qasync.QEventLoop)
    except KeyboardInterrupt:
        return 130
    finally:
        if instance is not None:
            instance.release()


def _show_window(app, paths: AppPaths, paint_timeout: float = 0.5):
    """Show the main window's light shell and let it paint before anything heavy loads.

    No event loop runs yet, so processing events here is safe (inside a coroutine it would
    run qasync's callbacks re-entrantly).
    """
    from PySide6.QtCore import QElapsedTimer, QEvent, QEventLoop, QObject

    from ollm_desktop.startup_prefs import read_startup_prefs
    from ollm_desktop.ui.main_window import MainWindow
    from ollm_desktop.ui.theme import apply_theme

    prefs = read_startup_prefs(paths.settings_file)
    apply_theme(app, prefs.theme)  # type: ignore[arg-type]
    window = MainWindow()
    window.restore_geometry(prefs.window_geometry)
    painted: list[bool] = []

    class FirstPaint(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                painted.append(True)
            return False

    def paint(widget: QObject, show: Callable[[], None]) -> None:
        painted.clear()
        watcher = FirstPaint()
        widget.installEventFilter(watcher)
        show()
        clock = QElapsedTimer()
        clock.start()
        while not painted and clock.elapsed() < paint_timeout * 1000:
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
        widget.removeEventFilter(watcher)

    paint(window, window.show)
    # Then the chat the user left, from a plain read-only query: it is on screen and the
    # input takes typing while the engine, store and client load (they adopt it).
    from ollm_desktop.quick_history import read_last_chat

    chat = read_last_chat(paths.database, prefs.last_chat_id)
    if chat is not None:
        window.show_preview(chat, prefs.send_key)
        if window.preview is not None:
            paint(window.preview.view.viewport(), lambda: None)
    return window


def _app_icon():
    """The window icon from the shipped PNG sizes (loading the SVG engine would delay the
    first paint); the SVG only if no PNG is there."""
    from PySide6.QtGui import QIcon

    from ollm_desktop.resources_path import resources_dir

    icons = resources_dir() / "icons"
    icon = QIcon()
    for size in (16, 32, 48, 64, 128, 256, 512):
        png = icons / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        if png.is_file():
            icon.addFile(str(png))
    if icon.isNull() and (icons / "ollm-desktop.svg").is_file():
        icon = QIcon(str(icons / "ollm-desktop.svg"))
    return icon


async def _run(app, window, args: argparse.Namespace, paths: AppPaths) -> int:
    import asyncio

    from ollm_desktop.task_names import name_tasks
    from ollm_desktop.ui.theme import apply_theme, current_theme

    loop = asyncio.get_running_loop()
    name_tasks(loop)  # and the async-generator hooks qasync does not install

    from ollm_desktop.engine.tokens import VocabularyError, count_tokens

    # The vocabulary loads in a worker while the rest is imported, the store opens and the last
    # chat is shown (a count needed meanwhile waits for it); a bad file is reported below.
    vocabulary = loop.run_in_executor(None, count_tokens, "ollm-desktop")

    # The engine, store, client and window content import in a worker while the loop runs:
    # the stored chat is already on screen, and typing into it is not held up meanwhile.
    await loop.run_in_executor(None, _import_layers)
    from ollm_desktop.controller import ChatController
    from ollm_desktop.session import load_settings, save_settings
    from ollm_desktop.storage import ChatStore, StorageError

    settings, notices = load_settings(paths.settings_file)
    try:
        store, store_notices = ChatStore.open(paths)
    except StorageError as exc:
        window.close()  # main() logs it and shows it once the loop has stopped
        raise StartupFailure(str(exc)) from exc
    if settings.theme != current_theme():  # the shell used the unvalidated startup prefs
        apply_theme(app, settings.theme)
    # --host and --model apply to this run only: the session never writes them to settings.
    controller = ChatController(store, settings, model=args.model, host=args.host,
                                api_key_env=args.api_key_env, mcp_config=args.mcp_servers)
    controller.session.tools.servers.log_dir = paths.log_dir  # each stdio server's stderr
    window.attach(controller, paths)
    closed = asyncio.Event()
    window.closed.connect(closed.set)
    if window.isVisible():
        window.restore_window_state()
    else:  # closed while loading
        closed.set()
    window.show_notices([*notices, *store_notices])
    try:
        window.open_initial_chat()
        await vocabulary
    except VocabularyError as exc:
        await controller.shutdown()
        window.close()
        raise StartupFailure(str(exc)) from exc
    controller.refresh_ollama()
    code = 0
    if args.self_test:
        code = await _self_test(app, window)
    else:
        await closed.wait()
    window.save_window_state()
    try:
        save_settings(paths.settings_file, controller.settings)
    except OSError as exc:
        log.warning("settings not saved: %s", exc)
    await controller.shutdown()
    window.deleteLater()
    stuck = await _end_other_tasks()
    if stuck:
        # The last resort: asyncio.run would wait for these forever; everything is saved and
        # closed already. It skips every later cleanup, so the test suite fails if it is
        # ever reached (tests/conftest.py) and the log says what each task was waiting on.
        names = ", ".join(f"{t.get_name()} ({_waiting_at(t)})" for t in stuck)
        log.error("exiting with %d task(s) that would not stop: %s", len(stuck), names)
        print(f"ollm-desktop: exiting with {len(stuck)} task(s) that would not stop: {names}",
              file=sys.stderr)
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


SETTLE_GRACE = 0.5  # seconds the tasks the controller did not own get to end by themselves
LAST_GRACE = 2.0  # and then after a cancel


async def _end_other_tasks() -> list[asyncio.Task[Any]]:
    """End whatever still runs after the controller's shutdown and wait a bounded time;
    returns the tasks that did not end.

    Such tasks are not the app's own work: asyncio closes an abandoned stream in a task of
    its own (``close: Response.aiter_bytes``, often made by the garbage collector during the
    shutdown itself), and a library may start one. They get a moment to end by themselves
    (a stream's closing should finish), then they are cancelled.
    """
    import asyncio

    current = asyncio.current_task()
    others = [t for t in asyncio.all_tasks() if t is not current and not t.done()]
    if not others:
        return []
    _done, running = await asyncio.wait(others, timeout=SETTLE_GRACE)
    for task in running:
        log.warning("task %s still ran after the shutdown (%s): cancelled", task.get_name(),
                    _waiting_at(task))
        task.cancel()
    if not running:
        return []
    _done, stuck = await asyncio.wait(running, timeout=LAST_GRACE)
    return sorted(stuck, key=lambda t: t.get_name())


def _waiting_at(task: asyncio.Task[Any]) -> str:
    """Where a task waits: its innermost frame, ``file:line function``."""
    frames = task.get_stack()
    if not frames:
        return "not started"
    code = frames[-1].f_code
    return f"{code.co_filename.rsplit('/', 1)[-1]}:{frames[-1].f_lineno} {code.co_name}"


def _import_layers() -> None:
    import importlib

    for name in ("ollm_desktop.controller", "ollm_desktop.storage",
                 "ollm_desktop.ui.window_content", "qtawesome"):  # icons, after first paint
        importlib.import_module(name)


async def _self_test(app, window) -> int:
    """Open the window and the snapshot browser, then close both; report on stdout."""
    import asyncio

    from ollm_desktop.engine.tokens import count_tokens

    checks: list[tuple[str, bool]] = [("tokenizer offline", count_tokens("self test") == 2)]
    await asyncio.sleep(0.05)  # let the first paint and Ollama probe start (not a sync point)
    checks.append(("main window shown", window.isVisible()))
    dialog = window.open_snapshot_browser()
    # Never app.processEvents() inside a coroutine: it runs qasync's callbacks re-entrantly,
    # and a task step dropped that way never runs again. Yield to the loop instead.
    await asyncio.sleep(0.05)
    checks.append(("snapshot browser shown", dialog is not None and dialog.isVisible()))
    if dialog is not None:
        dialog.close()
    window.close()
    await asyncio.sleep(0)
    ok = all(passed for _, passed in checks)
    print(f"  info: Ollama at {window.controller.host}")  # --host, settings, $OLLAMA_HOST
    for name, passed in checks:
        print(f"  {'ok' if passed else 'FAILED'}: {name}")
    print(f"ollm-desktop self-test: {'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
