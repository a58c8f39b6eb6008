"""A small Server-Sent Events reader for OpenAI-compatible streams.

Small on purpose: besides the standard ``data:`` fields (joined until a blank line), older
llama.cpp builds wrote a bare ``error: {...}`` line into the stream, which a strict SSE parser
ignores as an unknown field; here it is an event of its own, so the overflow it reports is not
lost. ``event:`` names the next event (some servers send ``event: error``); comments (``:``)
and ``id``/``retry`` fields are skipped.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SseEvent:
    event: str  # "message" unless the server named it; "error" for a bare error line
    data: str


async def sse_events(lines: AsyncIterable[str]) -> AsyncIterator[SseEvent]:
    """Events from a stream's text lines (as ``httpx.Response.aiter_lines`` gives them)."""
    data: list[str] = []
    event = "message"
    async for raw in lines:
        line = raw.rstrip("\r\n")
        if not line:
            if data:
                yield SseEvent(event, "\n".join(data))
            data, event = [], "message"
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            data.append(value)
        elif name == "event":
            event = value or "message"
        elif name == "error":
            if data:  # an error line ends what came before it
                yield SseEvent(event, "\n".join(data))
                data, event = [], "message"
            yield SseEvent("error", value)
    if data:  # a stream that ended without the final blank line
        yield SseEvent(event, "\n".join(data))
