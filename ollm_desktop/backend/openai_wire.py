"""Our requests in OpenAI's chat shape: messages with ``image_url`` parts for pictures, and a
rough count for servers that cannot count (it sizes ``max_tokens`` and errs high)."""

from __future__ import annotations

import base64
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from ollm_desktop.backend.protocol import Messages
from ollm_desktop.backend.tool_wire import openai_tool_fields
from ollm_desktop.engine.tokens import count_tokens

# Without a server count, our own rough one (cl100k, erring high) sizes max_tokens.
ROUGH_FACTOR, ROUGH_PER_MESSAGE, ROUGH_PER_REQUEST = 1.3, 8, 16
_IMAGE_TYPES = ((b"\x89PNG", "image/png"), (b"\xff\xd8", "image/jpeg"), (b"GIF8", "image/gif"),
                (b"RIFF", "image/webp"))


def data_url(image: bytes | str) -> str:
    """An image as the ``image_url`` data URL vision models take."""
    raw = image if isinstance(image, bytes) else base64.b64decode(image)
    mime = next((m for magic, m in _IMAGE_TYPES if raw.startswith(magic)), "image/png")
    return f"data:{mime};base64,{base64.b64encode(raw).decode()}"


def to_openai(messages: Messages) -> list[dict[str, Any]]:
    """Our messages (Ollama's shape: ``images`` beside the text) as OpenAI chat messages, with
    their tool calls and results in OpenAI's shape (``tool_wire``)."""
    sent = []
    for message in messages:
        role, text = str(message.get("role") or "user"), str(message.get("content") or "")
        images = message.get("images") or []
        if images:
            parts: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
            parts += [{"type": "image_url", "image_url": {"url": data_url(i)}} for i in images]
            sent.append({"role": role, "content": parts, **openai_tool_fields(message)})
        else:
            sent.append({"role": role, "content": text, **openai_tool_fields(message)})
    return sent


def rough_count(messages: Messages, tools: Sequence[Mapping[str, Any]] = ()) -> int:
    """Our own count, erring high: text, tool calls and the tools' schemas."""
    text = sum(count_tokens(str(m.get("content") or "") + str(m.get("tool_calls") or ""))
               for m in messages)
    text += sum(count_tokens(json.dumps(tool, sort_keys=True)) for tool in tools)
    return math.ceil(text * ROUGH_FACTOR) + ROUGH_PER_MESSAGE * len(messages) \
        + ROUGH_PER_REQUEST
