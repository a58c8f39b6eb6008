"""One turn with tools: the model answers or asks for calls; each call is approved (or not) by
the user, run, and its result added; then the model is asked again, until it answers.

The user stays in control:
- each call waits for the user's choice ("Allow once", "Always for this tool in this chat",
  "Deny"), unless the tool is already allowed always in this chat; a denied call never runs
  (its result says the user denied it, so the model can go on without it);
- a server switched to read-only runs only the tools it marks read-only;
- at most ``max_calls`` calls per turn (8 by default, configurable per chat);
- the identical-call breaker: the same tool with the same arguments a third time in one turn
  is not run, and the turn ends saying why (models that call one tool over and over: LM
  Studio #1362);
- Stop cancels the task running this loop: a running call is cancelled with it.

Every call of a reply gets a result message, run or not, so the request stays valid on both
wires (a call without its result is refused by OpenAI's API). The engine decides how much of
each result is sent (``engine.tool_results``); the loop compacts before a request when the
engine asks for it, so no request goes over the window.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from ollm_desktop.backend import ChatChunk, ChatDone
from ollm_desktop.backend.mcp_connection import ToolFailure, ToolOutcome
from ollm_desktop.backend.protocol import ChatServer
from ollm_desktop.engine import ContextEngine
from ollm_desktop.engine.models import ImageRef, Message
from ollm_desktop.engine.tool_types import ToolCall, ToolSpec

Decision = Literal["once", "always", "deny"]
EndReason = Literal["answered", "cap", "breaker"]
MAX_CALLS = 8
IDENTICAL_LIMIT = 3


class ChatTools(BaseModel):
    """A chat's tools (a chat value, ``CHAT_VALUE``): the servers and tools it may use (new
    chats: none), the tools allowed always in this chat, the turn's call cap."""

    servers: list[str] = Field(default_factory=list)
    tools: list[str] = Field(default_factory=list)  # "server/tool"
    always: list[str] = Field(default_factory=list)  # "server/tool", for this chat only
    max_calls: int = Field(MAX_CALLS, ge=1, le=64)
    context_tools: bool = False  # the model's own get_context_stats / compact_context


CHAT_VALUE = "tools"


def key_of(spec: ToolSpec) -> str:
    return f"{spec.server}/{spec.name}"


class ToolRunner(Protocol):
    async def call(self, server: str, name: str, arguments: dict[str, Any]) -> ToolOutcome: ...


Ask = Callable[[ToolCall, ToolSpec], Awaitable[Decision]]
# Stores one picture of a result (bytes, mime type, tool) and returns it counted for the model
# (``session.tool_images``); None: not kept, the text says an image came.
KeepImage = Callable[[bytes, str, str], ImageRef | None]


@dataclass(frozen=True, slots=True)
class CallEvent:
    """A call's row changed: asked, running, done, failed, denied or not run."""

    call: ToolCall
    server: str
    status: Literal["asked", "running", "done", "failed", "denied", "not run"]
    seconds: float | None = None
    result_id: str | None = None


@dataclass(frozen=True, slots=True)
class LoopEnd:
    reason: EndReason
    note: str = ""
    calls: int = 0  # calls run this turn
    replies: list[Message] = field(default_factory=list)


