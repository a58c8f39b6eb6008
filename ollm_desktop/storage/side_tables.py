"""Snapshots, search and token calibrations: the store's tables beside chats and messages."""

from __future__ import annotations

from datetime import UTC, datetime

from ollm_desktop.engine.models import EngineState, new_id
from ollm_desktop.storage.database import Database
from ollm_desktop.storage.models import SearchHit, Snapshot, SnapshotInfo
from ollm_desktop.storage.rows import SEARCH_LIMIT, iso, like_pattern, now, snippet
from ollm_desktop.storage.snapshots import (
    INFO_COLUMNS,
    decode_state,
    encode_state,
    info_from_row,
    state_tokens,
)


class SideTables(Database):
    # ---------------------------------------------------------------- snapshots
    def create_snapshot(self, chat_id: str, state: EngineState, *, reason: str, label: str = "",
                        model: str | None = None, tier: int | None = None,
                        keep_auto: int = 20, encoded: bytes | None = None) -> SnapshotInfo:
        """Store an immutable copy; keeps the newest ``keep_auto`` automatic ones per chat.
        ``encoded``: ``encode_state(state)`` made already (off the event loop: it is slow)."""
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
                (info.id, chat_id, iso(info.created_at), info.reason, info.label, info.auto,
                 info.message_count, info.tokens, info.checkpoint_count, model, tier,
                 encoded if encoded is not None else encode_state(state)),
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
    def search(self, text: str, prefer: str | None = None) -> list[SearchHit]:
        """Case-insensitive substring search over every message, newest first.

        A message copied into branches (an edit, a regenerate) is one hit: the one in
        ``prefer`` (the open chat) if it is there, else in its most recently used chat.
        """
        needle = text.strip().casefold()
        if not needle:
            return []
        base = ("SELECT m.chat_id, c.title, m.id, m.role, m.content, m.created_at, "
                "coalesce(c.root_id, c.id), coalesce(json_extract(m.meta, '$.origin'), m.id), "
                "c.id = ?, c.updated_at "
                "FROM message_search s JOIN messages m ON m.rowid = s.rowid "
                "JOIN chats c ON c.id = m.chat_id WHERE c.trashed_at IS NULL AND ")
        order = " ORDER BY m.created_at DESC, m.rowid DESC LIMIT ?"
        if self.search_kind == "fts5-trigram" and len(needle) >= 3:
            query = base + "message_search MATCH ?" + order
            argument = '"' + needle.replace('"', '""') + '"'
        else:  # short needles are below the trigram size: scan
            query = base + "s.body LIKE ? ESCAPE '\\'" + order
            argument = like_pattern(needle)
        with self._read() as conn:
            rows = conn.execute(query, (prefer, argument, SEARCH_LIMIT)).fetchall()
        best: dict[tuple[str, str], tuple] = {}
        for row in rows:  # one hit per message of a family: the preferred copy
            key, rank = (row[6], row[7]), (bool(row[8]), row[9])
            if key not in best or rank > (bool(best[key][8]), best[key][9]):
                best[key] = row
        kept = {id(row) for row in best.values()}
        return [
            SearchHit(chat_id=chat_id, chat_title=title, message_id=mid, role=role,
                      snippet=snippet(content, needle),
                      created_at=datetime.fromisoformat(created))
            for chat_id, title, mid, role, content, created, *_ in (
                row for row in rows if id(row) in kept)
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
                (model, factor, samples, now()),
            )

    # ------------------------------------------------------------ chat marks
    def has_chat_mark(self, chat_id: str, mark: str) -> bool:
        """A one-off fact about a chat (e.g. its compression warning was shown)."""
        with self._read() as conn:
            row = conn.execute("SELECT 1 FROM ollm_meta WHERE key = ?",
                               (f"chat:{chat_id}:{mark}",)).fetchone()
        return row is not None

    def set_chat_mark(self, chat_id: str, mark: str) -> None:
        with self._write() as conn:
            conn.execute("INSERT OR REPLACE INTO ollm_meta (key, value) VALUES (?, ?)",
                         (f"chat:{chat_id}:{mark}", now()))

    # ----------------------------------------------------------- chat values
    def chat_value(self, chat_id: str, name: str) -> str | None:
        """A small remembered value of a chat (its draft, its model's last known size)."""
        with self._read() as conn:
            row = conn.execute("SELECT value FROM ollm_meta WHERE key = ?",
                               (f"chat:{chat_id}:value:{name}",)).fetchone()
        return str(row[0]) if row else None

    def set_chat_value(self, chat_id: str, name: str, value: str | None) -> None:
        """Remember ``value`` for the chat; None (or "") forgets it."""
        key = f"chat:{chat_id}:value:{name}"
        with self._write() as conn:
            if value:
                conn.execute("INSERT OR REPLACE INTO ollm_meta (key, value) VALUES (?, ?)",
                             (key, value))
            else:
                conn.execute("DELETE FROM ollm_meta WHERE key = ?", (key,))
