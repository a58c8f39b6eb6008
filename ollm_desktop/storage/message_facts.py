"""Each message's facts as stored (schema step 7): written when the message is final, read
back into the engine's extraction cache when the chat is loaded, so a restart does not extract
again what was extracted before (``engine.facts_extract``; issue 28)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict

from ollm_desktop.engine import facts_extract
from ollm_desktop.engine.models import Message
from ollm_desktop.engine.provenance import Found

ROLES = ("user", "assistant")


def create(conn: sqlite3.Connection) -> None:
    """Schema step 7 (``schema._message_facts_v7``): each message's facts and references as
    JSON, keyed by a hash of its role and text, so an edit extracts again and a compaction
    never re-reads the text. A new table only (an older file fills it as messages are
    written again)."""
    conn.execute("CREATE TABLE message_facts (message_id TEXT PRIMARY KEY, "
                 "content_key TEXT NOT NULL, facts TEXT NOT NULL)")


def record(conn: sqlite3.Connection, message: Message) -> None:
    """Store a final message's facts (read from the cache: the engine extracted them when it
    took the message); a partial reply still streaming is stored when it is final."""
    if message.role not in ROLES or message.partial:
        return
    key = facts_extract.content_key(message.role, message.content)
    row = conn.execute("SELECT content_key FROM message_facts WHERE message_id = ?",
                       (message.id,)).fetchone()
    if row is not None and row[0] == key:
        return
    found = facts_extract.extract(message.role, message.content)
    refs = facts_extract.references_of(message.content)
    body = json.dumps({"facts": [asdict(f) for f in found], "references": refs})
    conn.execute("INSERT INTO message_facts (message_id, content_key, facts) VALUES (?, ?, ?) "
                 "ON CONFLICT(message_id) DO UPDATE SET content_key = excluded.content_key, "
                 "facts = excluded.facts", (message.id, key, body))


def warm(conn: sqlite3.Connection, chat_id: str) -> int:
    """Put a chat's stored facts into the extraction cache; returns how many were usable (a
    row of an older text, or one that does not parse, is left: that message extracts anew)."""
    rows = conn.execute(
        "SELECT m.role, m.content, f.content_key, f.facts FROM messages m "
        "JOIN message_facts f ON f.message_id = m.id WHERE m.chat_id = ?", (chat_id,))
    used = 0
    for role, content, key, body in rows:
        if role not in ROLES or key != facts_extract.content_key(role, content):
            continue
        try:
            data = json.loads(body)
            found = [Found(**item) for item in data["facts"]]
            refs = [(str(ref), str(kind)) for ref, kind in data["references"]]
        except (ValueError, KeyError, TypeError):
            continue
        facts_extract.remember(role, content, found, refs)
        used += 1
    return used
