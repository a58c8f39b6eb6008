"""The MCP servers of this run: started when a chat first needs them, each owned by its
connection's task (``backend.mcp_connection``), all closed at shutdown.

Where servers come from: the user's list in the Preferences (secrets from the keyring), or
``--mcp-config FILE`` for this run only (secrets in memory, never saved). A chat offers the
tools of the servers it picked; a server's restart or failure is reported through
``on_change`` so the window can say so.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ollm_desktop.backend.mcp_config import McpServer
from ollm_desktop.backend.mcp_connection import McpConnection, OnChange, ToolFailure, ToolOutcome
from ollm_desktop.backend.mcp_secrets import Launch, Secrets, launch_of, read_secrets
from ollm_desktop.engine.tool_types import ToolSpec

SecretSource = Callable[[str], Secrets]


class ToolServers:
    """A ``ToolRunner`` over every configured server (``session.tool_loop``)."""

    def __init__(self, servers: Sequence[McpServer], *, log_dir: Path | None = None,
                 secrets: SecretSource = read_secrets, on_change: OnChange | None = None,
                 run_secrets: dict[str, Secrets] | None = None) -> None:
        self.servers = {server.name: server for server in servers}
        self.log_dir = log_dir  # where stdio servers' stderr goes (None: nowhere)
        self._secrets = secrets
        self._run_secrets = run_secrets or {}  # --mcp-config: this run only
        self._on_change = on_change
        self._connections: dict[str, McpConnection] = {}
        self._lock = asyncio.Lock()
        self._closing: set[asyncio.Task[None]] = set()  # connections of edited servers

    def launch(self, name: str) -> Launch:
        server = self.servers[name]
        secrets = self._run_secrets.get(name)
        if secrets is None and (server.secret_env or server.secret_headers):
            secrets = self._secrets(name)
        return launch_of(server, secrets)

    async def connect(self, name: str) -> McpConnection:
        """The server's connection, started on first use (its tools listed)."""
        async with self._lock:
            if name not in self.servers:
                raise ToolFailure(f"There is no tool server named {name}.")
            connection = self._connections.get(name)
            if connection is None or connection.state in ("failed", "stopped"):
                connection = McpConnection(self.launch(name), log_dir=self.log_dir,
                                           on_change=self._on_change)
                self._connections[name] = connection
        if connection.state != "ready":
            await connection.start()
        return connection

    async def tools(self, names: Sequence[str]) -> list[ToolSpec]:
        """The tools of the named servers, a read-only server's read-only ones only."""
        specs: list[ToolSpec] = []
        for name in names:
            connection = await self.connect(name)
            read_only = self.servers[name].read_only
            specs += [s for s in connection.tools if s.read_only or not read_only]
        return specs

    async def call(self, server: str, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        connection = await self.connect(server)
        return await connection.call(name, arguments)

    def update(self, servers: Sequence[McpServer]) -> None:
        """A new list of servers: a removed or changed server's connection is closed (in a
        named background task; closing waits for its child), the rest keep running."""
        wanted = {server.name: server for server in servers}
        for name in list(self._connections):
            if wanted.get(name) != self.servers.get(name):
                connection = self._connections.pop(name)
                task = asyncio.create_task(connection.close(), name=f"mcp-close-{name}")
                self._closing.add(task)
                task.add_done_callback(self._closing.discard)
        self.servers = wanted

    def known_tools(self, name: str) -> list[ToolSpec] | None:
        """The tools a running server listed (None: not started yet), a read-only server's
        read-only ones only."""
        connection = self._connections.get(name)
        if connection is None or connection.state != "ready" or name not in self.servers:
            return None
        read_only = self.servers[name].read_only
        return [s for s in connection.tools if s.read_only or not read_only]

    @property
    def read_only_servers(self) -> set[str]:
        return {name for name, server in self.servers.items() if server.read_only}

    async def close(self) -> None:
        """Stop every server: no task and no child process is left."""
        connections = list(self._connections.values())
        self._connections.clear()
        closing = [asyncio.create_task(c.close(), name=f"mcp-close-{c.name}")
                   for c in connections]
        await asyncio.gather(*closing, *self._closing, return_exceptions=True)
