"""What the engine knows of tools: a tool the model may call, one call the model made, and how
both are written into a request.

The engine never runs a tool and never talks MCP: it holds the calls and results as messages
(``Message.tool_calls`` on an assistant reply, role ``tool`` for a result) and decides how much
of each is sent (``tool_results``). A request entry stays ``dict[str, str]``: an assistant
entry's calls travel as JSON text under ``tool_calls``, and a result names its tool and call
under ``tool_name`` and ``tool_call_id``; the backend turns them into each wire's own shape.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

TOOL_CALLS_KEY = "tool_calls"
TOOL_NAME_KEY = "tool_name"
TOOL_CALL_ID_KEY = "tool_call_id"


class ToolCall(BaseModel):
    """One call the model asked for: its id (the wire's, or one we gave it), the tool's name and
    its arguments. ``raw_arguments`` keeps text that was not a JSON object (the call is then
    answered with an error, never run)."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    raw_arguments: str = ""

    @property
    def valid(self) -> bool:
        return not self.raw_arguments

    def arguments_text(self) -> str:
        """The arguments as one stable line (sorted keys): shown, counted and compared."""
        if self.raw_arguments:
            return self.raw_arguments
        return json.dumps(self.arguments, sort_keys=True, ensure_ascii=False)

    def signature(self) -> tuple[str, str]:
        """What makes two calls "the same call with the same arguments" (the breaker)."""
        return self.name, self.arguments_text()


class ToolSpec(BaseModel):
    """A tool the model may call: its name, what it does, and its arguments' JSON schema."""

    model_config = ConfigDict(frozen=True)

    name: str
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=lambda: {"type": "object",
                                                                "properties": {}})
    server: str = ""  # the MCP server that offers it ("" for the app's own tools)
    read_only: bool = False  # the server says it changes nothing (readOnlyHint)

    def wire(self) -> dict[str, Any]:
        """The ``tools`` entry both wires take (Ollama and OpenAI share this shape), its
        schema without ``title`` annotations (:func:`lean_schema`)."""
        return {"type": "function", "function": {
            "name": self.name, "description": self.description,
            "parameters": lean_schema(self.parameters)}}

    def wire_text(self) -> str:
        """The entry as one stable text: what is counted, and what a cache keeps."""
        return json.dumps(self.wire(), sort_keys=True, ensure_ascii=False)


_SCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_ONES = ("items", "additionalProperties", "not", "if", "then", "else")


def lean_schema(schema: Any) -> Any:
    """A JSON schema without its ``title`` annotations: they change nothing a model may send,
    and the SDKs' generated ones only restate names ("title": "Path" on ``path``,
    "read_fileArguments" on the whole), a fifth of a small tool's schema. Only a schema's own
    ``title`` goes: a property named "title" stays."""
    if not isinstance(schema, dict):
        return schema
    lean: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "title" and isinstance(value, str):
            continue
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            value = {name: lean_schema(inner) for name, inner in value.items()}
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            value = [lean_schema(inner) for inner in value]
        elif key in _SCHEMA_ONES:
            value = lean_schema(value)
        lean[key] = value
    return lean


def calls_json(calls: list[ToolCall]) -> str:
    """An assistant entry's calls as sent inside the engine's request (``TOOL_CALLS_KEY``)."""
    return json.dumps([{"id": c.id, "name": c.name, "arguments": c.arguments}
                       | ({"raw_arguments": c.raw_arguments} if c.raw_arguments else {})
                       for c in calls], sort_keys=True, ensure_ascii=False)


def calls_from_json(text: str) -> list[ToolCall]:
    """The inverse of :func:`calls_json`; anything malformed is left out."""
    try:
        rows = json.loads(text)
    except (TypeError, ValueError):
        return []
    calls = []
    for row in rows if isinstance(rows, list) else []:
        if isinstance(row, dict) and isinstance(row.get("name"), str):
            arguments = row.get("arguments")
            calls.append(ToolCall(id=str(row.get("id") or ""), name=row["name"],
                                  arguments=arguments if isinstance(arguments, dict) else {},
                                  raw_arguments=str(row.get("raw_arguments") or "")))
    return calls
