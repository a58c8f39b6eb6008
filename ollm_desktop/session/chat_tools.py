"""The tools of the open chat: which servers and tools it may use (new chats: none), what is
allowed always in it, and the run's MCP servers (the Preferences' list, and ``--mcp-config``
servers for this run only, never saved).

Per chat, the choice is a chat value (``tool_loop.CHAT_VALUE``): a branch or a fork starts with
no tools, as a new chat does, and "Always" allowed in one chat never reaches another.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import ValidationError

from ollm_desktop.backend.mcp_config import McpServer, Parsed
from ollm_desktop.backend.mcp_connection import McpConnection, State
from ollm_desktop.backend.mcp_secrets import Secrets, launch_of
from ollm_desktop.engine.tool_types import ToolSpec
from ollm_desktop.session.events import Change
from ollm_desktop.session.tool_loop import CHAT_VALUE, ChatTools
from ollm_desktop.session.tool_servers import ToolServers

if TYPE_CHECKING:
    from ollm_desktop.session.core import SessionCore


class ChatToolsService:
    def __init__(self, core: SessionCore, run_config: Parsed | None = None) -> None:
        self._core = core
        self.run_config = run_config  # --mcp-config: offered to new chats, never saved
        self.reports: list[tuple[str, State, str]] = []  # restarts and failures, for the window
        # Picked before the new chat exists (it is made by its first send): kept by that chat.
        self.draft: ChatTools | None = None
        self.servers = ToolServers(self.all_servers(),  # log_dir: set by the app
                                   run_secrets=run_config.secrets if run_config else None,
                                   on_change=self._changed)

    def all_servers(self) -> list[McpServer]:
        """The Preferences' servers, then this run's (a run's server of the same name wins)."""
        run = {s.name: s for s in (self.run_config.servers if self.run_config else [])}
        saved = [s for s in self._core.settings.mcp_servers if s.name not in run]
        return [*saved, *run.values()]

    def servers_changed(self) -> None:
        """The Preferences' list changed: new servers are offered, a removed or edited one's
        running connection is closed (in the background) and starts again when used."""
        self.servers.update(self.all_servers())

    async def list_tools(self, server: McpServer, secrets: Secrets | None) -> list[ToolSpec]:
        """The tools of a server as the Preferences' test button shows them: started on its
        own connection (owned by its task), listed, stopped. Raises ``ToolFailure`` with a
        sentence when it cannot start."""
        connection = McpConnection(launch_of(server, secrets), log_dir=self.servers.log_dir)
        try:
            await connection.start()
            return list(connection.tools)
        finally:
            await connection.close()

    def _changed(self, server: str, state: State, text: str) -> None:
        """A restart or a failure is said in the window, never silently (the owner task
        calls this on the app's loop)."""
        if state in ("restarting", "failed") and text:
            self.reports.append((server, state, text))
            self._core.publish(Change.problem("tools", text) if state == "failed"
                               else Change.notice(text))

    # ------------------------------------------------------------- per chat
    def choice(self, chat_id: str) -> ChatTools:
        text = self._core.store.chat_value(chat_id, CHAT_VALUE)
        if not text and self.draft is not None:
            draft, self.draft = self.draft, None
            self.set_choice(chat_id, draft)
            return draft
        if not text:
            return self.new_chat_choice()
        try:
            return ChatTools.model_validate_json(text)
        except (ValueError, ValidationError):
            return ChatTools()

    def new_chat_choice(self) -> ChatTools:
        """New chats use no tools, except those of ``--mcp-config`` servers for this run (the
        contract: a run's file offers its servers' tools to new chats)."""
        if self.run_config is None:
            return ChatTools()
        return ChatTools(servers=[s.name for s in self.run_config.servers if s.enabled])

    def set_choice(self, chat_id: str, tools: ChatTools) -> None:
        self._core.store.set_chat_value(chat_id, CHAT_VALUE, tools.model_dump_json())

    async def specs(self, tools: ChatTools) -> list[ToolSpec]:
        """The chosen servers' tools (all of a server's, when none of its tools is named)."""
        specs = await self.servers.tools(
            [name for name in tools.servers if name in self.servers.servers])
        named = set(tools.tools)
        if not named:
            return specs
        return [s for s in specs if f"{s.server}/{s.name}" in named
                or not any(n.startswith(f"{s.server}/") for n in named)]

    async def close(self) -> None:
        await self.servers.close()
