"""Export a chat as Markdown (to read) or versioned JSON (to import again); import JSON.

The JSON document carries the full EngineState (every message, checkpoints, goal, facts,
undo) and the compacted view that was being sent (``api_messages``) for readers that want only
that.
Importing gives every message and checkpoint fresh ids, so a chat can be imported next to the
chat it was exported from (message ids are unique across the database).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple

from pydantic import ValidationError

from ollm_desktop.engine.models import (
    CONTEXT_SIZE_MAX,
    CONTEXT_SIZE_MIN,
    CompressedGroup,
    EngineState,
    new_id,
)
from ollm_desktop.storage.documents.models import ExportedDocument
from ollm_desktop.storage.models import ChatRecord, ChatSettings

FORMAT = "ollm-desktop-chat"
VERSION = 1
_ROLE_NAMES = {"user": "User", "assistant": "Assistant", "system": "System", "tool": "Tool"}


def _when(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def export_markdown(chat: ChatRecord, state: EngineState,
                    api_messages: Sequence[Mapping[str, str]]) -> str:
    """The full history; pins marked; each checkpoint's summary where its range ends."""
    lines = [f"# {chat.title}", ""]
    lines.append(f"- Model: {chat.model or 'not set'}")
    lines.append(f"- Context size: {chat.context_size:,} tokens")
    own = {**chat.settings.sampling(), "keep_alive": chat.settings.keep_alive}
    if any(value is not None for value in own.values()):
        lines.append("- This chat's model parameters: " + ", ".join(
            f"{name} {value}" for name, value in own.items() if value is not None))
    lines.append(f"- Messages: {len(state.messages)}; checkpoints: {len(state.groups)}; "
                 f"compactions: {state.compaction_count}")
    lines.append(f"- Messages sent to the model now: {len(api_messages)} "
                 f"(the compacted view; the full history follows)")
    lines.append(f"- Exported: {_when(datetime.now(UTC))}")
    if not state.goal.is_empty:
        lines += ["", "## Goal", "", state.goal.description or "(no description)"]
        lines += [f"- [{c.status}] {c.description}" for c in state.goal.checkpoints]
        lines += [f"- Decision{' (locked)' if d.locked else ''}: {d.description}"
                  for d in state.goal.decisions]
    if state.system_prompt.strip():
        lines += ["", "## System prompt", "", state.system_prompt.strip()]
    ends: dict[str, list[tuple[int, CompressedGroup]]] = {}
    for number, group in enumerate(state.groups, 1):
        span = group.span_ids or group.message_ids
        if span:
            ends.setdefault(span[-1], []).append((number, group))
    dropped = set(state.dropped_ids)
    lines += ["", "## Conversation"]
    for message in state.messages:
        marks = []
        if message.pinned:
            marks.append("📌 pinned")
        if message.partial:
            marks.append("unfinished")
        if message.id in dropped:
            marks.append("left out of the context")
        heading = f"### {_ROLE_NAMES.get(message.role, message.role)} · {_when(message.created_at)}"
        if message.model and message.role == "assistant":
            heading += f" · {message.model}"
        if message.role == "tool":
            heading += f" · {message.tool_name or 'tool'}" + (" · failed" if message.tool_error
                                                              else "")
        if marks:
            heading += " · " + ", ".join(marks)
        lines += ["", heading, "", message.content]
        lines += [f"- Called `{call.name}` with `{call.arguments_text()}`"
                  for call in message.tool_calls]
        for number, group in ends.get(message.id, []):
            lines += ["", "---", "",
                      f"> **Checkpoint {number}** (compaction {group.sequence}, level "
                      f"{group.level}): the {len(group.message_ids)} message(s) above since the "
                      f"previous checkpoint are sent as this summary "
                      f"({group.original_tokens:,} → {group.current_tokens:,} tokens)."]
            lines += ["", *(f"> {line}" if line else ">" for line in group.summary.splitlines())]
            lines += ["", "---"]
    return "\n".join(lines).rstrip() + "\n"


ImageBytes = Mapping[str, tuple[str, bytes]]  # image id -> (mime, bytes)


def image_bytes(state: EngineState, read: Callable[[str], tuple[str, bytes] | None]
                ) -> dict[str, tuple[str, bytes]]:
    """The pictures ``state``'s messages refer to, as ``read`` finds them (missing: left out)."""
    found: dict[str, tuple[str, bytes]] = {}
    for message in state.messages:
        for image in message.images:
            if image.id not in found and (got := read(image.id)) is not None:
                found[image.id] = got
    return found


def export_json(chat: ChatRecord, state: EngineState,
                api_messages: Sequence[Mapping[str, str]], images: ImageBytes | None = None,
                documents: Sequence[ExportedDocument] = ()) -> str:
    """``images``: the pictures' bytes, carried in the file so an import elsewhere has them;
    ``documents``: the attached documents' references and extracted text."""
    document = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": datetime.now(UTC).isoformat(),
        "chat": chat.model_dump(mode="json"),
        "state": state.model_dump(mode="json"),
        "compacted_view": [dict(m) for m in api_messages],
        "images": {key: {"mime": mime, "data": base64.b64encode(data).decode("ascii")}
                   for key, (mime, data) in (images or {}).items()},
        "documents": [d.model_dump(mode="json") for d in documents],
    }
    return json.dumps(document, ensure_ascii=False, indent=1)


