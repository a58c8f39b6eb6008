"""Tools: the controller's side (the session does the work, ``session.tool_turns``).

A call awaiting approval is answered from its row in the conversation (``toolAllowOnce``,
``toolAllowAlways``, ``toolDeny``): never a dialog, so nothing modal opens while the reply
streams. The chat's tools are chosen in the ``toolPicker``.
"""

from __future__ import annotations

from ollm_desktop.controller.ops_base import OpsBase
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

    def tool_servers(self) -> list[str]:
        """Every configured server's name (Preferences' and this run's)."""
        return [server.name for server in self.session.tools.all_servers()]
