"""One MCP server, owned by one long-lived task, on the official ``mcp`` SDK (v2).

anyio's cancel scopes must be exited by the task that entered them (python-sdk issues #79,
#577, #922), and qasync runs each Qt signal's slot in a task of its own: a client entered in
one slot and closed in another breaks. So each connection has ONE owner task
(``mcp-<name>``) that enters the SDK's ``Client`` (and with it the transport: the stdio child
or the HTTP session), lists the tools, runs the calls handed to it through a queue in a task
group of its own, and leaves the client when asked to stop. Other tasks only put jobs on the
queue and await futures.

- A stdio child gets only the configured environment over the SDK's safe defaults
  (``get_default_environment``: HOME, LOGNAME, PATH, SHELL, TERM, USER on POSIX); its stderr
  goes to a log file of its own, never to ours.
- A server that dies (the child exits, the HTTP session breaks) is started again once; the
  call that was running fails with a sentence, and ``on_change`` reports it. A second death
  stops the connection for good, reported too: never silently.
- Stop on a running call cancels that call's scope in the owner's task group (the server is
  told with a cancellation notification by the SDK); other calls go on.
- ``close()`` ends the owner: the SDK closes the child's stdin, waits, then terminates it.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TextIO

from ollm_desktop.backend.mcp_secrets import Launch
from ollm_desktop.engine.tool_types import ToolSpec

log = logging.getLogger(__name__)

State = Literal["starting", "ready", "restarting", "stopped", "failed"]
START_TIMEOUT = 30.0  # seconds for a server to start and list its tools
CALL_TIMEOUT = 300.0  # seconds one call may take before it is abandoned
RESTARTS = 1


class ToolFailure(Exception):
    """A call that could not be made or did not finish: the sentence is for the user."""


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    """A tool's answer: its text (images as bytes beside it) and whether the tool failed."""

    text: str
    images: tuple[tuple[bytes, str], ...] = ()  # (bytes, mime type)
    is_error: bool = False


@dataclass(eq=False)  # one job is one call: kept in a set by identity
class _Job:
    name: str
    arguments: dict[str, Any]
    future: asyncio.Future[ToolOutcome]
    scope: Any = None  # the anyio cancel scope of the running call


@dataclass
class _Stop:
    pass


OnChange = Callable[[str, State, str], None]  # server, state, what happened (for the window)


def outcome_of(result: Any) -> ToolOutcome:
    """The SDK's ``CallToolResult`` as our value: text parts joined, images kept as bytes,
    resources named, structured content as JSON where no text came with it."""
    texts: list[str] = []
    images: list[tuple[bytes, str]] = []
    for block in result.content or []:
        kind = getattr(block, "type", "")
        if kind == "text":
            texts.append(block.text)
        elif kind == "image":
            with contextlib.suppress(ValueError):
                images.append((base64.b64decode(block.data), block.mime_type))
        elif kind == "resource_link":
            texts.append(f"[resource: {block.uri}]")
        elif kind == "resource":
            inner = block.resource
            texts.append(getattr(inner, "text", None) or f"[resource: {inner.uri}]")
        elif kind == "audio":
            texts.append("[audio: not shown to the model]")
    if not texts and result.structured_content is not None:
        texts.append(json.dumps(result.structured_content, ensure_ascii=False))
    return ToolOutcome("\n".join(texts), tuple(images), bool(result.is_error))


def spec_of(tool: Any, server: str) -> ToolSpec:
    annotations = getattr(tool, "annotations", None)
    return ToolSpec(name=tool.name, description=tool.description or "",
                    parameters=tool.input_schema or {"type": "object", "properties": {}},
                    server=server,
                    read_only=bool(annotations and annotations.read_only_hint))


