"""ManagedOllama with a fake `ollama` executable that runs the loopback server."""

from __future__ import annotations

import os
import shlex
import stat
import sys
from pathlib import Path

import pytest

from ollm_desktop.backend import BackendError, ManagedOllama, OllamaBackend
from tests.ollama_server import FakeOllama, free_port, ollama_server

__all__ = ["ollama_server"]

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="shell-script executable")


def _fake_ollama(folder: Path, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "ollama"
    path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def _server_script(*extra: str) -> str:
    """Shell body: `ollama serve` -> the fake server on $OLLAMA_HOST's port."""
    python, root = shlex.quote(sys.executable), shlex.quote(str(ROOT))
    args = " ".join(extra)
    return f'cd {root} && PYTHONPATH={root} exec {python} -m tests.ollama_server {args} "$@"'


@pytest.fixture
def fake_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    bin_dir = tmp_path / "bin"
    _fake_ollama(bin_dir, _server_script())
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    return bin_dir


async def _version(host: str) -> str:
    backend = OllamaBackend(host, timeout=3.0)
    try:
        return await backend.version()
    finally:
        await backend.close()


def test_find_executable_uses_path(fake_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert ManagedOllama().find_executable() == str(fake_path / "ollama")
    monkeypatch.setenv("PATH", str(fake_path.parent / "empty"))
    assert ManagedOllama().find_executable() is None


@pytest.mark.asyncio
async def test_start_then_stop(fake_path: Path) -> None:
    host = f"http://localhost:{free_port()}"
    managed = ManagedOllama(startup_timeout=20)
    with pytest.raises(BackendError):
        await _version(host)
    assert await managed.start(host) is True
    assert managed.started
    assert await _version(host)  # answering on the host the app asked for
    pid = managed.pid
    assert pid is not None
    await managed.stop()
    assert not managed.started
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # reaped, not a zombie
    with pytest.raises(BackendError) as caught:
        await _version(host)
    assert caught.value.kind == "unreachable"


@pytest.mark.asyncio
async def test_stop_kills_a_server_that_ignores_terminate(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "stubborn"
    _fake_ollama(bin_dir, _server_script("--ignore-term"))
    monkeypatch.setenv("PATH", str(bin_dir))
    host = f"127.0.0.1:{free_port()}"
    managed = ManagedOllama(startup_timeout=20, stop_timeout=0.5)
    assert await managed.start(host)
    await managed.stop()
    assert not managed.started
    with pytest.raises(BackendError):
        await _version(host)


@pytest.mark.asyncio
async def test_process_that_exits_reports_failure(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = tmp_path / "broken"
    _fake_ollama(bin_dir, 'echo "Error: listen tcp: address already in use" >&2\nexit 3')
    monkeypatch.setenv("PATH", str(bin_dir))
    managed = ManagedOllama(startup_timeout=20)
    assert await managed.start(f"127.0.0.1:{free_port()}") is False
    assert not managed.started
    assert managed.error is not None
    assert "code 3" in managed.error and "already in use" in managed.error


@pytest.mark.asyncio
async def test_no_executable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    managed = ManagedOllama()
    assert await managed.start(f"127.0.0.1:{free_port()}") is False
    assert managed.error is not None and "not found" in managed.error


@pytest.mark.asyncio
async def test_remote_host_is_never_started(fake_path: Path) -> None:
    managed = ManagedOllama()
    assert await managed.start("http://192.0.2.10:11434") is False
    assert not managed.started


@pytest.mark.asyncio
async def test_running_server_is_used_not_replaced(fake_path: Path,
                                                   ollama_server: FakeOllama) -> None:
    managed = ManagedOllama()
    assert await managed.start(ollama_server.url) is True
    assert not managed.started  # nothing spawned, so nothing of ours to stop
    await managed.stop()
    assert await _version(ollama_server.url) == ollama_server.version
