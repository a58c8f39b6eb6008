"""Tools inside a real turn (``session.turns``): the chat's tools are offered with each request,
and a reply that asks for calls is answered (``tool_loop``) and followed by another request,
streamed like any reply, until the model answers, the cap or the breaker ends the turn, or the
user presses Stop.

Before a turn: the chat's chosen servers are started (first use) and their tools set on the
engine, which counts them and refuses a set over its share (said, and the turn goes on without
tools). A model that says it cannot use tools (Ollama's capabilities, llama.cpp's template)
gets none, and the window says so once per model.

Approval: ``ask`` waits for the user's answer in the call's row (``answer``); no dialog.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from ollm_desktop.backend import BackendError
from ollm_desktop.engine.models import Message
from ollm_desktop.engine.tool_schemas import ToolsOverBudget
from ollm_desktop.engine.tool_types import ToolCall, ToolSpec
from ollm_desktop.session import context_tools
from ollm_desktop.session.events import Change
from ollm_desktop.session.tool_images import keep_tool_image
from ollm_desktop.session.tool_loop import CallEvent, ChatTools, Decision, LoopEnd, ToolLoop

if TYPE_CHECKING:
    from ollm_desktop.session.turns import Turns

NO_TOOLS = "{model} cannot use tools (the server says so): this chat goes on without them."


class ToolTurns:
    """The tool side of one session's turns."""

    def __init__(self, turns: Turns) -> None:
        self._turns = turns
        self._core: Any = turns._core
        self.pending: dict[str, asyncio.Future[Decision]] = {}
        self.specs: list[ToolSpec] = []
        self.choice = ChatTools()
        self._capable: dict[str, bool | None] = {}
        self.last_end: LoopEnd | None = None

    # ------------------------------------------------------------- approval
    async def ask(self, call: ToolCall, spec: ToolSpec) -> Decision:
        future: asyncio.Future[Decision] = asyncio.get_running_loop().create_future()
        self.pending[call.id] = future
        try:
            return await future
        finally:
            self.pending.pop(call.id, None)

    def answer(self, call_id: str, decision: Decision) -> bool:
        """The user's choice for a call awaiting approval (False: none awaits it)."""
        future = self.pending.get(call_id)
        if future is None or future.done():
            return False
        future.set_result(decision)
        return True

    # ------------------------------------------------------------- a turn
    async def prepare(self) -> None:
        """Set the chat's tools on the engine for this turn (none when it has none)."""
        core = self._core
        engine, chat, service = core.engine, core.chat, getattr(core, "tools", None)
        self.specs = []
        if engine is None or chat is None or service is None:
            return
        self.choice = service.choice(chat.id)
        wanted = self.choice.servers or self.choice.context_tools
        if wanted and await self._model_can_use_tools():
            try:
                self.specs = await service.specs(self.choice)
            except Exception as exc:  # a server that cannot start: said, the turn goes on
                core.publish(Change.problem("tools", str(exc)))
            if self.choice.context_tools:  # the model's own (off by default, per chat)
                self.specs += list(context_tools.SPECS)
        try:
            engine.set_tools(self.specs)
        except ToolsOverBudget as exc:
            self.specs = []
            engine.set_tools([])
            core.publish(Change.problem("tools", str(exc)))

    async def _model_can_use_tools(self) -> bool:
        core = self._core
        model = core.model or ""
        if model not in self._capable:
            try:
                self._capable[model] = (await core.backend.show(model)).tools
            except BackendError:
                self._capable[model] = None  # unknown: try; a refusal says so
            if self._capable[model] is False:
                core.publish(Change.notice(NO_TOOLS.format(model=model)))
        return self._capable[model] is not False

    async def follow(self, user: Message) -> None:
        """Answer the newest reply's calls, then ask again, until the model answers."""
        core, turns = self._core, self._turns
        engine, chat = core.engine, core.chat
        reply = engine.display_messages()[-1] if engine.display_messages() else None
        loop = ToolLoop(engine, core.backend, core.model or "", specs=self.specs,
                        runner=context_tools.WithContextTools(core, core.tools.servers),
                        ask=self.ask, chat_tools=self.choice,
                        read_only_servers=core.tools.servers.read_only_servers,
                        publish=self._published,
                        save=lambda tools: core.tools.set_choice(chat.id, tools),
                        keep_image=lambda data, mime, tool: keep_tool_image(
                            core, data, mime, tool))
        while reply is not None and reply.role == "assistant" and reply.tool_calls:
            end = await loop._answer_calls(list(reply.tool_calls))
            self.choice = loop.chat_tools
            if end is not None:
                self.last_end = end
                core.publish(Change.notice(end.note))
                return
            await turns.make_room(engine)
            await turns.stream_reply(user, may_retry=False)
            newest = engine.display_messages()[-1]
            if newest is reply:  # nothing new arrived (a failure, said by stream_reply)
                return
            reply = newest

    def _published(self, event: object) -> None:
        core = self._core
        if isinstance(event, Message):
            core.store.append_message(core.chat.id, event)
            core.publish(Change(added=(event.model_copy(),), context=True))
        elif isinstance(event, CallEvent):
            core.publish(event)
