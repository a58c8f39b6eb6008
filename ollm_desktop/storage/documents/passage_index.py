"""The word index of documents' passages (FTS5, ``porter unicode61``, BM25), shared by every
chat: a document's content is indexed once, whichever chats it is attached to.

Two tables: ``document_passages`` (each passage's document, position, section, pages, lines,
token count, embedding) and ``document_text`` (FTS5: the passage's text and its section, rowid
= the passage's rowid). The section is weighted above the text: a passage under "Retries" is
about retries even where its sentences say "it". A search names the documents it may look in
(a chat's attached, not removed ones), joined on ``document_passages``: a column filter in the
MATCH itself (an OR of 80 document tokens) took three times as long at 10,000 passages.

:class:`PassageIndex` is the engine's ``PassageSource`` for a set of documents; on a
connection of its own (``sqlite3.connect(":memory:")``) it makes its tables, for the
document benchmark.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence

from ollm_desktop.engine.document_context import FoundPassage
from ollm_desktop.engine.passages import Passage
from ollm_desktop.storage.recall_terms import match_expression, query_terms
from ollm_desktop.storage.schema import fts5_has

WEIGHTS = (1.0, 1.5)  # BM25 per column: text, section
CANDIDATES = 48


def create_tables(conn: sqlite3.Connection) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS document_passages (rowid INTEGER PRIMARY KEY, "
                 "document_id TEXT NOT NULL, ordinal INTEGER NOT NULL, section TEXT NOT NULL, "
                 "first_page INTEGER, last_page INTEGER, first_line INTEGER, last_line INTEGER, "
                 "tokens INTEGER NOT NULL, vector BLOB, vector_model TEXT, "
                 "UNIQUE (document_id, ordinal))")
    exists = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'document_text'").fetchone()
    if exists:
        return
    if fts5_has("porter unicode61"):
        conn.execute("CREATE VIRTUAL TABLE document_text USING fts5(text, section, "
                     "tokenize='porter unicode61')")
        conn.execute("INSERT INTO document_text (document_text, rank) VALUES ('rank', ?)",
                     ("bm25(" + ", ".join(str(w) for w in WEIGHTS) + ")",))
    else:  # no FTS5: the text is kept, search finds nothing (whole documents still go)
        conn.execute("CREATE TABLE document_text (rowid INTEGER PRIMARY KEY, text TEXT, "
                     "section TEXT)")


def add_passages(conn: sqlite3.Connection, document_id: str,
                 passages: Sequence[Passage]) -> None:
    """Index one document's passages (in the caller's transaction)."""
    start = conn.execute("SELECT coalesce(max(rowid), 0) + 1 FROM document_passages"
                         ).fetchone()[0]
    conn.executemany(
        "INSERT INTO document_passages (rowid, document_id, ordinal, section, first_page, "
        "last_page, first_line, last_line, tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(start + i, document_id, p.ordinal, p.section, p.first_page, p.last_page,
          p.first_line, p.last_line, p.tokens) for i, p in enumerate(passages)])
    conn.executemany("INSERT INTO document_text (rowid, text, section) VALUES (?, ?, ?)",
                     [(start + i, p.text, p.section) for i, p in enumerate(passages)])


def drop_passages(conn: sqlite3.Connection, document_id: str) -> None:
    rowids = [(r[0],) for r in conn.execute(
        "SELECT rowid FROM document_passages WHERE document_id = ?", (document_id,))]
    conn.executemany("DELETE FROM document_text WHERE rowid = ?", rowids)
    conn.execute("DELETE FROM document_passages WHERE document_id = ?", (document_id,))


_READ = ("SELECT p.rowid, p.document_id, p.ordinal, t.text, p.tokens, p.section, p.first_page, "
         "p.last_page, p.first_line, p.last_line FROM document_passages p "
         "JOIN document_text t ON t.rowid = p.rowid")


def _passage(row: tuple) -> tuple[int, str, Passage]:
    return row[0], row[1], Passage(row[2], row[3], row[4], row[5], row[6], row[7], row[8],
                                   row[9])


class PassageIndex:
    """Search the passages of some documents (``engine.document_context.PassageSource``)."""

    def __init__(self, conn: sqlite3.Connection, document_ids: Iterable[str] = ()) -> None:
        self.conn = conn
        create_tables(conn)
        self.document_ids = tuple(document_ids)
        sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'document_text'"
                           ).fetchone()
        self.searchable = "fts5" in str(sql[0]).lower()

    def search(self, text: str, *, limit: int = CANDIDATES) -> list[FoundPassage]:
        """The passages sharing words with ``text``, best first (BM25, higher is better)."""
        terms = query_terms(text)
        if not self.searchable or not terms or not self.document_ids or limit <= 0:
            return []
        rows = self.conn.execute(
            "SELECT t.rowid, -t.rank FROM document_text t JOIN document_passages p "
            "ON p.rowid = t.rowid WHERE t.document_text MATCH ? AND p.document_id IN "
            "(SELECT value FROM json_each(?)) ORDER BY t.rank LIMIT ?",
            (match_expression(terms), json.dumps(self.document_ids), limit)).fetchall()
        scores = {rowid: score for rowid, score in rows}
        found = self.by_rowid(list(scores))
        return [FoundPassage(rowid, found[rowid][0], found[rowid][1], scores[rowid])
                for rowid, _ in rows if rowid in found]

    def by_rowid(self, rowids: Sequence[int]) -> dict[int, tuple[str, Passage]]:
        if not rowids:
            return {}
        marks = ", ".join("?" for _ in rowids)
        return {rowid: (doc, passage) for rowid, doc, passage in map(_passage, self.conn.execute(
            f"{_READ} WHERE p.rowid IN ({marks})", tuple(rowids)))}

    def neighbour(self, document_id: str, ordinal: int) -> FoundPassage | None:
        """The passage at ``ordinal`` of a document (a hit's neighbour), if any."""
        row = self.conn.execute(f"{_READ} WHERE p.document_id = ? AND p.ordinal = ?",
                                (document_id, ordinal)).fetchone()
        if row is None:
            return None
        rowid, doc, passage = _passage(row)
        return FoundPassage(rowid, doc, passage, 0.0)

    def passages(self, document_id: str) -> list[Passage]:
        """Every passage of a document, in order (the whole text, the reader)."""
        return [_passage(r)[2] for r in self.conn.execute(
            f"{_READ} WHERE p.document_id = ? ORDER BY p.ordinal", (document_id,))]

    def __len__(self) -> int:
        marks = ", ".join("?" for _ in self.document_ids)
        return int(self.conn.execute(
            f"SELECT count(*) FROM document_passages WHERE document_id IN ({marks})",
            self.document_ids).fetchone()[0])
