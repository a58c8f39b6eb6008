"""Recall's side of the store: the index of each chat, messages excluded from recall, what a
reply recalled, and the rounds' embeddings (``storage.recall_index`` keeps the index itself).

A message's recall marks live in ``messages.meta`` under ``recall`` (``excluded``, and on a
reply ``record``: a ``RecallRecord``); rewriting a message's meta keeps them
(:data:`KEEP_RECALL`). Excluding a message excludes it in every chat of its family that holds
a copy of it (branches share its ``origin``); a branch made later inherits the mark.
Embeddings are float32 blobs on the round's row with their model's name and dimension.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from pydantic import ValidationError

from ollm_desktop.storage import recall_index
from ollm_desktop.storage.database import Database
from ollm_desktop.storage.models import RecallRecord
from ollm_desktop.storage.recall_index import RecallIndex

# ``meta = <this>`` with one parameter, the new meta: its recall marks survive the rewrite.
KEEP_RECALL = ("json_patch(?, json_object('recall', CASE WHEN json_valid(meta) THEN "
               "json(json_extract(meta, '$.recall')) END))")
_RECALL = "CASE WHEN json_valid(meta) THEN json_extract(meta, '$.recall') END"


def _round_text(user: str | None, reply: str | None) -> str:
    """What a round's embedding is made from."""
    return f"{user or ''}\n{reply or ''}".strip()


