"""Starting ``ollama serve`` for the user when it is installed but not running.

Only an instance this object started is ever stopped: a server the user runs themselves (or a
system service) must survive the app closing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import subprocess
import tempfile
import urllib.parse
from pathlib import Path
from typing import IO

from ollm_desktop.backend.client import OllamaBackend

log = logging.getLogger(__name__)

LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


class ManagedOllama:
    """An ``ollama serve`` child process bound to the app's configured host."""

    def __init__(self, executable: str | None = None, *, startup_timeout: float = 30.0,
                 stop_timeout: float = 5.0, log_path: Path | None = None) -> None:
        self._executable = executable
        self.startup_timeout = startup_timeout
        self.stop_timeout = stop_timeout
        self.log_path = log_path  # server output; a temporary file when None
        self._process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        self.error: str | None = None

    @property
    def started(self) -> bool:
        """True while an instance this object spawned is running."""
        return self._process is not None and self._process.poll() is None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def find_executable(self) -> str | None:
        return self._executable or shutil.which("ollama")

    @staticmethod
    def _listen_address(host: str) -> tuple[str, str] | None:
        """(OLLAMA_HOST value for the server, base URL to probe); None if not loopback."""
        url = OllamaBackend.resolve_host(host)
        split = urllib.parse.urlsplit(url)
        if split.hostname not in LOOPBACK:
            return None
        hostname = f"[{split.hostname}]" if ":" in (split.hostname or "") else split.hostname
        return f"{hostname}:{split.port}", url

    @staticmethod
    async def _answers(url: str) -> bool:
        import httpx

        try:
            async with httpx.AsyncClient(timeout=2.0, trust_env=False) as client:
                response = await client.get(f"{url}/api/version")
                return response.status_code == 200
        except httpx.HTTPError:
            return False

    def _output_tail(self) -> str:
        if self._log is None:
            return ""
        with contextlib.suppress(OSError):
            self._log.flush()
            self._log.seek(0)
            return self._log.read().decode(errors="replace").strip()[-300:]
        return ""

    async def start(self, host: str | None) -> bool:
        """Spawn ``ollama serve`` for ``host``; True once its API answers (bounded wait).

        True without spawning if something already answers there; False for a remote host,
        a missing executable, a process that exits early, or no answer in time (``error``
        then says why).
        """
        self.error = None
        address = self._listen_address(host or "")
        if address is None:
            self.error = "Only an Ollama on this computer can be started from here."
            return False
        listen, url = address
        if self.started or await self._answers(url):
            return True
        executable = self.find_executable()
        if executable is None:
            self.error = "The `ollama` program was not found on PATH."
            return False
        env = {**os.environ, "OLLAMA_HOST": listen}
        # Popen, not asyncio subprocesses: those need child-watcher support the Qt loop
        # may lack; the process is only polled here anyway.
        if self.log_path:
            self._log = open(self.log_path, "w+b")  # noqa: SIM115 - lives with the process
        else:
            self._log = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            self._process = subprocess.Popen(
                [executable, "serve"], env=env, stdin=subprocess.DEVNULL,
                stdout=self._log, stderr=subprocess.STDOUT,
            )
        except OSError as exc:
            self.error = f"Could not run {executable}: {exc}"
            self._close_log()
            return False
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.startup_timeout
        while loop.time() < deadline:
            code = self._process.poll()
            if code is not None:
                self.error = f"ollama serve exited with code {code}. {self._output_tail()}"
                self._process = None
                self._close_log()
                return False
            if await self._answers(url):
                log.info("started ollama serve (pid %s) on %s", self._process.pid, listen)
                return True
            await asyncio.sleep(0.2)
        self.error = f"ollama serve did not answer within {self.startup_timeout:g} seconds."
        await self.stop()
        return False

    def _close_log(self) -> None:
        if self._log is not None:
            with contextlib.suppress(OSError):
                self._log.close()
        self._log = None

    async def _wait(self, process: subprocess.Popen[bytes], timeout: float) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while process.poll() is None:
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(0.05)
        return True

    async def stop(self) -> None:
        """Terminate the instance this object started (kill if it lingers); else nothing."""
        process = self._process
        if process is None:
            return
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
            if not await self._wait(process, self.stop_timeout):
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await self._wait(process, self.stop_timeout)
        self._process = None
        self._close_log()
