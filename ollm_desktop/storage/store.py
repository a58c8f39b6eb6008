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

import contextlib
import logging
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from ollm_desktop.engine.models import EngineState, Message, new_id
from ollm_desktop.paths import AppPaths
from ollm_desktop.storage import schema
from ollm_desktop.storage.models import (
    ChatRecord,
    SearchHit,
    Snapshot,
    SnapshotInfo,
    StartupNotice,
)
from ollm_desktop.storage.schema import StorageError
from ollm_desktop.storage.snapshots import (
    INFO_COLUMNS,
    decode_state,
    encode_state,
    info_from_row,
    state_tokens,
)
from ollm_desktop.storage.state_parts import StateParts

log = logging.getLogger(__name__)

SEARCH_LIMIT = 200
SNIPPET_BEFORE = 60
SNIPPET_AFTER = 100

_MESSAGE_COLUMNS = "id, role, content, pinned, tokens, exact_tokens, created_at, partial, model"
_CHAT_COLUMNS = "id, title, model, context_size, created_at, updated_at, message_count"

# tokens, exact_tokens, pinned, partial, content. The content is the same str object the
# caller holds (no copy): comparing an unchanged message is an identity check.
Fingerprint = tuple[int, bool, bool, bool, str]


def _now() -> str:
    return _iso(datetime.now(UTC))


def _iso(moment: datetime) -> str:
    # Fixed width (always microseconds) so text order is time order.
    return moment.isoformat(timespec="microseconds")


def _fingerprint(message: Message) -> Fingerprint:
    return (message.tokens, message.exact_tokens, message.pinned, message.partial,
            message.content)


def _message_from_row(row: tuple) -> Message:
    mid, role, content, pinned, tokens, exact, created, partial, model = row
    return Message(id=mid, role=role, content=content, pinned=bool(pinned), tokens=tokens,
                   exact_tokens=bool(exact), created_at=datetime.fromisoformat(created),
                   partial=bool(partial), model=model)


def _chat_from_row(row: tuple) -> ChatRecord:
    cid, title, model, size, created, updated, count = row
    return ChatRecord(id=cid, title=title, model=model, context_size=size,
                      created_at=datetime.fromisoformat(created),
                      updated_at=datetime.fromisoformat(updated), message_count=count)