class ToolLoop:
    def __init__(self, engine: ContextEngine, server: ChatServer, model: str, *,
                 specs: Sequence[ToolSpec], runner: ToolRunner, ask: Ask,
                 chat_tools: ChatTools, read_only_servers: set[str] | None = None,
                 publish: Callable[[object], None] | None = None,
                 on_text: Callable[[str], None] | None = None,
                 save: Callable[[ChatTools], None] | None = None,
                 keep_image: KeepImage | None = None,
                 options: dict[str, Any] | None = None) -> None:
        self.engine, self.server, self.model = engine, server, model
        self.specs = {spec.name: spec for spec in specs}
        self.runner, self.ask, self.chat_tools = runner, ask, chat_tools
        self.read_only = read_only_servers or set()
        self.publish = publish or (lambda event: None)
        self.on_text = on_text or (lambda text: None)
        self.save = save or (lambda tools: None)
        self.keep_image = keep_image
        self.options = options or {}
        self.calls = 0
        self.seen: Counter[tuple[str, str]] = Counter()
        self.replies: list[Message] = []

    # ---------------------------------------------------------------- loop
    async def run(self) -> LoopEnd:
        while True:
            if self.engine.needs_compaction():
                await self.engine.compact()
            done = await self._ask_model()
            reply = self.engine.add_message(Message(
                role="assistant", content=done.content, tool_calls=list(done.tool_calls),
                model=self.model, stats=done.reply_stats()))
            self.replies.append(reply)
            self.publish(reply)
            if not done.tool_calls:
                return LoopEnd("answered", calls=self.calls, replies=self.replies)
            end = await self._answer_calls(list(done.tool_calls))
            if end is not None:
                return end

    async def _ask_model(self) -> ChatDone:
        messages = self.engine.api_messages()
        done: ChatDone | None = None
        async for event in self.server.chat_stream(
                self.model, messages, num_ctx=self.engine.config.context_size,
                options=self.options, tools=self.engine.api_tools() or None):
            if isinstance(event, ChatChunk) and event.text:
                self.on_text(event.text)
            elif isinstance(event, ChatDone):
                done = event
        assert done is not None  # chat_stream ends with exactly one ChatDone or raises
        return done

    async def _answer_calls(self, calls: list[ToolCall]) -> LoopEnd | None:
        end: LoopEnd | None = None
        for call in calls:
            if end is not None:  # the turn is over: the rest are answered, not run
                self._result(call, "", f"Not run: {end.note}", error=True, status="not run")
                continue
            self.seen[call.signature()] += 1
            if self.seen[call.signature()] >= IDENTICAL_LIMIT:
                note = (f"the model asked for {call.name} with the same arguments "
                        f"{IDENTICAL_LIMIT} times in this turn, so the turn was ended to stop "
                        "a loop.")
                end = LoopEnd("breaker", note[0].upper() + note[1:], self.calls, self.replies)
                self._result(call, "", f"Not run: {note}", error=True, status="not run")
                continue
            if self.calls >= self.chat_tools.max_calls:
                note = (f"this turn reached its limit of {self.chat_tools.max_calls} tool "
                        "calls.")
                end = LoopEnd("cap", note[0].upper() + note[1:], self.calls, self.replies)
                self._result(call, "", f"Not run: {note}", error=True, status="not run")
                continue
            await self._one(call)
        return end

    async def _one(self, call: ToolCall) -> None:
        spec = self.specs.get(call.name)
        if spec is None:
            self._result(call, "", f"There is no tool named {call.name} in this chat.",
                         error=True, status="failed")
            return
        if not call.valid:
            self._result(call, spec.server, "The arguments were not a JSON object: "
                         f"{call.raw_arguments[:200]}", error=True, status="failed")
            return
        if spec.server in self.read_only and not spec.read_only:
            self._result(call, spec.server, f"Not run: {spec.server} is set to read-only tools, "
                         f"and {call.name} may change something.", error=True, status="denied")
            return
        decision: Decision = "once"  # allowed always in this chat: not asked again
        if key_of(spec) not in self.chat_tools.always:
            self.publish(CallEvent(call, spec.server, "asked"))
            try:
                decision = await self.ask(call, spec)
            except BaseException:  # Stop while it waited: answered, so the request stays valid
                self._result(call, spec.server, "Not run: the user stopped the turn.",
                             error=True, status="not run")
                raise
        if decision == "always":
            self.chat_tools = self.chat_tools.model_copy(
                update={"always": [*self.chat_tools.always, key_of(spec)]})
            self.save(self.chat_tools)
        if decision == "deny":
            self._result(call, spec.server, "The user denied this call; it was not run.",
                         error=True, status="denied")
            return
        self.publish(CallEvent(call, spec.server, "running"))
        started = time.monotonic()
        self.calls += 1
        try:
            outcome = await self.runner.call(spec.server, call.name, call.arguments)
        except ToolFailure as exc:
            self._result(call, spec.server, str(exc), error=True, status="failed",
                         seconds=time.monotonic() - started)
            return
        except BaseException:  # Stop: the call is cancelled, its result says so
            self._result(call, spec.server, "The user stopped this call.", error=True,
                         status="failed", seconds=time.monotonic() - started)
            raise
        text, images = outcome.text, []
        for data, mime in outcome.images:  # sent as images, counted like the user's: never cut
            kept = self.keep_image(data, mime, call.name) if self.keep_image else None
            if kept is not None:
                images.append(kept)
            else:
                text += f"\n[image: {mime}, {len(data):,} bytes, not kept]"
        self._result(call, spec.server, text, error=outcome.is_error,
                     status="failed" if outcome.is_error else "done",
                     seconds=time.monotonic() - started, images=images)

    def _result(self, call: ToolCall, server: str, text: str, *, error: bool,
                status: Literal["done", "failed", "denied", "not run"],
                seconds: float | None = None,
                images: list[ImageRef] | None = None) -> Message:
        message = self.engine.add_message(Message(
            role="tool", content=text, tool_name=call.name, tool_call_id=call.id,
            tool_error=error, images=images or []))
        self.replies.append(message)
        self.publish(message)
        self.publish(CallEvent(call, server, status, seconds, message.id))
        return message
