"""MCP connections against the loopback test server (``tests.mcp_server``), over stdio and
Streamable HTTP: tools listed, every kind of answer, Stop on a hanging call, a server that dies
mid-call (restarted once, then given up, reported both times), the child's environment, and a
clean shutdown with no child process and no task left."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from ollm_desktop.backend.mcp_config import McpServer
from ollm_desktop.backend.mcp_connection import McpConnection, ToolFailure
from ollm_desktop.backend.mcp_secrets import launch_of
from ollm_desktop.engine.tokens import count_tokens
from tests.ollama_server import free_port

ROOT = Path(__file__).resolve().parents[1]


def stdio_server(name: str = "test-tools", **env: str) -> McpServer:
    return McpServer(name=name, command=sys.executable, args=["-m", "tests.mcp_server", "stdio"],
                     cwd=str(ROOT), env={"PYTHONPATH": str(ROOT), **env})


def children() -> set[int]:
    """The live child processes of this test process (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == os.getpid() and fields[0] != "Z":
                found.add(int(entry.name))
    return found


async def until(predicate, timeout: float = 20.0) -> None:
    """Wait for a condition the owner task brings about (no fixed sleep)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached")
        await asyncio.sleep(0.02)


@pytest_asyncio.fixture
async def connection(tmp_path: Path) -> AsyncIterator[tuple[McpConnection, list[tuple]]]:
    changes: list[tuple] = []
    conn = McpConnection(launch_of(stdio_server()), log_dir=tmp_path,
                         on_change=lambda *change: changes.append(change))
    try:
        yield conn, changes
    finally:
        await conn.close()


@pytest.mark.asyncio
async def test_stdio_tools_and_every_kind_of_answer(connection) -> None:
    conn, _ = connection
    tools = {spec.name: spec for spec in await conn.start()}
    assert {"echo", "big", "picture", "fail", "hang", "die", "env", "read_note"} <= set(tools)
    assert tools["read_note"].read_only and not tools["echo"].read_only
    assert tools["echo"].parameters["properties"]["text"]["type"] == "string"
    assert (await conn.call("echo", {"text": "hi"})).text == "echo: hi"
    big = await conn.call("big", {})
    assert count_tokens(big.text) >= 50_000 and not big.is_error
    picture = await conn.call("picture", {})
    assert picture.text == "a red dot" and picture.images[0][1] == "image/png"
    assert picture.images[0][0].startswith(b"\x89PNG")
    failed = await conn.call("fail", {"reason": "disk full"})
    assert failed.is_error and "disk full" in failed.text


@pytest.mark.asyncio
async def test_a_stdio_child_gets_only_its_configured_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLM_PARENT_SECRET", "do-not-leak")
    conn = McpConnection(launch_of(stdio_server(OLLM_GIVEN="yes")), log_dir=tmp_path)
    try:
        await conn.start()
        names = set((await conn.call("env", {})).text.split())
    finally:
        await conn.close()
    assert "OLLM_GIVEN" in names and "PYTHONPATH" in names
    assert "OLLM_PARENT_SECRET" not in names
    assert names - {"OLLM_GIVEN", "PYTHONPATH"} <= {
        "HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LC_CTYPE"}


@pytest.mark.asyncio
async def test_stop_cancels_a_hanging_call_and_the_server_goes_on(connection) -> None:
    conn, _ = connection
    await conn.start()
    hanging = asyncio.create_task(conn.call("hang", {}), name="test-hang")
    await until(lambda: bool(conn._running))
    hanging.cancel()
    with pytest.raises(asyncio.CancelledError):
        await hanging
    await until(lambda: not conn._running)
    assert (await conn.call("echo", {"text": "still here"})).text == "echo: still here"


@pytest.mark.asyncio
async def test_a_server_that_dies_is_restarted_once_and_reported(connection) -> None:
    conn, changes = connection
    await conn.start()
    with pytest.raises(ToolFailure, match="stopped"):
        await conn.call("die", {})
    await until(lambda: conn.state == "ready" and conn.restarts == 1)
    assert any(state == "restarting" and "started again" in text
               for _, state, text in changes)
    assert (await conn.call("echo", {"text": "back"})).text == "echo: back"
    with pytest.raises(ToolFailure):
        await conn.call("die", {})
    await until(lambda: conn.state == "failed")
    assert "not started a third time" in conn.problem
    with pytest.raises(ToolFailure, match="not started a third time"):
        await conn.call("echo", {"text": "x"})


@pytest.mark.asyncio
async def test_a_server_that_cannot_start_says_why(tmp_path: Path) -> None:
    missing = McpServer(name="nowhere", command="/nonexistent/mcp-server-binary")
    conn = McpConnection(launch_of(missing), log_dir=tmp_path)
    with pytest.raises(ToolFailure, match="could not start"):
        await conn.start()
    await conn.close()
    assert conn.state in ("failed", "stopped")


@pytest.mark.asyncio
async def test_clean_shutdown_leaves_no_child_and_no_task(tmp_path: Path) -> None:
    before = children()
    first = McpConnection(launch_of(stdio_server("one")), log_dir=tmp_path)
    second = McpConnection(launch_of(stdio_server("two")), log_dir=tmp_path)
    await asyncio.gather(first.start(), second.start())
    assert len(children() - before) >= 2
    hanging = asyncio.create_task(second.call("hang", {}), name="test-hang")
    await until(lambda: bool(second._running))
    await asyncio.gather(first.close(), second.close())
    with pytest.raises((ToolFailure, asyncio.CancelledError)):
        await hanging
    await until(lambda: not (children() - before))
    names = [t.get_name() for t in asyncio.all_tasks() if not t.done()]
    assert not [n for n in names if n.startswith("mcp-")]


# ----------------------------------------------------------------- HTTP
@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    log = (tmp_path / "http.log").open("w")
    process = subprocess.Popen([sys.executable, "-m", "tests.mcp_server", "http", str(port)],
                               cwd=ROOT, stdout=log, stderr=log,
                               env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            if time.monotonic() > deadline or process.poll() is not None:
                raise AssertionError("the loopback MCP server did not start")
            time.sleep(0.05)  # waiting for a port to open: no event to wait on
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(10)
        log.close()


@pytest.mark.asyncio
async def test_streamable_http_server(http_server: str) -> None:
    server = McpServer(name="remote", transport="http", url=http_server,
                       headers={"X-Test": "${OLLM_NOT_SET:-plain}"})
    conn = McpConnection(launch_of(server))
    try:
        tools = {spec.name for spec in await conn.start()}
        assert {"echo", "big", "picture", "fail"} <= tools
        assert (await conn.call("echo", {"text": "over http"})).text == "echo: over http"
        assert count_tokens((await conn.call("big", {})).text) >= 50_000
        assert (await conn.call("fail", {})).is_error
        assert (await conn.call("picture", {})).images
    finally:
        await conn.close()
    assert conn.state == "stopped"
