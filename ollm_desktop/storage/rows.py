"""Row conversions and small helpers shared by the store's tables."""

from __future__ import annotations

import json
import logging
import sqlite3
from datetime import UTC, datetime
from typing import Any

from pydantic import TypeAdapter, ValidationError

from ollm_desktop.engine.models import (
    CONTEXT_SIZE_MAX,
    CONTEXT_SIZE_MIN,
    ContextSize,
    ImageRef,
    Message,
    ReplyStats,
)
from ollm_desktop.engine.tool_types import ToolCall
from ollm_desktop.storage.models import ChatRecord, ChatSettings

log = logging.getLogger(__name__)

SEARCH_LIMIT = 200
SNIPPET_BEFORE = 60
SNIPPET_AFTER = 100

MESSAGE_COLUMNS = ("id, role, content, pinned, tokens, exact_tokens, created_at, partial, model, "
                   "meta")
CHAT_COLUMNS = "id, title, model, context_size, created_at, updated_at, message_count, settings"
# Step 4's columns: read by the store (the salvage copies only CHAT_COLUMNS from older files).
CHAT_FAMILY = "pinned, parent_id, root_id, branch_kind, branch_label"
CHAT_READ = f"{CHAT_COLUMNS}, {CHAT_FAMILY}"
CONTEXT_SIZE_ADAPTER: TypeAdapter[int] = TypeAdapter(ContextSize)

# tokens, exact_tokens, pinned, partial, content. The content is the same str object the
# caller holds (no copy): comparing an unchanged message is an identity check.
Fingerprint = tuple[int, bool, bool, bool, str]


def now() -> str:
    return iso(datetime.now(UTC))


def iso(moment: datetime) -> str:
    # Fixed width (always microseconds) so text order is time order.
    return moment.isoformat(timespec="microseconds")


def fingerprint(message: Message) -> Fingerprint:
    return (message.tokens, message.exact_tokens, message.pinned, message.partial,
            message.content)


def meta_json(message: Message) -> str:
    """``messages.meta``: what is stored about a message besides its text (a reply's stats,
    a thinking model's reasoning, the message a branch's copy came from, attached images)."""
    meta: dict[str, object] = {}
    if message.stats is not None:
        meta["stats"] = message.stats.model_dump(exclude_none=True)
    if message.thinking:
        meta["thinking"] = message.thinking
    if message.origin:
        meta["origin"] = message.origin
    if message.images:
        meta["images"] = [image.model_dump(exclude_none=True) for image in message.images]
    meta.update(tool_meta(message))
    return json.dumps(meta) if meta else "{}"


def tool_meta(message: Message) -> dict[str, object]:
    """A reply's tool calls, a result's tool, call and failure (no schema step: ``meta``)."""
    meta: dict[str, object] = {}
    if message.tool_calls:
        meta["tool_calls"] = [call.model_dump(exclude_defaults=True)
                              for call in message.tool_calls]
    if message.tool_name:
        meta["tool_name"] = message.tool_name
    if message.tool_call_id:
        meta["tool_call_id"] = message.tool_call_id
    if message.tool_error:
        meta["tool_error"] = True
    return meta


def tools_from_meta(meta: object) -> dict[str, Any]:
    """The fields :func:`tool_meta` wrote; a damaged entry is left out, never the message."""
    found = _meta(meta)
    fields: dict[str, Any] = {}
    calls = found.get("tool_calls")
    if isinstance(calls, list):
        try:
            fields["tool_calls"] = [ToolCall.model_validate(c) for c in calls]
        except ValidationError:
            log.warning("a message's stored tool calls are unreadable; they are left out")
    for key in ("tool_name", "tool_call_id"):
        if isinstance(found.get(key), str):
            fields[key] = found[key]
    if found.get("tool_error") is True:
        fields["tool_error"] = True
    return fields


def _meta(meta: object) -> dict[str, Any]:
    if not isinstance(meta, str) or meta in ("", "{}"):
        return {}
    try:
        found = json.loads(meta)
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def origin_from_meta(meta: object) -> str | None:
    origin = _meta(meta).get("origin")
    return origin if isinstance(origin, str) and origin else None


