"""The chat the user left, read for the first picture: stdlib only, read-only, never fatal.

The engine, the store and pydantic take about half a second to import; the window shows the
last chat's messages (and takes typing) before that, from a plain read-only SQLite query.
The real chat replaces this picture row for row once the store has opened it (then with its
compaction markers and dimmed rows). Anything unusual (no file, an old or damaged database, a
locked file) just means no early picture: the normal start reports problems.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path


@dataclass(frozen=True, slots=True)
class StoredMessage:
    """What a message row draws (the attributes the conversation model reads)."""

    id: str
    role: str
    content: str
    pinned: bool
    partial: bool
    created_at: datetime
    model: str | None = None
    thinking: str | None = None  # a thinking model's reasoning (shown collapsed)
    cut_off: bool = False  # a reply stopped at its length limit (marked, may be continued)


@dataclass(frozen=True)
class QuickChat:
    id: str
    title: str
    messages: list[StoredMessage]


def _thinking(meta: object) -> str | None:
    try:
        value = json.loads(meta).get("thinking") if isinstance(meta, str) else None
    except (ValueError, AttributeError):
        return None
    return value if isinstance(value, str) and value else None


def _cut_off(meta: object) -> bool:
    try:
        stats = json.loads(meta).get("stats") if isinstance(meta, str) else None
    except (ValueError, AttributeError):
        return False
    return isinstance(stats, dict) and stats.get("cut_off") is True


def read_last_chat(database: Path, wanted: str | None) -> QuickChat | None:
    """The chat the app will open (``wanted``, the last one, else the newest), or None."""
    if not database.is_file():
        return None
    try:
        conn = sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True, timeout=0.2)
    except sqlite3.Error:
        return None
    try:
        chat_columns = {row[1] for row in conn.execute("PRAGMA table_info(chats)")}
        # A chat in the trash (the app quit during its Undo) is purged at start: not shown.
        live = "WHERE trashed_at IS NULL " if "trashed_at" in chat_columns else ""
        chats = conn.execute(
            f"SELECT id, title FROM chats {live}ORDER BY updated_at DESC, rowid DESC").fetchall()
        chosen = next((c for c in chats if c[0] == wanted), chats[0] if chats else None)
        if chosen is None:
            return None
        columns = {row[1] for row in conn.execute("PRAGMA table_info(messages)")}
        meta = "meta" if "meta" in columns else "'{}'"  # a file from before schema v3
        rows = conn.execute(
            f"SELECT id, role, content, pinned, partial, created_at, model, {meta} "
            "FROM messages WHERE chat_id = ? ORDER BY seq", (chosen[0],)).fetchall()
        messages = [StoredMessage(mid, role, content, bool(pinned), bool(partial),
                                  datetime.fromisoformat(created), model, _thinking(extra),
                                  _cut_off(extra))
                    for mid, role, content, pinned, partial, created, model, extra in rows]
        return QuickChat(str(chosen[0]), str(chosen[1]), messages)
    except (sqlite3.Error, ValueError, TypeError):
        return None
    finally:
        conn.close()
