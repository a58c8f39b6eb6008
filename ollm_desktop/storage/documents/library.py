"""The store's documents: each content stored and indexed once (``document_files``, keyed by
the SHA-256 of its bytes), attached to chats (``chat_documents``: the name the user gave it,
where it came from, whether its removal can still be undone).

The original bytes are kept, so a file deleted or moved after attaching still serves (its text
and its passages come from the database, never from the disk); the disk is only looked at to
notice a change (:func:`disk_state`). A document no chat refers to any more goes with
:meth:`DocumentTables.purge_unused_documents`.
"""

from __future__ import annotations

import json
import os
import sqlite3
from typing import Literal

from ollm_desktop.engine.document_text import ExtractedText
from ollm_desktop.engine.passages import Passage
from ollm_desktop.storage.database import Database
from ollm_desktop.storage.documents import passage_index
from ollm_desktop.storage.documents.models import AttachedDocument, ExportedDocument
from ollm_desktop.storage.documents.passage_index import PassageIndex
from ollm_desktop.storage.documents.preparing import (
    PreparedDocument,
    document_id,
    prepare_text,
)
from ollm_desktop.storage.rows import now

DiskState = Literal["same", "changed", "missing", "unknown"]


def create_tables(conn: sqlite3.Connection) -> None:
    """Schema step 8 (``schema._documents_v8``; numbered 8 because another branch adds step 7,
    the numbers follow the order of ``schema.MIGRATIONS``): new tables only, so the salvage's
    stand-in schema page needs none of them."""
    conn.execute("CREATE TABLE document_files (id TEXT PRIMARY KEY, format TEXT NOT NULL, "
                 "size INTEGER NOT NULL, pages INTEGER NOT NULL, data BLOB, "
                 "text TEXT NOT NULL, created_at TEXT NOT NULL)")
    conn.execute("CREATE TABLE chat_documents (chat_id TEXT NOT NULL REFERENCES chats (id) "
                 "ON DELETE CASCADE, document_id TEXT NOT NULL REFERENCES document_files (id), "
                 "name TEXT NOT NULL, path TEXT, mtime REAL, added_at TEXT NOT NULL, "
                 "removed INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (chat_id, document_id))")
    conn.execute("CREATE INDEX chat_documents_document ON chat_documents (document_id)")
    passage_index.create_tables(conn)


_ATTACHED = ("SELECT c.chat_id, c.document_id, c.name, f.format, f.size, f.pages, "
             "(SELECT count(*) FROM document_passages p WHERE p.document_id = f.id), "
             "(SELECT coalesce(sum(tokens), 0) FROM document_passages p "
             "WHERE p.document_id = f.id), c.path, c.mtime, c.added_at, c.removed, "
             "f.data IS NOT NULL FROM chat_documents c JOIN document_files f "
             "ON f.id = c.document_id")


def _attached(row: tuple) -> AttachedDocument:
    return AttachedDocument(chat_id=row[0], document_id=row[1], name=row[2], format=row[3],
                            size=row[4], pages=row[5], passages=row[6], tokens=row[7],
                            path=row[8], mtime=row[9], added_at=row[10], removed=bool(row[11]),
                            has_file=bool(row[12]))


