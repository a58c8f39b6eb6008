"""ChatStore: every chat, message, engine state, snapshot and calibration in one SQLite file.

Cost model: a turn appends one row (one small transaction, independent of the chat's length);
``save_engine_state`` writes the compaction state JSON only when it changed and updates only
the message rows whose counts, pin, partial flag or text changed, found by comparing against an
in-memory fingerprint per message (no SQL read). The whole chat is never rewritten per turn.

Durability: WAL with ``synchronous=NORMAL``. A committed transaction survives the app being
killed or crashing (it is in the WAL, in the OS page cache); on power loss or an OS crash the
last few transactions since the previous checkpoint may be lost, but the file stays consistent.
FULL would fsync on every commit, i.e. on every streamed-reply save; losing the last seconds of
a chat on power loss is the cheaper tradeoff for a chat app that also keeps snapshots.

Used from one thread (the Qt/asyncio thread): no locking here.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from pydantic import ValidationError

from ollm_desktop.engine.models import (
    EngineState,
    Message,
    new_id,
)
from ollm_desktop.storage import message_facts, recall_index
from ollm_desktop.storage.documents.library import DocumentTables
from ollm_desktop.storage.families import Families
from ollm_desktop.storage.images import Images
from ollm_desktop.storage.models import (
    ChatRecord,
    ChatSettings,
)
from ollm_desktop.storage.recall_store import KEEP_RECALL, RecallTables
from ollm_desktop.storage.rows import (
    CHAT_COLUMNS,
    CHAT_READ,
    CONTEXT_SIZE_ADAPTER,
    MESSAGE_COLUMNS,
    Fingerprint,
    chat_from_row,
    fingerprint,
    insert_message,
    message_from_row,
    meta_json,
    now,
    settings_json,
)
from ollm_desktop.storage.schema import StorageError
from ollm_desktop.storage.side_tables import SideTables
from ollm_desktop.storage.state_parts import PreparedSave, StateParts, Which

log = logging.getLogger(__name__)


class ChatStore(RecallTables, SideTables, Families, Images, DocumentTables):
    """The app's database; open it with :meth:`open`."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        super().__init__(conn, path)
        # Per chat: what each stored message row holds, to find changed rows without reading.
        self._prints: dict[str, dict[str, Fingerprint]] = {}
        self._parts: dict[str, StateParts] = {}  # what chat_state holds, per loaded chat

    # -------------------------------------------------------------------- chats
    def create_chat(self, title: str, *, model: str | None = None, context_size: int = 8192,
                    system_prompt: str | None = None,
                    settings: ChatSettings | None = None) -> ChatRecord:
        """``system_prompt``, when given, is saved as the chat's first engine state;
        ``settings`` are the chat's own (a branch or an import keeps its chat's).

        ``context_size`` outside the engine's limits raises ``ValidationError`` (a ValueError).
        """
        context_size = CONTEXT_SIZE_ADAPTER.validate_python(context_size)
        stamp = now()
        chat_id = new_id()
        with self._write() as conn:
            conn.execute(
                f"INSERT INTO chats ({CHAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
                (chat_id, title, model, context_size, stamp, stamp,
                 settings_json(settings or ChatSettings())),
            )
            parts = None
            if system_prompt is not None:
                parts = StateParts.of(EngineState(system_prompt=system_prompt))
                self._write_state(conn, chat_id, parts, None)
        if parts is not None:
            self._parts[chat_id] = parts.copy()
        chat = self.get_chat(chat_id)
        assert chat is not None
        return chat

    def get_chat(self, chat_id: str) -> ChatRecord | None:
        with self._read() as conn:
            row = conn.execute(f"SELECT {CHAT_READ} FROM chats WHERE id = ?",
                               (chat_id,)).fetchone()
        return chat_from_row(row) if row else None

    def list_chats(self) -> list[ChatRecord]:
        with self._read() as conn:
            rows = conn.execute(
                f"SELECT {CHAT_READ} FROM chats WHERE trashed_at IS NULL "
                "ORDER BY updated_at DESC, rowid DESC"
            ).fetchall()
        return [chat_from_row(r) for r in rows]

    def rename_chat(self, chat_id: str, title: str) -> None:
        with self._write() as conn:
            conn.execute("UPDATE chats SET title = ? WHERE id = ?", (title, chat_id))

    def set_chat_model(self, chat_id: str, model: str | None) -> None:
        with self._write() as conn:
            conn.execute("UPDATE chats SET model = ? WHERE id = ?", (model, chat_id))

    def set_chat_context_size(self, chat_id: str, size: int) -> None:
        """``size`` outside the engine's limits raises ``ValidationError`` (a ValueError)."""
        size = CONTEXT_SIZE_ADAPTER.validate_python(size)
        with self._write() as conn:
            conn.execute("UPDATE chats SET context_size = ? WHERE id = ?", (size, chat_id))

    def set_chat_settings(self, chat_id: str, settings: ChatSettings) -> None:
        with self._write() as conn:
            conn.execute("UPDATE chats SET settings = ? WHERE id = ?",
                         (settings_json(settings), chat_id))

    def delete_chat(self, chat_id: str) -> None:
        """Messages, state and snapshots go with it (foreign keys cascade)."""
        with self._write() as conn:
            conn.execute("DELETE FROM chats WHERE id = ?", (chat_id,))
            # Its marks and remembered values (draft, model size): ids are hex, no wildcards.
            conn.execute("DELETE FROM ollm_meta WHERE key LIKE ?", (f"chat:{chat_id}:%",))
        self._forget(chat_id)

    def _forget(self, chat_id: str) -> None:
        self._prints.pop(chat_id, None)
        self._parts.pop(chat_id, None)

    # ----------------------------------------------------------------- messages
    def _insert_message(self, conn: sqlite3.Connection, chat_id: str, message: Message,
                        seq: int) -> None:
        insert_message(conn, chat_id, message, seq)
        message_facts.record(conn, message)

    @staticmethod
    def _renumber(conn: sqlite3.Connection, chat_id: str, order: list[str]) -> None:
        """Put the chat's rows in ``order`` (rows not in it, e.g. a reply still streaming,
        keep their relative order after it). Rare, so O(n) is fine."""
        rows = [r[0] for r in conn.execute(
            "SELECT id FROM messages WHERE chat_id = ? ORDER BY seq", (chat_id,))]
        wanted = set(order)
        final = [i for i in order if i is not None] + [i for i in rows if i not in wanted]
        # Two passes: (chat_id, seq) is unique, so first move every row out of the way.
        conn.execute("UPDATE messages SET seq = -1 - seq WHERE chat_id = ?", (chat_id,))
        conn.executemany("UPDATE messages SET seq = ? WHERE id = ?",
                         [(position, message_id) for position, message_id in enumerate(final)])

    def _next_seq(self, conn: sqlite3.Connection, chat_id: str) -> int:
        # Uses the (chat_id, seq) index: O(log n).
        row = conn.execute("SELECT MAX(seq) FROM messages WHERE chat_id = ?",
                           (chat_id,)).fetchone()
        return 0 if row[0] is None else row[0] + 1

    def append_message(self, chat_id: str, message: Message) -> None:
        """Add one message at the end of the chat's history (one small transaction)."""
        with self._write() as conn:
            seq = self._next_seq(conn, chat_id)
            self._insert_message(conn, chat_id, message, seq)
            recall_index.refresh_around(conn, chat_id, seq)
            conn.execute("UPDATE chats SET message_count = message_count + 1, updated_at = ? "
                         "WHERE id = ?", (now(), chat_id))
        prints = self._prints.get(chat_id)
        if prints is not None:
            prints[message.id] = fingerprint(message)

    def update_message(self, chat_id: str, message: Message, *, index: bool = True) -> None:
        """Rewrite one stored message (a streamed reply growing); appends it if missing.
        ``index=False``: its search and recall rows wait for a later write (a reply still
        streaming is saved every second; indexing a long one each time stalled the window)."""
        with self._write() as conn:
            row = conn.execute(
                "UPDATE messages SET content = ?, pinned = ?, tokens = ?, exact_tokens = ?, "
                f"partial = ?, model = ?, meta = {KEEP_RECALL} WHERE id = ? AND chat_id = ? "
                "RETURNING rowid, seq",
                (message.content, message.pinned, message.tokens, message.exact_tokens,
                 message.partial, message.model, meta_json(message), message.id, chat_id),
            ).fetchone()
            if row is None:
                seq = self._next_seq(conn, chat_id)
                self._insert_message(conn, chat_id, message, seq)
                recall_index.refresh_around(conn, chat_id, seq)
                conn.execute("UPDATE chats SET message_count = message_count + 1, "
                             "updated_at = ? WHERE id = ?", (now(), chat_id))
            else:
                if index:  # the final save: what is derived from the text, once
                    conn.execute("UPDATE message_search SET body = ? WHERE rowid = ?",
                                 (message.content.casefold(), row[0]))
                    message_facts.record(conn, message)  # an edit, or a reply now final
                    recall_index.refresh_around(conn, chat_id, row[1])
                conn.execute("UPDATE chats SET updated_at = ? WHERE id = ?", (now(), chat_id))
        prints = self._prints.get(chat_id)
        if prints is not None:
            prints[message.id] = fingerprint(message)

    def delete_message(self, message_id: str) -> None:
        with self._write() as conn:
            row = conn.execute("DELETE FROM messages WHERE id = ? RETURNING chat_id, seq",
                               (message_id,)).fetchone()
            if row is not None:
                recall_index.refresh_around(conn, row[0], row[1])
                conn.execute("UPDATE chats SET message_count = message_count - 1, "
                             "updated_at = ? WHERE id = ?", (now(), row[0]))
        if row is not None:
            self._prints.get(row[0], {}).pop(message_id, None)

    def set_pinned(self, message_id: str, pinned: bool) -> None:
        with self._write() as conn:
            row = conn.execute("UPDATE messages SET pinned = ? WHERE id = ? RETURNING chat_id",
                               (pinned, message_id)).fetchone()
        prints = self._prints.get(row[0]) if row else None
        if prints is not None and message_id in prints:
            old = prints[message_id]
            prints[message_id] = (old[0], old[1], pinned, *old[3:])

    def messages(self, chat_id: str) -> list[Message]:
        """The chat's full display history, in order."""
        with self._read() as conn:
            rows = conn.execute(f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE chat_id = ? "
                                "ORDER BY seq", (chat_id,)).fetchall()
        return [message_from_row(r) for r in rows]

    # ------------------------------------------------------------- engine state
    def _write_state(self, conn: sqlite3.Connection, chat_id: str, parts: StateParts,
                     which: Which | None) -> bool:
        """Write the (meta, groups, undo, facts) parts flagged in ``which`` (all when None)."""
        if which is None:
            conn.execute(
                "INSERT INTO chat_state (chat_id, meta, groups, undo, facts, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (chat_id) DO UPDATE SET "
                "meta = excluded.meta, groups = excluded.groups, undo = excluded.undo, "
                "facts = excluded.facts, updated_at = excluded.updated_at",
                (chat_id, parts.meta, parts.groups_json(), parts.undo_json(),
                 parts.facts_json(), now()),
            )
            return True
        meta, groups, undo, facts = which
        columns = {"meta": parts.meta} if meta else {}
        if groups:
            columns["groups"] = parts.groups_json()
        if undo:
            columns["undo"] = parts.undo_json()
        if facts:
            columns["facts"] = parts.facts_json()
        if not columns:
            return False
        columns["updated_at"] = now()
        assignments = ", ".join(f"{name} = ?" for name in columns)
        conn.execute(f"UPDATE chat_state SET {assignments} WHERE chat_id = ?",
                     (*columns.values(), chat_id))
        return True

    def _load_prints(self, chat_id: str) -> dict[str, Fingerprint]:
        prints = self._prints.get(chat_id)
        if prints is None:  # first save of a chat not loaded in this process: read it once
            prints = {m.id: fingerprint(m) for m in self.messages(chat_id)}
            self._prints[chat_id] = prints
        return prints

    def save_engine_state(self, chat_id: str, state: EngineState) -> None:
        """Persist the compaction state and any message rows that changed since last written.

        Messages of ``state`` that were never appended are appended (in order); stored messages
        missing from ``state`` (a reply still streaming) are left alone.
        """
        prepared = self.prepare_engine_state(chat_id, state)
        if prepared is not None:
            self.commit_engine_state(prepared)

    def prepare_engine_state(self, chat_id: str, state: EngineState) -> PreparedSave | None:
        """What a save must write, worked out without the database (a worker thread may, if
        ``prints_loaded(chat_id)``); None: nothing to write."""
        writes = self.writes
        prints = self._load_prints(chat_id)
        changed: list[tuple[Message, bool]] = []
        new: list[Message] = []
        stored = prints.get
        out_of_order = False  # a new message before a stored one (a reply saved late)
        for message in state.messages:  # the hot loop at 10,000 messages: kept inline
            current = (message.tokens, message.exact_tokens, message.pinned, message.partial,
                       message.content)
            old = stored(message.id)
            if old is None:
                new.append(message)
            else:
                if new:
                    out_of_order = True
                if old != current:
                    changed.append((message, old[4] != current[4]))
        parts = StateParts.of(state)
        cached = self._parts.get(chat_id)
        which = parts.changes(cached)
        state_changed = any(which)
        if not (changed or new or state_changed):
            return None
        merged = None
        if state_changed:
            parts.render(None if cached is None else which)
            merged = parts.merged_into(cached, which)
        return PreparedSave(chat_id, state, writes, changed, new, out_of_order, parts,
                            None if cached is None else which, merged)

    def prints_loaded(self, chat_id: str) -> bool:
        """The chat's fingerprints are loaded: ``prepare_engine_state`` reads no database."""
        return chat_id in self._prints

    def commit_engine_state(self, prepared: PreparedSave) -> bool:
        """Write a prepared save; False (nothing written) if anything was written since."""
        chat_id, state = prepared.chat_id, prepared.state
        if self.writes != prepared.writes:
            return False
        changed, new, out_of_order = prepared.changed, prepared.new, prepared.out_of_order
        parts, which = prepared.parts, prepared.which
        prints = self._load_prints(chat_id)
        with self._write() as conn:
            for message, content_changed in changed:
                if content_changed:
                    row = conn.execute(
                        "UPDATE messages SET content = ?, tokens = ?, exact_tokens = ?, "
                        "pinned = ?, partial = ? WHERE id = ? RETURNING rowid, seq",
                        (message.content, message.tokens, message.exact_tokens, message.pinned,
                         message.partial, message.id),
                    ).fetchone()
                    conn.execute("UPDATE message_search SET body = ? WHERE rowid = ?",
                                 (message.content.casefold(), row[0]))
                    message_facts.record(conn, message)  # an edit: its facts anew
                    recall_index.refresh_around(conn, chat_id, row[1])
                else:
                    conn.execute(
                        "UPDATE messages SET tokens = ?, exact_tokens = ?, pinned = ?, "
                        "partial = ? WHERE id = ?",
                        (message.tokens, message.exact_tokens, message.pinned, message.partial,
                         message.id),
                    )
            if new:
                seq = self._next_seq(conn, chat_id)
                for offset, message in enumerate(new):
                    self._insert_message(conn, chat_id, message, seq + offset)
                    if not out_of_order:
                        recall_index.refresh_around(conn, chat_id, seq + offset)
                if out_of_order:
                    self._renumber(conn, chat_id, [m.id for m in state.messages])
                    for message in new:  # only the rounds around them change
                        recall_index.refresh_around(conn, chat_id,
                                                    recall_index.seq_of(conn, message.id))
            if prepared.merged is not None:
                self._write_state(conn, chat_id, parts, which)
            conn.execute("UPDATE chats SET message_count = message_count + ?, updated_at = ? "
                         "WHERE id = ?", (len(new), now(), chat_id))
        for message, _ in changed:
            prints[message.id] = fingerprint(message)
        for message in new:
            prints[message.id] = fingerprint(message)
        if prepared.merged is not None:
            self._parts[chat_id] = prepared.merged
        return True

    def load_engine_state(self, chat_id: str) -> EngineState | None:
        """Messages in order plus the stored state; None for a chat with neither."""
        messages = self.messages(chat_id)
        with self._read() as conn:
            row = conn.execute("SELECT meta, groups, undo, facts FROM chat_state "
                               "WHERE chat_id = ?", (chat_id,)).fetchone()
            message_facts.warm(conn, chat_id)  # each message's facts, extracted before
        if row is None and not messages:
            return None
        state = EngineState(messages=messages)
        if row is not None:
            try:
                parts = StateParts.parse(*row)
                state = parts.state(messages)
                self._parts[chat_id] = parts
            except (ValidationError, ValueError, KeyError, TypeError):
                # Keep the chat usable: the full history is sent again until it compacts.
                log.exception("stored engine state of chat %s is invalid; using messages only",
                              chat_id)
        self._prints[chat_id] = {m.id: fingerprint(m) for m in messages}
        return state

    def replace_chat_state(self, chat_id: str, state: EngineState) -> None:
        """Make ``state`` the chat's whole history and state, in one transaction."""
        ids = [m.id for m in state.messages]
        if len(set(ids)) != len(ids):
            raise StorageError("The conversation to restore has duplicate message ids.")
        parts = StateParts.of(state)
        try:
            with self._write() as conn:
                marks = self.recall_marks_of(conn, chat_id)  # exclusions, recalled texts
                conn.execute("DELETE FROM messages WHERE chat_id = ?", (chat_id,))
                for seq, message in enumerate(state.messages):
                    self._insert_message(conn, chat_id, message, seq)
                self.put_recall_marks(conn, marks, chat_id)
                recall_index.rebuild(conn, chat_id)
                self._write_state(conn, chat_id, parts, None)
                conn.execute("UPDATE chats SET message_count = ?, updated_at = ? WHERE id = ?",
                             (len(ids), now(), chat_id))
        except StorageError as exc:
            if isinstance(exc.__cause__, sqlite3.IntegrityError):
                raise StorageError(
                    "These messages already belong to another chat (import the file again to "
                    "get fresh ids)."
                ) from exc
            raise
        self._prints[chat_id] = {m.id: fingerprint(m) for m in state.messages}
        self._parts[chat_id] = parts.copy()

