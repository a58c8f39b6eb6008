"""Tool calls on the two wires (shared/notes/platform-facts.md, "MCP (tools)").

The engine's request entries carry calls as JSON text (``engine.tool_types``); here they become:

- **Ollama** ``/api/chat``: ``tools`` = ``[{"type": "function", "function": {name, description,
  parameters}}]``; an assistant message's ``tool_calls`` = ``[{"function": {"name",
  "arguments": {object}}}]`` (no ids: Ollama matches results by order and ``tool_name``); a
  result is ``{"role": "tool", "tool_name": ..., "content": ...}``. A streamed reply's calls
  arrive whole in one ``done: false`` chunk.
- **OpenAI-compatible** ``/v1/chat/completions``: the same ``tools``; an assistant message's
  ``tool_calls`` = ``[{"id", "type": "function", "function": {"name", "arguments": "<JSON
  text>"}}]``; a result is ``{"role": "tool", "tool_call_id": ..., "content": ...}``. Streamed,
  ``delta.tool_calls`` come by ``index``: the id, type and name once, the arguments as JSON
  fragments to be joined; the choice ends with ``finish_reason: "tool_calls"``.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from ollm_desktop.engine.tool_types import (
    TOOL_CALL_ID_KEY,
    TOOL_CALLS_KEY,
    TOOL_NAME_KEY,
    ToolCall,
    calls_from_json,
)


def entry_calls(message: Mapping[str, Any]) -> list[ToolCall]:
    """The calls on one of our request entries (JSON text, or already a list of calls)."""
    raw = message.get(TOOL_CALLS_KEY)
    if isinstance(raw, str):
        return calls_from_json(raw)
    if isinstance(raw, list):
        return [c if isinstance(c, ToolCall) else ToolCall.model_validate(c) for c in raw]
    return []


def parse_arguments(name: str, call_id: str, arguments: Any) -> ToolCall:
    """A call from the wire: arguments as an object, or JSON text of one (anything else is
    kept as text so the model can be told its call was malformed)."""
    if isinstance(arguments, dict):
        return ToolCall(id=call_id, name=name, arguments=arguments)
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    if not text.strip():
        return ToolCall(id=call_id, name=name)
    try:
        value = json.loads(text)
    except ValueError:
        return ToolCall(id=call_id, name=name, raw_arguments=text)
    if isinstance(value, dict):
        return ToolCall(id=call_id, name=name, arguments=value)
    return ToolCall(id=call_id, name=name, raw_arguments=text)


# ------------------------------------------------------------------------ Ollama
def ollama_message(message: Mapping[str, Any]) -> dict[str, Any]:
    """One of our entries in Ollama's shape (images are handled by the caller)."""
    sent = {k: v for k, v in message.items() if k not in (TOOL_CALLS_KEY, TOOL_CALL_ID_KEY)}
    calls = entry_calls(message)
    if calls:
        sent[TOOL_CALLS_KEY] = [{"function": {"name": c.name, "arguments": c.arguments}}
                                for c in calls]
    return sent


def ollama_calls(raw: Iterable[Any], first: int = 0) -> list[ToolCall]:
    """``message.tool_calls`` of a reply (dicts or the client's models), with ids we give
    them: Ollama's calls carry none, and a result must name its call; unique across the chat
    (every reply's first call would otherwise be ``call_0``)."""
    batch = uuid.uuid4().hex[:8]
    calls = []
    for number, item in enumerate(raw, start=first):
        function = item.get("function") if isinstance(item, Mapping) else getattr(
            item, "function", None)
        if function is None:
            continue
        name = function.get("name") if isinstance(function, Mapping) else function.name
        arguments = function.get("arguments") if isinstance(function, Mapping) else \
            function.arguments
        call_id = item.get("id") if isinstance(item, Mapping) else getattr(item, "id", None)
        calls.append(parse_arguments(str(name or ""), str(call_id or f"call_{batch}_{number}"),
                                     dict(arguments) if isinstance(arguments, Mapping)
                                     else arguments))
    return calls


# ------------------------------------------------------------- OpenAI-compatible
def openai_tool_fields(message: Mapping[str, Any]) -> dict[str, Any]:
    """The tool fields of one entry in OpenAI's shape (added to its role and content)."""
    if message.get("role") == "tool":
        return {TOOL_CALL_ID_KEY: str(message.get(TOOL_CALL_ID_KEY) or "")}
    calls = entry_calls(message)
    if not calls:
        return {}
    return {TOOL_CALLS_KEY: [{"id": c.id, "type": "function", "function": {
        "name": c.name, "arguments": c.arguments_text()}} for c in calls]}


class StreamedCalls:
    """``delta.tool_calls`` of one streamed choice, joined by index."""

    def __init__(self) -> None:
        self._calls: dict[int, dict[str, Any]] = {}

    def add(self, deltas: Any) -> None:
        for position, delta in enumerate(deltas if isinstance(deltas, list) else []):
            if not isinstance(delta, dict):
                continue
            index = delta.get("index")
            slot = self._calls.setdefault(index if isinstance(index, int) else position,
                                          {"id": "", "name": "", "arguments": []})
            if delta.get("id"):
                slot["id"] = str(delta["id"])
            function = delta.get("function") or {}
            if isinstance(function, dict):
                if function.get("name"):
                    slot["name"] = str(function["name"])
                fragment = function.get("arguments")
                if isinstance(fragment, str):
                    slot["arguments"].append(fragment)
                elif isinstance(fragment, dict):  # a server that sends the object whole
                    slot["arguments"].append(json.dumps(fragment))

    def __bool__(self) -> bool:
        return bool(self._calls)

    def calls(self) -> list[ToolCall]:
        return [parse_arguments(slot["name"], slot["id"] or f"call_{index}",
                                "".join(slot["arguments"]))
                for index, slot in sorted(self._calls.items())]


def refuses_tools(status: int, text: str) -> bool:
    """A server's answer to a request with ``tools`` that says it cannot take them (vLLM
    without ``--enable-auto-tool-choice``, a template without tools, LM Studio's wording)."""
    return status in (400, 422, 500, 501) and "tool" in text.lower()


__all__ = ["TOOL_NAME_KEY", "StreamedCalls", "entry_calls", "ollama_calls", "ollama_message",
           "openai_tool_fields", "parse_arguments", "refuses_tools"]