class McpConnection:
    def __init__(self, launch: Launch, *, log_dir: Path | None = None,
                 on_change: OnChange | None = None, call_timeout: float = CALL_TIMEOUT,
                 start_timeout: float = START_TIMEOUT) -> None:
        self.launch = launch
        self.name = launch.name
        self.state: State = "stopped"
        self.problem = ""
        self.tools: list[ToolSpec] = []
        self.restarts = 0
        self._log_dir = log_dir
        self._on_change = on_change
        self._call_timeout = call_timeout
        self._start_timeout = start_timeout
        self._jobs: asyncio.Queue[_Job | _Stop] = asyncio.Queue()
        self._owner: asyncio.Task[None] | None = None
        self._ready: asyncio.Future[list[ToolSpec]] | None = None
        self._running: set[_Job] = set()

    # -------------------------------------------------------------- public
    async def start(self) -> list[ToolSpec]:
        """Start the owner and wait until the server has listed its tools (raises
        ``ToolFailure`` with the reason when it cannot start)."""
        if self._owner is not None and not self._owner.done():
            if self._ready is not None:
                return await asyncio.shield(self._ready)
            return self.tools
        self._ready = asyncio.get_running_loop().create_future()
        self._owner = asyncio.create_task(self._own(), name=f"mcp-{self.name}")
        try:
            async with asyncio.timeout(self._start_timeout):
                return await asyncio.shield(self._ready)
        except TimeoutError:
            await self.close()
            raise ToolFailure(f"The tool server {self.name} did not start within "
                              f"{self._start_timeout:.0f} s.") from None

    async def call(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        """Run one call in the owner; cancelling the awaiting task cancels the call."""
        if self.state not in ("ready", "restarting"):
            raise ToolFailure(self.problem or f"The tool server {self.name} is not running.")
        job = _Job(name, dict(arguments), asyncio.get_running_loop().create_future())
        await self._jobs.put(job)
        try:
            return await asyncio.shield(job.future)
        except asyncio.CancelledError:
            if job.scope is not None:
                job.scope.cancel()  # the owner's task group ends the call
            elif not job.future.done():
                job.future.cancel()  # not started yet: the owner skips it
            raise

    async def close(self) -> None:
        """End the owner task; the SDK ends the child or the HTTP session."""
        owner = self._owner
        if owner is None:
            return
        if not owner.done():
            await self._jobs.put(_Stop())
            try:
                async with asyncio.timeout(10.0):
                    await asyncio.shield(owner)
            except TimeoutError:
                owner.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await owner
            except Exception:
                log.debug("MCP owner of %s ended with an error", self.name, exc_info=True)
        self._owner = None
        self._set("stopped", self.problem)

    # --------------------------------------------------------------- owner
    def _set(self, state: State, problem: str = "") -> None:
        changed = state != self.state or problem != self.problem
        self.state, self.problem = state, problem
        if changed and self._on_change is not None:
            try:
                self._on_change(self.name, state, problem)
            except Exception:
                log.exception("MCP listener failed")

    async def _own(self) -> None:
        stopping = False
        errlog = self._errlog()
        try:
            while not stopping:
                self._set("starting" if self.restarts == 0 else "restarting")
                try:
                    stopping = await self._session(errlog)
                except Exception as exc:  # the server died or could not start
                    reason = describe(exc, self.launch)
                    self._fail_running(f"The tool server {self.name} stopped: {reason}")
                    if self._ready is not None and not self._ready.done():
                        self._ready.set_exception(ToolFailure(
                            f"The tool server {self.name} could not start: {reason}"))
                        self._set("failed", reason)
                        return
                    if self.restarts >= RESTARTS:
                        self._set("failed", f"The tool server {self.name} stopped again "
                                            f"({reason}); it is not started a third time.")
                        return
                    self.restarts += 1
                    log.warning("MCP server %s died (%s); restarting once", self.name, reason)
                    self._set("restarting", f"The tool server {self.name} stopped ({reason}) "
                                            "and was started again.")
        finally:
            self._fail_queued()
            if errlog is not None:
                errlog.close()

    async def _session(self, errlog: TextIO | None) -> bool:
        """One life of the server; True when asked to stop, raises when it died."""
        import anyio
        from mcp import Client

        async with Client(self._transport(errlog), read_timeout_seconds=self._call_timeout,
                          cache=None) as client:
            tools = await self._list(client)
            self.tools = tools
            if self._ready is not None and not self._ready.done():
                self._ready.set_result(tools)
            self._set("ready", self.problem if self.restarts else "")
            async with anyio.create_task_group() as group:
                while True:
                    job = await self._jobs.get()
                    if isinstance(job, _Stop):
                        group.cancel_scope.cancel()
                        return True
                    if job.future.done():
                        continue  # cancelled before it started
                    group.start_soon(self._run, client, job)
        return True  # pragma: no cover - the loop returns or raises

    async def _run(self, client: Any, job: _Job) -> None:
        import anyio
        from mcp.shared.exceptions import MCPError

        self._running.add(job)
        try:
            with anyio.CancelScope() as scope:
                job.scope = scope
                result = await client.call_tool(job.name, job.arguments)
                if not job.future.done():
                    job.future.set_result(outcome_of(result))
            if scope.cancelled_caught and not job.future.done():
                job.future.cancel()
        except MCPError as exc:  # a JSON-RPC error, or the connection closed under the call
            died = "closed" in str(exc).lower()
            if not job.future.done():
                job.future.set_exception(ToolFailure(
                    f"The tool server {self.name} stopped during the call to {job.name}."
                    if died else f"{self.name} could not run {job.name}: {exc}"))
            if died:
                raise  # the session ends and is started again (once)
        except Exception as exc:  # anything else fails this call only
            if not job.future.done():
                job.future.set_exception(ToolFailure(
                    f"{self.name} could not run {job.name}: {describe(exc, self.launch)}"))
        finally:
            self._running.discard(job)
            if not job.future.done():  # the connection closed around the call
                job.future.set_exception(ToolFailure(
                    f"The tool server {self.name} was stopped during the call to {job.name}."))

    async def _list(self, client: Any) -> list[ToolSpec]:
        specs: list[ToolSpec] = []
        cursor: str | None = None
        for _ in range(50):  # pages
            page = await client.list_tools(cursor=cursor)
            specs += [spec_of(tool, self.name) for tool in page.tools]
            cursor = page.next_cursor
            if not cursor:
                break
        return specs

    def _transport(self, errlog: TextIO | None) -> Any:
        launch = self.launch
        if launch.transport == "stdio":
            from mcp.client.stdio import StdioServerParameters, stdio_client

            params = StdioServerParameters(command=launch.command, args=list(launch.args),
                                           env=dict(launch.env), cwd=launch.cwd)
            return stdio_client(params, errlog=errlog) if errlog is not None else \
                stdio_client(params)
        if launch.transport == "sse":
            from mcp.client.sse import sse_client

            return sse_client(launch.url, headers=dict(launch.headers) or None)
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        return streamable_http_client(launch.url, http_client=create_mcp_http_client(
            headers=dict(launch.headers) or None))

    def _errlog(self) -> TextIO | None:
        if self.launch.transport != "stdio":
            return None
        folder = self._log_dir
        path = folder / f"mcp-{safe_name(self.name)}.log" if folder else Path(os.devnull)
        try:
            return path.open("a", encoding="utf-8")
        except OSError:
            return Path(os.devnull).open("a", encoding="utf-8")

    def _fail_running(self, reason: str) -> None:
        for job in list(self._running):
            if not job.future.done():
                job.future.set_exception(ToolFailure(reason))
        self._running.clear()

    def _fail_queued(self) -> None:
        while not self._jobs.empty():
            job = self._jobs.get_nowait()
            if isinstance(job, _Job) and not job.future.done():
                job.future.set_exception(ToolFailure(
                    self.problem or f"The tool server {self.name} is not running."))


def safe_name(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)[:60] or "server"


def describe(exc: BaseException, launch: Launch) -> str:
    """One sentence for a failure, never with the environment or headers in it."""
    if isinstance(exc, BaseExceptionGroup):
        inner = exc.exceptions[0] if exc.exceptions else exc
        return describe(inner, launch)
    if isinstance(exc, FileNotFoundError):
        return f"the command {launch.command!r} was not found"
    text = str(exc).strip() or type(exc).__name__
    for secret in [*launch.env.values(), *launch.headers.values()]:
        if len(secret) >= 4:
            text = text.replace(secret, "•••")
    return text[:300]


__all__ = ["McpConnection", "ToolFailure", "ToolOutcome"]