def _images(document: dict[str, Any]) -> tuple[tuple[str, str, bytes], ...]:
    """The export's pictures whose bytes match their id (anything else is left out)."""
    found = document.get("images")
    if not isinstance(found, dict):
        return ()
    kept = []
    for key, item in found.items():
        try:
            data = base64.b64decode(item["data"], validate=True)
            mime = str(item.get("mime") or "image/png")
        except (TypeError, KeyError, ValueError, binascii.Error):
            continue
        if hashlib.sha256(data).hexdigest() == key:
            kept.append((key, mime, data))
    return tuple(kept)


def _documents(document: dict[str, Any]) -> tuple[ExportedDocument, ...]:
    """The export's documents that read as such (an export before them has none; a damaged
    entry is left out, never the whole chat)."""
    found = document.get("documents")
    if not isinstance(found, list):
        return ()
    kept = []
    for item in found:
        try:
            kept.append(ExportedDocument.model_validate(item))
        except ValidationError:
            continue
    return tuple(kept)


class ImportedChat(NamedTuple):
    title: str
    state: EngineState
    model: str | None
    context_size: int
    settings: ChatSettings  # the chat's own settings (an export before them has none)
    images: tuple[tuple[str, str, bytes], ...] = ()  # (id, mime, bytes) of its pictures
    documents: tuple[ExportedDocument, ...] = ()  # attached documents, as text


def import_json(text: str) -> ImportedChat:
    """The chat in an export; ValueError with a readable reason on bad input."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not a JSON file ({exc.msg} at line {exc.lineno})") from exc
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ValueError("not an ollm-desktop chat export")
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError("the export has no valid format version")
    if version > VERSION:
        raise ValueError(f"it was exported by a newer ollm-desktop (format version {version}; "
                         f"this version reads up to {VERSION})")
    chat = document.get("chat")
    if not isinstance(chat, dict):
        raise ValueError("the chat section is missing")
    title = chat.get("title")
    title = title.strip() if isinstance(title, str) and title.strip() else "Imported chat"
    model = chat.get("model")
    if model is not None and not isinstance(model, str):
        raise ValueError("the chat's model is not a text")
    size = chat.get("context_size", 8192)
    low, high = CONTEXT_SIZE_MIN, CONTEXT_SIZE_MAX
    if not isinstance(size, int) or isinstance(size, bool) or not low <= size <= high:
        raise ValueError(f"the context size must be a whole number from {low} to {high}")
    try:
        settings = ChatSettings.model_validate(chat.get("settings") or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ValueError(f"the chat's settings are invalid ({where}: {first['msg']})") from exc
    try:
        state = EngineState.model_validate(document.get("state"))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ValueError(f"the conversation is invalid ({where}: {first['msg']})") from exc
    _check_references(state)
    return ImportedChat(title, with_fresh_ids(state), model, size, settings, _images(document),
                        _documents(document))


def _check_references(state: EngineState) -> None:
    ids = [m.id for m in state.messages]
    known = set(ids)
    if len(known) != len(ids):
        raise ValueError("the conversation has duplicate message ids")
    groups = [*state.groups, *(g for u in state.undo_stack for g in u.groups)]
    for group in groups:
        if not set(group.message_ids) <= known or not set(group.span_ids) <= known:
            raise ValueError("a checkpoint refers to messages that are not in the file")


def with_fresh_ids(state: EngineState) -> EngineState:
    """Same conversation, new message and checkpoint ids (references follow: checkpoints,
    undo entries and each fact's source message)."""
    mapping = {m.id: new_id() for m in state.messages}
    group_ids = {g.id for g in state.groups} | {
        g.id for u in state.undo_stack for g in u.groups}
    mapping.update({gid: new_id() for gid in group_ids})
    data = state.model_dump()

    def fix_group(group: dict[str, Any]) -> None:
        group["id"] = mapping.get(group["id"], group["id"])
        group["message_ids"] = [mapping[i] for i in group["message_ids"]]
        group["span_ids"] = [mapping[i] for i in group["span_ids"]]
        group["merged_from"] = [mapping.get(i, i) for i in group["merged_from"]]

    for message in data["messages"]:
        message["id"] = mapping[message["id"]]
    for group in data["groups"]:
        fix_group(group)
    for entry in data["undo_stack"]:
        for group in entry["groups"]:
            fix_group(group)
        entry["dropped_ids"] = [mapping.get(i, i) for i in entry["dropped_ids"]]
    data["dropped_ids"] = [mapping.get(i, i) for i in data["dropped_ids"]]
    for entry in [*data["ledger"], *(e for u in data["undo_stack"] for e in u["ledger"])]:
        entry["group_id"] = mapping.get(entry["group_id"], entry["group_id"])
    # A fact keeps its id (unique within its chat only; ``replaced_by`` still names it) and
    # follows its message; one typed in the panel has none, a converted one a marker.
    for fact in [*data["facts"], *(f for u in data["undo_stack"] for f in u["facts"])]:
        fact["message_id"] = mapping.get(fact["message_id"], fact["message_id"])
    return EngineState.model_validate(data)