class DocumentTables(Database):
    # ------------------------------------------------------------- content
    def has_document(self, key: str) -> bool:
        """The content is stored and indexed already: attaching it again reads nothing."""
        with self._read() as conn:
            return conn.execute("SELECT 1 FROM document_files WHERE id = ?",
                                (key,)).fetchone() is not None

    def put_document(self, prepared: PreparedDocument) -> None:
        """Store and index a prepared document once (again: nothing is written; an imported,
        text-only copy gains its bytes when the file itself is attached)."""
        with self._write() as conn:
            row = conn.execute("SELECT data IS NOT NULL FROM document_files WHERE id = ?",
                               (prepared.document_id,)).fetchone()
            if row is not None:
                if not row[0] and prepared.data is not None:
                    conn.execute("UPDATE document_files SET data = ? WHERE id = ?",
                                 (prepared.data, prepared.document_id))
                return
            conn.execute("INSERT INTO document_files (id, format, size, pages, data, text, "
                          "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                          (prepared.document_id, prepared.text.format, prepared.size,
                           prepared.text.pages, prepared.data,
                           prepared.text.model_dump_json(), now()))
            passage_index.add_passages(conn, prepared.document_id, prepared.passages)

    def document_bytes(self, key: str) -> bytes | None:
        with self._read() as conn:
            row = conn.execute("SELECT data FROM document_files WHERE id = ?", (key,)).fetchone()
        return bytes(row[0]) if row and row[0] is not None else None

    def document_text(self, key: str) -> ExtractedText | None:
        with self._read() as conn:
            row = conn.execute("SELECT text FROM document_files WHERE id = ?", (key,)).fetchone()
        return ExtractedText.model_validate_json(row[0]) if row else None

    def document_passages(self, key: str) -> list[Passage]:
        with self._read() as conn:
            return PassageIndex(conn, [key]).passages(key)

    # --------------------------------------------------------------- chats
    def attach_document(self, chat_id: str, key: str, name: str, *, path: str | None = None,
                        mtime: float | None = None) -> AttachedDocument:
        """Attach stored content to a chat (again: the same row, shown again if removed)."""
        with self._write() as conn:
            conn.execute("INSERT INTO chat_documents (chat_id, document_id, name, path, mtime, "
                         "added_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (chat_id, "
                         "document_id) DO UPDATE SET removed = 0, name = excluded.name, "
                         "path = coalesce(excluded.path, path), "
                         "mtime = coalesce(excluded.mtime, mtime)",
                         (chat_id, key, name, path, mtime, now()))
        found = self.attached_document(chat_id, key)
        assert found is not None
        return found

    def attached_document(self, chat_id: str, key: str) -> AttachedDocument | None:
        with self._read() as conn:
            row = conn.execute(f"{_ATTACHED} WHERE c.chat_id = ? AND c.document_id = ?",
                               (chat_id, key)).fetchone()
        return _attached(row) if row else None

    def chat_documents(self, chat_id: str, *, removed: bool = False) -> list[AttachedDocument]:
        """The chat's documents in the order they were attached (``removed``: with those
        whose removal can still be undone)."""
        with self._read() as conn:
            rows = conn.execute(f"{_ATTACHED} WHERE c.chat_id = ? AND (? OR c.removed = 0) "
                                "ORDER BY c.added_at, c.rowid", (chat_id, removed)).fetchall()
        return [_attached(r) for r in rows]

    def copy_documents(self, source_chat: str, target_chat: str) -> None:
        """A branch or a fork has the documents its chat has (the same contents)."""
        with self._write() as conn:
            conn.execute("INSERT OR IGNORE INTO chat_documents (chat_id, document_id, name, path, "
                         "mtime, added_at) SELECT ?, document_id, name, path, mtime, added_at "
                         "FROM chat_documents WHERE chat_id = ? AND removed = 0",
                         (target_chat, source_chat))

    def document_id_at(self, chat_id: str, path: str) -> str | None:
        """The content attached to the chat most recently from ``path`` (not removed)."""
        with self._read() as conn:
            row = conn.execute("SELECT document_id FROM chat_documents WHERE chat_id = ? AND "
                               "path = ? AND removed = 0 ORDER BY added_at DESC, rowid DESC "
                               "LIMIT 1", (chat_id, path)).fetchone()
        return str(row[0]) if row else None

    def set_document_removed(self, chat_id: str, key: str, removed: bool) -> None:
        """Remove a document from the chat (True) or undo that (False); the content stays
        until :meth:`purge_unused_documents`."""
        with self._write() as conn:
            conn.execute("UPDATE chat_documents SET removed = ? WHERE chat_id = ? AND "
                         "document_id = ?", (int(removed), chat_id, key))

    def set_document_source(self, chat_id: str, key: str, path: str | None,
                            mtime: float | None) -> None:
        with self._write() as conn:
            conn.execute("UPDATE chat_documents SET path = ?, mtime = ? WHERE chat_id = ? AND "
                         "document_id = ?", (path, mtime, chat_id, key))

    def passage_index(self, chat_id: str) -> PassageIndex:
        """The search over the chat's attached documents (the engine's ``PassageSource``)."""
        return PassageIndex(self._conn, [d.document_id for d in self.chat_documents(chat_id)])

    # ------------------------------------------------------------ meaning
    def passages_to_embed(self, document_ids: list[str], model: str, limit: int
                          ) -> list[tuple[int, str]]:
        """(rowid, section and text) of passages of these documents without a vector of
        ``model``, in document order."""
        with self._read() as conn:
            return [(r[0], f"{r[1]}\n{r[2]}".strip()) for r in conn.execute(
                "SELECT p.rowid, p.section, t.text FROM document_passages p JOIN document_text t "
                "ON t.rowid = p.rowid WHERE p.document_id IN (SELECT value FROM json_each(?)) "
                "AND (p.vector IS NULL OR p.vector_model IS NOT ?) ORDER BY p.rowid LIMIT ?",
                (json.dumps(document_ids), model, limit))]

    def put_passage_vectors(self, model: str, rows: list[tuple[int, bytes]]) -> None:
        with self._write() as conn:
            conn.executemany("UPDATE document_passages SET vector = ?, vector_model = ? "
                             "WHERE rowid = ?", [(blob, model, rowid) for rowid, blob in rows])

    def passage_vectors(self, document_ids: list[str], model: str) -> list[tuple[int, bytes]]:
        """(rowid, float32 vector) of the passages of these documents embedded by ``model``."""
        with self._read() as conn:
            return [(r[0], bytes(r[1])) for r in conn.execute(
                "SELECT rowid, vector FROM document_passages WHERE document_id IN "
                "(SELECT value FROM json_each(?)) AND vector_model = ? AND vector IS NOT NULL",
                (json.dumps(document_ids), model))]

    # -------------------------------------------------------- export, import
    def exported_documents(self, chat_id: str) -> list[ExportedDocument]:
        """The chat's documents for an export: references and extracted text."""
        found = []
        for attached in self.chat_documents(chat_id):
            text = self.document_text(attached.document_id)
            if text is not None:
                found.append(ExportedDocument(document_id=attached.document_id,
                                              name=attached.name, size=attached.size,
                                              added_at=attached.added_at, text=text))
        return found

    def import_documents(self, chat_id: str, documents: list[ExportedDocument]) -> None:
        """Attach an export's documents to an imported chat (content already here is reused;
        otherwise the text is stored, without the file's bytes)."""
        for item in documents:
            if not self.has_document(item.document_id):
                self.put_document(prepare_text(item.document_id, item.size, item.text))
            self.attach_document(chat_id, item.document_id, item.name)

    def purge_unused_documents(self) -> int:
        """Forget removed attachments (their Undo is over) and the contents no chat refers
        to; returns how many contents went."""
        with self._write() as conn:
            conn.execute("DELETE FROM chat_documents WHERE removed = 1")
            unused = [r[0] for r in conn.execute(
                "SELECT id FROM document_files WHERE id NOT IN "
                "(SELECT document_id FROM chat_documents)")]
            for key in unused:
                passage_index.drop_passages(conn, key)
                conn.execute("DELETE FROM document_files WHERE id = ?", (key,))
        return len(unused)


def disk_state(document: AttachedDocument) -> DiskState:
    """Whether the file it was attached from still holds the same content: "missing" (the
    stored copy serves), "changed" (offer a re-read), "same", or "unknown" (no path)."""
    if not document.path:
        return "unknown"
    try:
        stat = os.stat(document.path)
    except OSError:
        return "missing"
    if document.mtime is not None and stat.st_mtime == document.mtime \
            and stat.st_size == document.size:
        return "same"
    try:
        with open(document.path, "rb") as handle:
            data = handle.read()
    except OSError:
        return "missing"
    return "same" if document_id(data) == document.document_id else "changed"