def _like_pattern(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _snippet(content: str, needle: str) -> str:
    position = content.casefold().find(needle)
    position = max(0, min(position, len(content)))  # casefold may change lengths slightly
    start = max(0, position - SNIPPET_BEFORE)
    end = min(len(content), position + len(needle) + SNIPPET_AFTER)
    text = " ".join(content[start:end].split())
    return ("…" if start > 0 else "") + text + ("…" if end < len(content) else "")


class ChatStore:
    """The app's database; open it with :meth:`open`."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path
        kind = conn.execute("SELECT value FROM ollm_meta WHERE key = 'search'").fetchone()
        self.search_kind = kind[0] if kind else "like"
        # Per chat: what each stored message row holds, to find changed rows without reading.
        self._prints: dict[str, dict[str, Fingerprint]] = {}
        self._parts: dict[str, StateParts] = {}  # what chat_state holds, per loaded chat

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, paths: AppPaths) -> tuple[ChatStore, list[StartupNotice]]:
        """Open (creating, migrating or setting aside a bad file); StorageError if impossible."""
        schema.make_private_dir(paths.data_dir)
        path = paths.database
        notices: list[StartupNotice] = []
        verdict = schema.inspect(path)
        if verdict.kind == "newer":
            raise StorageError(
                f"The chat database {path} was written by a newer ollm-desktop (schema version "
                f"{verdict.version}; this version knows up to {schema.LATEST_VERSION}). It was "
                f"not changed. Update ollm-desktop, or start with --data-dir to use another "
                f"folder."
            )
        if verdict.kind == "bad":
            backup = schema.set_aside(path, paths.backup_dir)
            notices.append(StartupNotice(
                level="warning",
                text=(f"The chat database could not be used because {verdict.reason}. It was "
                      f"moved to {backup} and a new, empty database was started."),
                backup_path=str(backup),
                extra={"reason": verdict.reason, "database": str(path)},
            ))
        schema.create_private_file(path)
        conn: sqlite3.Connection | None = None
        try:
            conn = sqlite3.connect(path, isolation_level=None)
            conn.execute("PRAGMA busy_timeout = 3000")
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                log.warning("journal_mode is %s, not WAL", mode)
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            schema.migrate(conn)
            store = cls(conn, path)
        except sqlite3.Error as exc:
            if conn is not None:
                conn.close()
            raise StorageError(schema.describe_os_error(exc, path)) from exc
        schema.tighten(path)
        return store, notices

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._conn.execute("PRAGMA optimize")
        self._conn.close()

    # ------------------------------------------------------------ transactions
    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction; SQLite errors become StorageError with a readable message."""
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            raise StorageError(schema.describe_os_error(exc, self.path)) from exc

    @contextlib.contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        try:
            yield self._conn
        except sqlite3.Error as exc:
            raise StorageError(schema.describe_os_error(exc, self.path)) from exc

    # -------------------------------------------------------------------- chats
    def create_chat(self, title: str, *, model: str | None = None, context_size: int = 8192,
                    system_prompt: str | None = None) -> ChatRecord:
        """``system_prompt``, when given, is saved as the chat's first engine state."""
        now = _now()
        chat_id = new_id()
        with self._write() as conn:
            conn.execute(
                f"INSERT INTO chats ({_CHAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 0)",
                (chat_id, title, model, context_size, now, now),
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
            row = conn.execute(f"SELECT {_CHAT_COLUMNS} FROM chats WHERE id = ?",
                               (chat_id,)).fetchone()
        return _chat_from_row(row) if row else None

    def list_chats(self) -> list[ChatRecord]:
        with self._read() as conn:
            rows = conn.execute(
                f"SELECT {_CHAT_COLUMNS} FROM chats ORDER BY updated_at DESC, rowid DESC"
            ).fetchall()
        return [_chat_from_row(r) for r in rows]

    def rename_chat(self, chat_id: str, title: str) -> None:
        with self._write() as conn:
            conn.execute("UPDATE chats SET title = ? WHERE id = ?", (title, chat_id))

    def set_chat_model(self, chat_id: str, model: str | None) -> None:
        with self._write() as conn:
            conn.execute("UPDATE chats SET model = ? WHERE id = ?", (model, chat_id))

    def set_chat_context_size(self, chat_id: str, size: int) -> None:
        with self._write() as conn:
            conn.execute("UPDATE chats SET context_size = ? WHERE id = ?", (size, chat_id))

    def delete_chat(self, chat_id: str) -> None:
        """Messages, state and snapshots go with it (foreign keys cascade)."""
        with self._write() as conn:
            conn.execute("DELETE FROM chats WHERE id = ?", (chat_id,))
        self._forget(chat_id)

    def _forget(self, chat_id: str) -> None:
        self._prints.pop(chat_id, None)
        self._parts.pop(chat_id, None)

    # ----------------------------------------------------------------- messages
    def _insert_message(self, conn: sqlite3.Connection, chat_id: str, message: Message,
                        seq: int) -> None:
        cursor = conn.execute(
            "INSERT INTO messages (id, chat_id, seq, role, content, pinned, tokens, "
            "exact_tokens, partial, created_at, model) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (message.id, chat_id, seq, message.role, message.content, message.pinned,
             message.tokens, message.exact_tokens, message.partial, _iso(message.created_at),
             message.model),
        )
        conn.execute("INSERT INTO message_search (rowid, body) VALUES (?, ?)",
                     (cursor.lastrowid, message.content.casefold()))

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
            self._insert_message(conn, chat_id, message, self._next_seq(conn, chat_id))
            conn.execute("UPDATE chats SET message_count = message_count + 1, updated_at = ? "
                         "WHERE id = ?", (_now(), chat_id))
        prints = self._prints.get(chat_id)
        if prints is not None:
            prints[message.id] = _fingerprint(message)

    def update_message(self, chat_id: str, message: Message) -> None:
        """Rewrite one stored message (a streamed reply growing); appends it if missing."""
        with self._write() as conn:
            row = conn.execute(
                "UPDATE messages SET content = ?, pinned = ?, tokens = ?, exact_tokens = ?, "
                "partial = ?, model = ? WHERE id = ? AND chat_id = ? RETURNING rowid",
                (message.content, message.pinned, message.tokens, message.exact_tokens,
                 message.partial, message.model, message.id, chat_id),
            ).fetchone()
            if row is None:
                self._insert_message(conn, chat_id, message, self._next_seq(conn, chat_id))
                conn.execute("UPDATE chats SET message_count = message_count + 1, "
                             "updated_at = ? WHERE id = ?", (_now(), chat_id))
            else:
                conn.execute("UPDATE message_search SET body = ? WHERE rowid = ?",
                             (message.content.casefold(), row[0]))
                conn.execute("UPDATE chats SET updated_at = ? WHERE id = ?", (_now(), chat_id))
        prints = self._prints.get(chat_id)
        if prints is not None:
            prints[message.id] = _fingerprint(message)

    def delete_message(self, message_id: str) -> None:
        with self._write() as conn:
            row = conn.execute("DELETE FROM messages WHERE id = ? RETURNING chat_id",
                               (message_id,)).fetchone()
            if row is not None:
                conn.execute("UPDATE chats SET message_count = message_count - 1, "
                             "updated_at = ? WHERE id = ?", (_now(), row[0]))
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
            rows = conn.execute(f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE chat_id = ? "
                                "ORDER BY seq", (chat_id,)).fetchall()
        return [_message_from_row(r) for r in rows]

    # ------------------------------------------------------------- engine state
    def _write_state(self, conn: sqlite3.Connection, chat_id: str, parts: StateParts,
                     which: tuple[bool, bool, bool] | None) -> bool:
        """Write the (meta, groups, undo) parts flagged in ``which`` (all when None)."""
        if which is None:
            conn.execute(
                "INSERT INTO chat_state (chat_id, meta, groups, undo, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (chat_id) DO UPDATE SET meta = excluded.meta,"
                " groups = excluded.groups, undo = excluded.undo, "
                "updated_at = excluded.updated_at",
                (chat_id, parts.meta, parts.groups_json(), parts.undo_json(), _now()),
            )
            return True
        meta, groups, undo = which
        columns = {"meta": parts.meta} if meta else {}
        if groups:
            columns["groups"] = parts.groups_json()
        if undo:
            columns["undo"] = parts.undo_json()
        if not columns:
            return False
        columns["updated_at"] = _now()
        assignments = ", ".join(f"{name} = ?" for name in columns)
        conn.execute(f"UPDATE chat_state SET {assignments} WHERE chat_id = ?",
                     (*columns.values(), chat_id))
        return True

    def _load_prints(self, chat_id: str) -> dict[str, Fingerprint]:
        prints = self._prints.get(chat_id)
        if prints is None:  # first save of a chat not loaded in this process: read it once
            prints = {m.id: _fingerprint(m) for m in self.messages(chat_id)}
            self._prints[chat_id] = prints
        return prints

    def save_engine_state(self, chat_id: str, state: EngineState) -> None:
        """Persist the compaction state and any message rows that changed since last written.

        Messages of ``state`` that were never appended are appended (in order); stored messages
        missing from ``state`` (a reply still streaming) are left alone.
        """
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
            return
        with self._write() as conn:
            for message, content_changed in changed:
                if content_changed:
                    row = conn.execute(
                        "UPDATE messages SET content = ?, tokens = ?, exact_tokens = ?, "
                        "pinned = ?, partial = ? WHERE id = ? RETURNING rowid",
                        (message.content, message.tokens, message.exact_tokens, message.pinned,
                         message.partial, message.id),
                    ).fetchone()
                    conn.execute("UPDATE message_search SET body = ? WHERE rowid = ?",
                                 (message.content.casefold(), row[0]))
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
                if out_of_order:
                    self._renumber(conn, chat_id, [m.id for m in state.messages])
            if state_changed:
                self._write_state(conn, chat_id, parts, None if cached is None else which)
            conn.execute("UPDATE chats SET message_count = message_count + ?, updated_at = ? "
                         "WHERE id = ?", (len(new), _now(), chat_id))
        for message, _ in changed:
            prints[message.id] = _fingerprint(message)
        for message in new:
            prints[message.id] = _fingerprint(message)
        if state_changed:
            self._parts[chat_id] = parts.merged_into(cached, which)

    def load_engine_state(self, chat_id: str) -> EngineState | None:
        """Messages in order plus the stored state; None for a chat with neither."""
        messages = self.messages(chat_id)
        with self._read() as conn:
            row = conn.execute("SELECT meta, groups, undo FROM chat_state WHERE chat_id = ?",
                               (chat_id,)).fetchone()
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
        self._prints[chat_id] = {m.id: _fingerprint(m) for m in messages}
        return state

    def replace_chat_state(self, chat_id: str, state: EngineState) -> None:
        """Make ``state`` the chat's whole history and state, in one transaction."""
        ids = [m.id for m in state.messages]
        if len(set(ids)) != len(ids):
            raise StorageError("The conversation to restore has duplicate message ids.")
        parts = StateParts.of(state)
        try:
            with self._write() as conn:
                conn.execute("DELETE FROM messages WHERE chat_id = ?", (chat_id,))
                for seq, message in enumerate(state.messages):
                    self._insert_message(conn, chat_id, message, seq)
                self._write_state(conn, chat_id, parts, None)
                conn.execute("UPDATE chats SET message_count = ?, updated_at = ? WHERE id = ?",
                             (len(ids), _now(), chat_id))
        except StorageError as exc:
            if isinstance(exc.__cause__, sqlite3.IntegrityError):
                raise StorageError(
                    "These messages already belong to another chat (import the file again to "
                    "get fresh ids)."
                ) from exc
            raise
        self._prints[chat_id] = {m.id: _fingerprint(m) for m in state.messages}
        self._parts[chat_id] = parts.copy()

    # ---------------------------------------------------------------- snapshots
    def create_snapshot(self, chat_id: str, state: EngineState, *, reason: str, label: str = "",
                        model: str | None = None, tier: int | None = None,
                        keep_auto: int = 20) -> SnapshotInfo:
        """Store an immutable copy; keeps the newest ``keep_auto`` automatic ones per chat."""
        info = SnapshotInfo.model_validate({
            "id": new_id(), "chat_id": chat_id, "created_at": datetime.now(UTC),
            "reason": reason, "label": label, "auto": reason != "manual",
            "message_count": len(state.messages), "tokens": state_tokens(state),
            "checkpoint_count": len(state.groups), "model": model, "tier": tier,
        })
        with self._write() as conn:
            conn.execute(
                f"INSERT INTO snapshots ({INFO_COLUMNS}, state) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (info.id, chat_id, _iso(info.created_at), info.reason, info.label, info.auto,
                 info.message_count, info.tokens, info.checkpoint_count, model, tier,
                 encode_state(state)),
            )
            conn.execute(
                "DELETE FROM snapshots WHERE chat_id = ? AND auto = 1 AND id NOT IN ("
                "SELECT id FROM snapshots WHERE chat_id = ? AND auto = 1 "
                "ORDER BY created_at DESC, rowid DESC LIMIT ?)",
                (chat_id, chat_id, max(0, keep_auto)),
            )
        return info

    def list_snapshots(self, chat_id: str) -> list[SnapshotInfo]:
        with self._read() as conn:
            rows = conn.execute(
                f"SELECT {INFO_COLUMNS} FROM snapshots WHERE chat_id = ? "
                "ORDER BY created_at DESC, rowid DESC", (chat_id,)).fetchall()
        return [info_from_row(r) for r in rows]

    def get_snapshot(self, snapshot_id: str) -> Snapshot:
        """KeyError when it does not exist (deleted, or pruned by retention)."""
        with self._read() as conn:
            row = conn.execute(f"SELECT {INFO_COLUMNS}, state FROM snapshots WHERE id = ?",
                               (snapshot_id,)).fetchone()
        if row is None:
            raise KeyError(snapshot_id)
        return Snapshot(info=info_from_row(row[:-1]), state=decode_state(row[-1]))

    def delete_snapshot(self, snapshot_id: str) -> None:
        with self._write() as conn:
            conn.execute("DELETE FROM snapshots WHERE id = ?", (snapshot_id,))

    # ------------------------------------------------------------------- search
    def search(self, text: str) -> list[SearchHit]:
        """Case-insensitive substring search over every message, newest first."""
        needle = text.strip().casefold()
        if not needle:
            return []
        base = ("SELECT m.chat_id, c.title, m.id, m.role, m.content, m.created_at "
                "FROM message_search s JOIN messages m ON m.rowid = s.rowid "
                "JOIN chats c ON c.id = m.chat_id WHERE ")
        order = " ORDER BY m.created_at DESC, m.rowid DESC LIMIT ?"
        if self.search_kind == "fts5-trigram" and len(needle) >= 3:
            query = base + "message_search MATCH ?" + order
            argument = '"' + needle.replace('"', '""') + '"'
        else:  # short needles are below the trigram size: scan
            query = base + "s.body LIKE ? ESCAPE '\\'" + order
            argument = _like_pattern(needle)
        with self._read() as conn:
            rows = conn.execute(query, (argument, SEARCH_LIMIT)).fetchall()
        return [
            SearchHit(chat_id=chat_id, chat_title=title, message_id=mid, role=role,
                      snippet=_snippet(content, needle),
                      created_at=datetime.fromisoformat(created))
            for chat_id, title, mid, role, content, created in rows
        ]

    # -------------------------------------------------------------- calibration
    def get_calibration(self, model: str) -> tuple[float, int] | None:
        with self._read() as conn:
            row = conn.execute("SELECT factor, samples FROM calibration WHERE model = ?",
                               (model,)).fetchone()
        return (float(row[0]), int(row[1])) if row else None

    def set_calibration(self, model: str, factor: float, samples: int) -> None:
        with self._write() as conn:
            conn.execute(
                "INSERT INTO calibration (model, factor, samples, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (model) DO UPDATE SET factor = "
                "excluded.factor, samples = excluded.samples, updated_at = excluded.updated_at",
                (model, factor, samples, _now()),
            )