def images_from_meta(meta: object) -> list[ImageRef]:
    """A message's images; an unreadable entry is left out (logged), never the message."""
    found = _meta(meta).get("images")
    if not isinstance(found, list):
        return []
    images = []
    for item in found:
        try:
            images.append(ImageRef.model_validate(item))
        except ValidationError:
            log.warning("a stored image reference is unreadable; it is left out")
    return images


def stats_from_meta(meta: object) -> ReplyStats | None:
    """A reply's stats, validated; damaged or missing ones are simply not shown (the message
    itself is never lost over them)."""
    if not isinstance(meta, str) or meta in ("", "{}"):
        return None
    try:
        stats = json.loads(meta).get("stats")
        return None if stats is None else ReplyStats.model_validate(stats)
    except (ValueError, TypeError, AttributeError, ValidationError):
        log.warning("a message's stored statistics are unreadable; they are left out")
        return None


def thinking_from_meta(meta: object) -> str | None:
    """A reply's stored reasoning; anything unreadable is left out (the reply still loads)."""
    if not isinstance(meta, str) or meta in ("", "{}"):
        return None
    try:
        thinking = json.loads(meta).get("thinking")
    except (ValueError, TypeError, AttributeError):
        return None
    return thinking if isinstance(thinking, str) and thinking else None


def settings_json(settings: ChatSettings) -> str:
    return settings.model_dump_json(exclude_none=True)


def settings_from_json(text: object) -> ChatSettings:
    """A chat's settings, validated on read; an unreadable value falls back to the defaults
    (logged) so the chat still opens, and the next change writes a valid one."""
    if not isinstance(text, str) or text in ("", "{}"):
        return ChatSettings()
    try:
        return ChatSettings.model_validate_json(text)
    except (ValueError, ValidationError):
        log.warning("a chat's stored settings are invalid; its defaults are used")
        return ChatSettings()


def message_from_row(row: tuple) -> Message:
    mid, role, content, pinned, tokens, exact, created, partial, model, meta = row
    return Message(id=mid, role=role, content=content, pinned=bool(pinned), tokens=tokens,
                   exact_tokens=bool(exact), created_at=datetime.fromisoformat(created),
                   partial=bool(partial), model=model, stats=stats_from_meta(meta),
                   thinking=thinking_from_meta(meta), origin=origin_from_meta(meta),
                   images=images_from_meta(meta), **tools_from_meta(meta))


def chat_from_row(row: tuple) -> ChatRecord:
    """A row of CHAT_COLUMNS, or of CHAT_READ (the family columns too)."""
    cid, title, model, size, created, updated, count, settings = row[:8]
    if isinstance(size, int):
        # A row from before the limits were checked on write opens at the nearest valid size.
        size = min(max(size, CONTEXT_SIZE_MIN), CONTEXT_SIZE_MAX)
    family: dict[str, Any] = {}
    if len(row) > 8:
        pinned, parent, root, kind, label = row[8:13]
        family = {"pinned": bool(pinned), "parent_id": parent, "root_id": root,
                  "branch_kind": kind if kind in ("branch", "fork") else "",
                  "branch_label": label or ""}
    return ChatRecord(id=cid, title=title, model=model, context_size=size,
                      created_at=datetime.fromisoformat(created),
                      updated_at=datetime.fromisoformat(updated), message_count=count,
                      settings=settings_from_json(settings), **family)


def like_pattern(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def snippet(content: str, needle: str) -> str:
    position = content.casefold().find(needle)
    position = max(0, min(position, len(content)))  # casefold may change lengths slightly
    start = max(0, position - SNIPPET_BEFORE)
    end = min(len(content), position + len(needle) + SNIPPET_AFTER)
    text = " ".join(content[start:end].split())
    return ("…" if start > 0 else "") + text + ("…" if end < len(content) else "")


def insert_message(conn: sqlite3.Connection, chat_id: str, message: Message, seq: int) -> None:
    """One message row and its search text (the store's appends and the salvage's copies)."""
    cursor = conn.execute(
        "INSERT INTO messages (id, chat_id, seq, role, content, pinned, tokens, "
        "exact_tokens, partial, created_at, model, meta) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (message.id, chat_id, seq, message.role, message.content, message.pinned,
         message.tokens, message.exact_tokens, message.partial, iso(message.created_at),
         message.model, meta_json(message)),
    )
    conn.execute("INSERT INTO message_search (rowid, body) VALUES (?, ?)",
                 (cursor.lastrowid, message.content.casefold()))
