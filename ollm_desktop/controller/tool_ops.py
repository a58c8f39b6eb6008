"""Tools: the controller's side (the session does the work, ``session.tool_turns``).

A call awaiting approval is answered from its row in the conversation (``toolAllowOnce``,
``toolAllowAlways``, ``toolDeny``): never a dialog, so nothing modal opens while the reply
streams. The chat's tools are chosen in the ``toolPicker``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ollm_desktop.backend.connection import KeyringMissing
from ollm_desktop.backend.mcp_config import McpServer
from ollm_desktop.backend.mcp_secrets import Secrets, read_secrets, store_secrets
from ollm_desktop.controller.ops_base import OpsBase
from ollm_desktop.engine.tool_types import ToolSpec
from ollm_desktop.session.tool_loop import ChatTools, Decision


class ToolOps(OpsBase):
    def answer_tool_call(self, call_id: str, decision: Decision) -> bool:
        """Allow once, always (for this chat), or deny the call waiting in its row."""
        return self.session.turns.tools.answer(call_id, decision)

    def tool_choice(self) -> ChatTools:
        """The open chat's tools (a new chat: none)."""
        chat, service = self.session.chat, self.session.tools
        if chat is not None:
            return service.choice(chat.id)
        return service.draft or service.new_chat_choice()

    def set_tool_choice(self, tools: ChatTools) -> None:
        """The open chat's tools; before a new chat's first message, kept for it."""
        chat = self.session.chat
        if chat is not None:
            self.session.tools.set_choice(chat.id, tools)
        else:
            self.session.tools.draft = tools

    def test_tool_server(self, server: McpServer, typed: Secrets,
                         kept: dict[str, list[str]]) -> asyncio.Task[list[ToolSpec]]:
        """Start ``server`` on its own, list its tools, stop it (Preferences' test button):
        a task, so the window never waits; it ends at shutdown like every task."""
        secrets = self._merged_secrets(server.name, typed, kept)
        return self._spawn(self.session.tools.list_tools(server, secrets), "tool-server-test")

    def save_tool_server_secrets(self, name: str, typed: Secrets,
                                 kept: dict[str, list[str]]) -> str | None:
        """A server's secret values to the keyring: those typed, and the kept names' values
        already there (None when saved; else why not, e.g. no keyring on this system)."""
        try:
            store_secrets(name, self._merged_secrets(name, typed, kept))
        except KeyringMissing as exc:
            return str(exc)
        return None

    @staticmethod
    def _merged_secrets(name: str, typed: Secrets, kept: dict[str, list[str]]) -> Secrets:
        try:
            stored = read_secrets(name) if any(kept.values()) else {}
        except KeyringMissing:
            stored = {}
        return {part: {**{k: v for k, v in (stored.get(part) or {}).items()
                          if k in kept.get(part, [])}, **(typed.get(part) or {})}
                for part in ("env", "headers")}

    def known_tools(self, server: str) -> list[ToolSpec] | None:
        """The tools a started server offers (None: not started yet: ``start_tool_server``)."""
        return self.session.tools.servers.known_tools(server)

    def start_tool_server(self, server: str) -> asyncio.Task[Any]:
        """Start a server in the background so that its tools can be listed (the picker)."""
        return self._spawn(self.session.tools.servers.connect(server), f"tool-server-{server}")

    def tool_servers(self) -> list[str]:
        """Every configured server's name (Preferences' and this run's)."""
        return [server.name for server in self.session.tools.all_servers()]
