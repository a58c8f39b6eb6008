"""One running copy per data folder.

Two copies on one folder each keep their own engine state in memory and overwrite each
other's turns. The first copy holds an exclusive advisory lock on ``<data>/ollm-desktop.lock``
for its whole life; the kernel drops it when the process ends however it ends, so a crash
never leaves a stale lock behind. It also listens on a local socket whose name it writes into
the lock file: a second launch finds the lock taken, asks the first copy to bring its window
forward, says so on stderr and exits 0 (or explains, with a dialog, if the first copy does not
answer, and exits 1).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

from ollm_desktop.paths import AppPaths

log = logging.getLogger(__name__)

LOCK_NAME = "ollm-desktop.lock"
RAISE_REQUEST = b"raise\n"
RAISED = b"raised\n"
_HELD = {errno.EACCES, errno.EAGAIN, errno.EWOULDBLOCK}


def _try_lock(fd: int) -> bool | None:
    """True: locked; False: another process holds it; None: this file system cannot lock."""
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            return False
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        return False if exc.errno in _HELD else None
    return True


def server_name(data_dir: Path) -> str:
    """A local-socket name per user and data folder (short: socket paths are limited)."""
    user = str(os.getuid()) if hasattr(os, "getuid") else os.environ.get("USERNAME", "")
    digest = hashlib.sha256(f"{user}:{data_dir.resolve()}".encode()).hexdigest()[:16]
    return f"ollm-desktop-{digest}"


class Instance:
    """This process's claim on a data folder; keep it referenced until exit."""

    def __init__(self, data_dir: Path, fd: int | None) -> None:
        self.data_dir = data_dir
        self._fd = fd
        self._server: Any = None
        self._released = False

    @classmethod
    def claim(cls, data_dir: Path) -> Instance | None:
        """The claim, or None when another running copy holds this folder.

        A folder where no lock file can be made (read-only) or locked (some network file
        systems) is not refused here: the store reports what is wrong with it.
        """
        try:
            fd = os.open(data_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            log.warning("no single-instance lock in %s: %s", data_dir, exc)
            return cls(data_dir, None)
        locked = _try_lock(fd)
        if locked is False:
            os.close(fd)
            return None
        if locked is None:
            log.warning("the file system of %s cannot lock files; a second copy could run "
                        "on it", data_dir)
        return cls(data_dir, fd)

    def serve(self, window: Any, delay_ms: int = 500) -> None:
        """Listen for a second launch (after ``delay_ms``: the first usable chat comes first;
        a second launch retries meanwhile); bring ``window`` forward when one asks.

        QtNetwork is imported here, on the main thread before the event loop runs: imported
        by the timer, it met the worker that imports the controller and window content
        (``app._import_layers``) on a slow start, and two threads initialising PySide
        modules at once crashed the app (SIGSEGV, 2 of 40 scripted starts under load).
        """
        from PySide6 import QtNetwork  # noqa: F401  (see above)
        from PySide6.QtCore import QTimer

        QTimer.singleShot(delay_ms, lambda: self._listen(window))

    def _listen(self, window: Any) -> None:
        if self._released:
            return
        from PySide6.QtNetwork import QLocalServer

        name = server_name(self.data_dir)
        server = QLocalServer()
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        QLocalServer.removeServer(name)  # a crashed copy's socket file: we hold the lock
        if not server.listen(name):
            log.warning("second launches cannot reach this window: %s", server.errorString())
            return

        def accept() -> None:
            while (socket := server.nextPendingConnection()) is not None:
                socket.readyRead.connect(lambda s=socket: answer(s))
                socket.disconnected.connect(socket.deleteLater)

        def answer(socket: Any) -> None:
            if bytes(socket.readAll().data()).startswith(RAISE_REQUEST.strip()):
                bring_forward(window)
                socket.write(RAISED)
                socket.flush()
                socket.disconnectFromServer()

        server.newConnection.connect(accept)
        self._server = server
        self._publish({"pid": os.getpid(), "server": server.fullServerName()})

    def _publish(self, owner: dict[str, Any]) -> None:
        if self._fd is None:
            return
        data = json.dumps(owner).encode()
        with contextlib.suppress(OSError):
            os.ftruncate(self._fd, 0)
            os.lseek(self._fd, 0, os.SEEK_SET)
            os.write(self._fd, data)

    def release(self) -> None:
        self._released = True
        if self._server is not None:
            self._server.close()
            self._server = None
        if self._fd is not None:
            os.close(self._fd)  # closing drops the lock
            self._fd = None


def bring_forward(window: Any) -> None:
    if window.isMinimized():
        window.showNormal()
    window.show()
    window.raise_()
    window.activateWindow()
    log.info("window brought forward for a second launch")


def owner(data_dir: Path) -> dict[str, Any]:
    """What the running copy wrote into the lock file ({} until it listens)."""
    try:
        value = json.loads((data_dir / LOCK_NAME).read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def ask_to_raise(data_dir: Path, timeout: float = 5.0) -> bool:
    """Ask the running copy to bring its window forward; whether it answered in time.

    It may still be starting (it takes the lock before it listens), so connecting is retried.
    Blocking socket calls: no event loop runs in this process.
    """
    from PySide6.QtNetwork import QLocalSocket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        name = owner(data_dir).get("server") or server_name(data_dir)
        socket = QLocalSocket()
        socket.connectToServer(str(name))
        if socket.waitForConnected(250):
            socket.write(RAISE_REQUEST)
            socket.waitForBytesWritten(1000)
            reply = b""
            while RAISED not in reply and time.monotonic() < deadline:
                if not socket.waitForReadyRead(250) and socket.state() != \
                        QLocalSocket.LocalSocketState.ConnectedState:
                    break
                reply += bytes(socket.readAll().data())
            socket.abort()
            return RAISED in reply
        socket.abort()
        time.sleep(0.1)  # the first copy is still starting: try again
    return False


def hand_over(paths: AppPaths, *, dialog: bool) -> int:
    """This is a second launch: bring the first copy forward (0) or explain (1)."""
    from ollm_desktop import startup_failure

    data_dir = paths.data_dir
    if ask_to_raise(data_dir):
        print(f"ollm-desktop is already running with the data folder {data_dir}; its window "
              f"was brought to the front.", file=sys.stderr)
        return 0
    pid = owner(data_dir).get("pid")
    running = f" (process {pid})" if isinstance(pid, int) else ""
    message = (f"ollm-desktop is already running with the data folder {data_dir}{running} but "
               f"does not answer. Close it first, or start with --data-dir to use another "
               f"folder.")
    return startup_failure.report(paths, message, code=1, dialog=dialog)
