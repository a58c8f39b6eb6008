"""Images on messages, as the engine sees them: a cost in tokens while their turn is sent,
then a short text once it is compacted.

A request's message lists its images by id under ``"images"`` (ids separated by spaces, so
the request stays ``dict[str, str]``); the session puts each image's bytes in just before
sending. The engine never holds image bytes.
"""

from __future__ import annotations

from ollm_desktop.engine.models import ImageRef, Message
from ollm_desktop.engine.tool_types import (
    TOOL_CALL_ID_KEY,
    TOOL_CALLS_KEY,
    TOOL_NAME_KEY,
    calls_json,
)

IMAGES_KEY = "images"
DESCRIPTION_TOKENS = 48  # "[image: ...]" with a one-sentence description, at most about


def as_text_tokens(message: Message) -> int:
    """The message's cost once its images are replaced by their descriptions."""
    return message.tokens - image_tokens(message) + DESCRIPTION_TOKENS * len(message.images)


def image_tokens(message: Message) -> int:
    """What the message's images cost in the context (their estimate, set when attached)."""
    return sum(image.tokens for image in message.images)


def fallback_description(image: ImageRef) -> str:
    """What stands for an image nobody described (the model failed, or was not asked)."""
    size = f"{image.width}×{image.height}" if image.width and image.height else ""
    details = ", ".join(part for part in (image.name, size) if part)
    return f"an image ({details})" if details else "an image"


def image_text(image: ImageRef) -> str:
    return f"[image: {image.description or fallback_description(image)}]"


def text_with_images(message: Message) -> str:
    """The message's text with its images as their descriptions: what summaries and the
    compressed history see of a turn that is no longer sent whole."""
    if not message.images:
        return message.content
    lines = [image_text(image) for image in message.images]
    return "\n".join([message.content, *lines] if message.content else lines)


def image_ids(message: Message) -> str:
    """The value of ``"images"`` on the message's request entry."""
    return " ".join(image.id for image in message.images)


def join_ids(first: str, second: str) -> str:
    return " ".join(part for part in (first, second) if part)


def request_entry(message: Message, content: str) -> dict[str, str]:
    """One message of the request as sent (``content`` possibly clipped), with a reply's
    tool calls and a result's tool and call (``tool_types``)."""
    entry = {"role": message.role, "content": content}
    if message.images:
        entry[IMAGES_KEY] = image_ids(message)
    if message.tool_calls:
        entry[TOOL_CALLS_KEY] = calls_json(message.tool_calls)
    if message.role == "tool":
        entry[TOOL_NAME_KEY] = message.tool_name or ""
        entry[TOOL_CALL_ID_KEY] = message.tool_call_id or ""
    return entry


def joins(previous: dict[str, str], message: Message) -> bool:
    """Whether ``message`` is joined to the request's previous entry: two turns of one role
    are one entry, but never a tool result or a reply's calls (each has its own entry)."""
    return previous["role"] == message.role and message.role != "tool" and \
        not message.tool_calls and TOOL_CALLS_KEY not in previous


def merged_entry(previous: dict[str, str], message: Message, content: str) -> dict[str, str]:
    """``message`` joined to the request's previous entry of the same role (its images too)."""
    entry = {**previous, "content": previous["content"] + "\n\n" + content}
    ids = join_ids(previous.get(IMAGES_KEY, ""), image_ids(message))
    if ids:
        entry[IMAGES_KEY] = ids
    return entry
