"""Start-up failures made visible: started from the application menu, stderr goes nowhere.

A failure before the window is usable (the data folder, the database, Qt's own libraries) is
appended to the log (the log folder; a file in the temporary folder when that cannot be
written), printed on stderr as one line, and shown in a dialog when there is a display. The
dialog may be modal: nothing runs yet that it could stall. When Qt itself cannot start, a
desktop tool (zenity, kdialog, notify-send, xmessage) shows the message instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from ollm_desktop import qt_libraries
from ollm_desktop.paths import AppPaths

LOG_NAME = "ollm-desktop.log"
FALLBACK_NAME = "ollm-desktop-startup-failure.log"
QT_LIBRARIES_HINT = ("Qt could not start. On Debian/Ubuntu install the libraries it needs "
                     "(see README.md, \"System libraries\").")
_HEADLESS_PLATFORMS = ("offscreen", "minimal", "vnc")
WRAP = 72  # characters per line in a dialog: a readable width, not one long line
_EXTERNAL = (
    ("zenity", lambda text: ["zenity", "--error", "--title", "ollm-desktop", "--text", text]),
    ("kdialog", lambda text: ["kdialog", "--title", "ollm-desktop", "--error", text]),
    ("notify-send", lambda text: ["notify-send", "-u", "critical", "ollm-desktop", text]),
    ("xmessage", lambda text: ["xmessage", "-center", f"ollm-desktop: {text}"]),
)


class StartupFailure(Exception):
    """The app cannot start; ``str(exc)`` is what the user is told. ``qt_usable``: False when
    Qt itself cannot show a window (a desktop tool shows the message instead)."""

    def __init__(self, message: str, code: int = 2, *, qt_usable: bool = True) -> None:
        super().__init__(message)
        self.code = code
        self.qt_usable = qt_usable


def readable(text: str, width: int = WRAP) -> str:
    """``text`` wrapped at ``width`` for a dialog; indented lines (commands) and long words
    (paths) are kept whole, so they can be copied."""
    lines: list[str] = []
    for line in text.split("\n"):
        if not line.strip() or line[:1].isspace():
            lines.append(line)
        else:
            lines.extend(textwrap.wrap(line, width, break_long_words=False,
                                       break_on_hyphens=False))
    return "\n".join(lines)


def missing_qt_library(error: BaseException) -> StartupFailure:
    """Importing Qt failed: name the library and the package that brings it."""
    library = qt_libraries.library_in(str(error))
    if library is None:
        return StartupFailure(f"{QT_LIBRARIES_HINT} ({error})", code=1, qt_usable=False)
    return StartupFailure(
        f"Qt could not start: the system library {library} is missing ({error}).\n"
        f"Install it with:\n    sudo apt install {qt_libraries.package_for(library)}\n"
        "(Debian/Ubuntu; see README.md, \"System libraries\".)", code=1, qt_usable=False)

def write_log(paths: AppPaths | None, message: str, details: str = "") -> Path | None:
    """Append the failure to the log; returns the file written (None if none could be)."""
    folders = [paths.log_dir] if paths is not None else []
    folders.append(Path(tempfile.gettempdir()))
    stamp = datetime.now().strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]
    entry = f"{stamp} ERROR ollm_desktop: start-up failed: {message}\n"
    if details:
        entry += details.rstrip("\n") + "\n"
    for folder in folders:
        target = folder / (LOG_NAME if paths is not None and folder == paths.log_dir
                           else FALLBACK_NAME)
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            with target.open("a", encoding="utf-8") as handle:
                handle.write(entry)
        except OSError:
            continue
        return target
    return None


def has_display() -> bool:
    """Whether a dialog could be seen (offscreen tests and packaging checks have none)."""
    platform = os.environ.get("QT_QPA_PLATFORM", "").split(":")[0].strip().lower()
    if platform in _HEADLESS_PLATFORMS:
        return False
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def show_dialog(message: str, details: str = "", *, qt_usable: bool = True) -> bool:
    """A modal error box (Qt when it loads, else a desktop tool); False if none was shown."""
    if not has_display():
        return False
    message = readable(message)
    if not qt_usable:
        return external_dialog(message)
    try:
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QApplication, QMessageBox
    except (ImportError, OSError):
        return external_dialog(message)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    box = QMessageBox(QMessageBox.Icon.Critical, "ollm-desktop", message)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setObjectName("startupFailure")
    if details:
        box.setDetailedText(details)
    box.exec()
    del app
    return True


def external_dialog(message: str) -> bool:
    """Qt itself cannot show anything: the first desktop tool found shows the message."""
    for tool, command in _EXTERNAL:
        if shutil.which(tool):
            try:
                subprocess.Popen(command(message), stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 start_new_session=True)
            except OSError:
                continue
            return True
    return False


def report(paths: AppPaths | None, message: str, details: str = "", *, code: int = 2,
           dialog: bool = True, qt_usable: bool = True) -> int:
    """Log, one line on stderr, a dialog if possible; returns ``code`` (the exit status)."""
    where = write_log(paths, message, details)
    line = " ".join(message.split())
    print(f"ollm-desktop: {line}" + (f" (logged in {where})" if where else ""),
          file=sys.stderr, flush=True)
    if dialog:
        text = message + (f"\n\nDetails were written to {where}." if where else "")
        show_dialog(text, details, qt_usable=qt_usable)
    return code


def watch_qt_start(paths: AppPaths | None, dialog: bool) -> Callable[[], None]:
    """Until the returned function is called, a fatal Qt message (no usable platform plugin,
    which ends the process at once) is logged and shown by a desktop tool first."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    def handler(kind: QtMsgType, context: Any, text: str) -> None:
        category = getattr(context, "category", None)
        prefix = f"{category}: " if category and category != "default" else ""
        print(f"{prefix}{text}", file=sys.stderr, flush=True)
        if kind == QtMsgType.QtFatalMsg:
            missing = qt_libraries.missing_libraries() if qt_libraries.uses_xcb() else []
            message = (qt_libraries.missing_message(missing) if missing else
                       f"{QT_LIBRARIES_HINT} Qt said: {' '.join(text.split())}")
            where = write_log(paths, message)
            if dialog and has_display():
                external_dialog(readable(message + (f"\n\nDetails: {where}" if where else "")))

    previous = qInstallMessageHandler(handler)

    def restore() -> None:
        qInstallMessageHandler(previous)

    return restore