class RecallTables(Database):
    def __init__(self, conn: sqlite3.Connection, path: object) -> None:
        super().__init__(conn, path)  # type: ignore[arg-type]
        self.recall_searchable = recall_index.ensure(conn)
        self._recall_indexes: dict[str, RecallIndex] = {}

    def recall_index(self, chat_id: str) -> RecallIndex:
        """The search over one chat's rounds (``engine.recall.RecallSource``)."""
        index = self._recall_indexes.get(chat_id)
        if index is None:
            index = self._recall_indexes[chat_id] = RecallIndex(self._conn, chat_id)
        return index

    # ----------------------------------------------------------------- marks
    @staticmethod
    def recall_marks_of(conn: sqlite3.Connection, chat_id: str) -> list[tuple[str, str]]:
        """(message id, recall JSON) of the chat's marked messages."""
        return [(r[0], r[1]) for r in conn.execute(
            f"SELECT id, {_RECALL} FROM messages WHERE chat_id = ? AND {_RECALL} IS NOT NULL",
            (chat_id,))]

    @staticmethod
    def put_recall_marks(conn: sqlite3.Connection, marks: Sequence[tuple[str, str]],
                         chat_id: str) -> None:
        """Marks back on the messages that still exist; copies inherit their original's
        exclusion (a branch of a chat whose message was excluded)."""
        conn.executemany("UPDATE messages SET meta = json_set(meta, '$.recall', json(?)) "
                         "WHERE id = ?", [(mark, message_id) for message_id, mark in marks])
        conn.execute(
            "UPDATE messages SET meta = json_set(meta, '$.recall.excluded', json('true')) "
            "WHERE chat_id = ? AND json_valid(meta) AND json_extract(meta, '$.origin') IN ("
            "SELECT o.id FROM messages o WHERE o.id IN (SELECT json_extract(meta, '$.origin') "
            "FROM messages WHERE chat_id = ? AND json_valid(meta)) "
            "AND json_extract(o.meta, '$.recall.excluded'))", (chat_id, chat_id))

    def set_recall_excluded(self, message_id: str, excluded: bool) -> list[str]:
        """Exclude a message from recall (or take it back), in every chat of its family that
        holds it; returns the ids changed. Their rounds leave (or rejoin) the index."""
        origin = ("coalesce(CASE WHEN json_valid(m.meta) THEN json_extract(m.meta, '$.origin') "
                  "END, m.id)")
        with self._write() as conn:
            row = conn.execute(f"SELECT coalesce(c.root_id, c.id), {origin} FROM messages m "
                               "JOIN chats c ON c.id = m.chat_id WHERE m.id = ?",
                               (message_id,)).fetchone()
            if row is None:
                return []
            family, first = row
            rows = conn.execute(
                "SELECT m.id, m.chat_id, m.seq FROM messages m JOIN chats c ON c.id = m.chat_id "
                f"WHERE (c.id = ? OR c.root_id = ?) AND (m.id = ? OR {origin} = ?)",
                (family, family, message_id, first)).fetchall()
            meta = "CASE WHEN json_valid(meta) THEN meta ELSE '{}' END"
            update = (f"json_set({meta}, '$.recall.excluded', json('true'))" if excluded else
                      f"json_remove({meta}, '$.recall.excluded')")
            for found_id, chat_id, seq in rows:
                conn.execute(f"UPDATE messages SET meta = {update} WHERE id = ?", (found_id,))
                conn.execute("UPDATE messages SET meta = json_remove(meta, '$.recall') WHERE "
                             "id = ? AND json_extract(meta, '$.recall') = '{}'", (found_id,))
                recall_index.refresh_around(conn, chat_id, seq)
        return sorted(r[0] for r in rows)

    def recall_excluded(self, chat_id: str) -> set[str]:
        """The chat's messages excluded from recall."""
        with self._read() as conn:
            return {r[0] for r in conn.execute(
                "SELECT id FROM messages WHERE chat_id = ? AND json_valid(meta) AND "
                "json_extract(meta, '$.recall.excluded')", (chat_id,))}

    def set_recalled(self, message_id: str, record: RecallRecord) -> None:
        """What a reply's request recalled, kept with the reply."""
        with self._write() as conn:
            conn.execute("UPDATE messages SET meta = json_set(CASE WHEN json_valid(meta) THEN "
                         "meta ELSE '{}' END, '$.recall.record', json(?)) WHERE id = ?",
                         (record.model_dump_json(), message_id))

    def recalled(self, chat_id: str) -> dict[str, RecallRecord]:
        """Per reply of the chat, what its request recalled (an unreadable record is left
        out: the reply itself never is)."""
        with self._read() as conn:
            rows = conn.execute(
                "SELECT id, json_extract(meta, '$.recall.record') FROM messages WHERE "
                "chat_id = ? AND json_valid(meta) AND json_extract(meta, '$.recall.record') "
                "IS NOT NULL", (chat_id,)).fetchall()
        found: dict[str, RecallRecord] = {}
        for message_id, text in rows:
            try:
                found[message_id] = RecallRecord.model_validate_json(text)
            except (ValidationError, ValueError):
                continue
        return found

    # ------------------------------------------------------------ embeddings
    def rounds_to_embed(self, chat_id: str, model: str, limit: int) -> list[tuple[int, str]]:
        """(rowid, text) of the chat's rounds without a vector of ``model``, newest first."""
        with self._read() as conn:
            rows = conn.execute(
                "SELECT r.rowid, t.user, t.reply FROM recall_rounds r JOIN recall_text t "
                "ON t.rowid = r.rowid WHERE r.chat_id = ? AND (r.vector_model IS NOT ? "
                "OR r.vector IS NULL) ORDER BY r.rowid DESC LIMIT ?",
                (chat_id, model, limit)).fetchall()
        return [(rowid, _round_text(user, reply)) for rowid, user, reply in rows]

    def put_vectors(self, model: str, vectors: Sequence[tuple[int, bytes, int, str]]) -> int:
        """(rowid, float32 bytes, dimension, text embedded) of rounds embedded by ``model``;
        how many were written.

        A round derived again while its embedding was in flight (its reply arrived, a message
        was edited or deleted) keeps its rowid: a vector is written only onto a round that
        still reads the text it was made from and has none of ``model`` yet."""
        if not vectors:
            return 0
        with self._write() as conn:
            marks = ", ".join("?" for _ in vectors)
            now = {rowid: _round_text(user, reply) for rowid, user, reply in conn.execute(
                f"SELECT rowid, user, reply FROM recall_text WHERE rowid IN ({marks})",
                [v[0] for v in vectors])}
            fresh = [(blob, model, dims, rowid, model) for rowid, blob, dims, text in vectors
                     if now.get(rowid) == text]
            written = conn.executemany("UPDATE recall_rounds SET vector = ?, vector_model = ?, "
                                       "vector_dims = ? WHERE rowid = ? AND (vector IS NULL "
                                       "OR vector_model IS NOT ?)", fresh).rowcount
        return max(0, written)

    def vectors(self, chat_id: str, model: str) -> list[tuple[int, bytes, int]]:
        with self._read() as conn:
            return [(r[0], r[1], r[2]) for r in conn.execute(
                "SELECT rowid, vector, vector_dims FROM recall_rounds WHERE chat_id = ? AND "
                "vector_model = ? AND vector IS NOT NULL", (chat_id, model))]

    def vectors_version(self, chat_id: str, model: str) -> tuple[int, int]:
        """Changes when the chat's vectors of ``model`` change (count, and the rowids'
        sum: a round made again loses its vector)."""
        with self._read() as conn:
            row = conn.execute("SELECT count(*), coalesce(sum(rowid), 0) FROM recall_rounds "
                               "WHERE chat_id = ? AND vector_model = ? AND vector IS NOT NULL",
                               (chat_id, model)).fetchone()
        return int(row[0]), int(row[1])
