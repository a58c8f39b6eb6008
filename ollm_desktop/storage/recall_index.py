"""Recall's word index: every round of a chat (a user message and its reply), ranked by BM25.

Two tables: ``recall_text`` (FTS5, ``porter unicode61``: the round's user text, reply text,
fact keys and a token naming its chat) and ``recall_rounds`` (which messages a round holds,
its turn when no ``messages`` table says it, its embedding). A round's rowid is its first
message's ``messages.rowid``: a deleted message takes its round with it (a trigger) and the
store re-derives the rounds around any change (:func:`refresh_around`) in the same
transaction. A round is a user message and the assistant message right after it; an
assistant message after anything else is a round of its own. A round holding a message the
user excluded from recall (``messages.meta`` ``recall.excluded``) is not indexed.

Schema step 6 builds it from the stored messages; :func:`ensure` rebuilds it when it is
missing or of another index version. Where SQLite lacks FTS5 the tables are plain ones kept
in step the same way, and search finds nothing: recall is off.

:class:`RecallIndex` is the search over one chat (the engine's ``RecallSource``); on a
connection without a ``messages`` table it is a standalone index fed by ``add_round`` (the
memory benchmark's).
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from ollm_desktop.engine.recall import RecalledRound
from ollm_desktop.storage.recall_rounds import (
    READ_MESSAGES,
    Round,
    chat_token,
    message_of_row,
    rounds_of,
)
from ollm_desktop.storage.recall_terms import (
    match_expression,
    naming_hits,
    one_question,
    query_terms,
    quote,
    round_keys,
)
from ollm_desktop.storage.schema import fts5_has

INDEX_VERSION = "2"  # 2: a tool's result is indexed with its call
META_KEY = "recall-index"  # ollm_meta: "fts5:<version>" or "off:<version>"
WEIGHTS = (1.0, 1.0, 2.5, 0.0)  # BM25 per column: user, reply, keys, chat (a filter only)
# Relevance: a round is recalled when its BM25 score (higher is better) reaches MIN_SCORE and
# MIN_SHARE of the score of a round stating every query term (``_ideal``: so a round that
# only shares a common word, or one word of a long question, stays out), and RELATIVE of the
# best round's.
MIN_SCORE = 1.0
MIN_SHARE = 0.25
RELATIVE = 0.5
CANDIDATES = 64
# Query words naming a round's stated value that let it pass the threshold: at least NAMED
# and NAMED_SHARE of the query's words (a question about a key names little else; a message
# that only mentions a subject in passing says much more besides, and recalls nothing by it).
NAMED = 2
NAMED_SHARE = 0.4



def fts5_available() -> bool:
    """FTS5 with the porter tokenizer (any SQLite built with FTS5)."""
    return fts5_has("porter unicode61")


def create_tables(conn: sqlite3.Connection, *, fts: bool, triggers: bool = True) -> None:
    if fts:
        conn.execute("CREATE VIRTUAL TABLE recall_text USING fts5(user, reply, keys, chat, "
                     "tokenize='porter unicode61')")
        conn.execute("INSERT INTO recall_text (recall_text, rank) VALUES ('rank', ?)",
                     ("bm25(" + ", ".join(str(w) for w in WEIGHTS) + ")",))
    else:
        conn.execute("CREATE TABLE recall_text (rowid INTEGER PRIMARY KEY, user TEXT, "
                     "reply TEXT, keys TEXT, chat TEXT)")
    conn.execute("CREATE TABLE recall_rounds (rowid INTEGER PRIMARY KEY, chat_id TEXT NOT NULL, "
                 "user_id TEXT, reply_id TEXT, turn INTEGER, vector BLOB, vector_model TEXT, "
                 "vector_dims INTEGER)")
    conn.execute("CREATE INDEX recall_rounds_chat ON recall_rounds (chat_id)")
    if triggers:
        turn_index(conn)
        conn.execute("CREATE TRIGGER messages_recall_delete AFTER DELETE ON messages BEGIN "
                     "DELETE FROM recall_text WHERE rowid = old.rowid; "
                     "DELETE FROM recall_rounds WHERE rowid = old.rowid; END")


def turn_index(conn: sqlite3.Connection) -> None:
    """A round's turn number is a count of the user messages before it: from an index alone."""
    conn.execute("CREATE INDEX IF NOT EXISTS messages_recall_turn ON messages "
                 "(chat_id, role, seq)")


def create(conn: sqlite3.Connection) -> None:
    """Schema step 6: the tables, built from the messages already stored."""
    fts = fts5_available()
    create_tables(conn, fts=fts)
    rebuild(conn)
    conn.execute("INSERT OR REPLACE INTO ollm_meta (key, value) VALUES (?, ?)",
                 (META_KEY, f"{'fts5' if fts else 'off'}:{INDEX_VERSION}"))


def ensure(conn: sqlite3.Connection) -> bool:
    """At open: the index exists and is this version's (else it is made again, in one
    transaction); True when recall can search (FTS5)."""
    row = conn.execute("SELECT value FROM ollm_meta WHERE key = ?", (META_KEY,)).fetchone()
    tables = {r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE name IN ('recall_text', 'recall_rounds', "
        "'messages_recall_delete')")}
    kind, _, version = (row[0] if row else "").partition(":")
    wanted = "fts5" if fts5_available() else "off"
    if len(tables) == 3 and version == INDEX_VERSION and kind == wanted:
        turn_index(conn)
        return kind == "fts5"
    conn.execute("BEGIN IMMEDIATE")
    try:
        for name, what in (("messages_recall_delete", "TRIGGER"), ("recall_text", "TABLE"),
                           ("recall_rounds", "TABLE")):
            conn.execute(f"DROP {what} IF EXISTS {name}")
        create(conn)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return wanted == "fts5"


def _insert(conn: sqlite3.Connection, chat_id: str, rounds: Sequence[Round]) -> None:
    conn.executemany("INSERT INTO recall_text (rowid, user, reply, keys, chat) "
                     "VALUES (?, ?, ?, ?, ?)", [r.row(chat_id) for r in rounds])
    conn.executemany("INSERT INTO recall_rounds (rowid, chat_id, user_id, reply_id) "
                     "VALUES (?, ?, ?, ?)",
                     [(r.anchor, chat_id, r.user.id if r.user else None,
                       r.reply.id if r.reply else None) for r in rounds])


def _delete(conn: sqlite3.Connection, rowids: Sequence[int]) -> None:
    conn.executemany("DELETE FROM recall_text WHERE rowid = ?", [(i,) for i in rowids])
    conn.executemany("DELETE FROM recall_rounds WHERE rowid = ?", [(i,) for i in rowids])


def rebuild_all(conn: sqlite3.Connection) -> None:
    """Every chat's rounds made again, in a transaction of its own (after a salvage)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        rebuild(conn)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def rebuild(conn: sqlite3.Connection, chat_id: str | None = None) -> None:
    """Every round of ``chat_id`` (of every chat when None) made again from its messages."""
    if chat_id is None:
        conn.execute("DELETE FROM recall_text")
        conn.execute("DELETE FROM recall_rounds")
        chats = [r[0] for r in conn.execute("SELECT id FROM chats")]
    else:
        _delete(conn, [r[0] for r in conn.execute(
            "SELECT rowid FROM recall_rounds WHERE chat_id = ?", (chat_id,))])
        chats = [chat_id]
    for chat in chats:
        rows = conn.execute(f"{READ_MESSAGES} WHERE chat_id = ? ORDER BY seq", (chat,))
        _insert(conn, chat, rounds_of(message_of_row(r) for r in rows))


def refresh_around(conn: sqlite3.Connection, chat_id: str, seq: int) -> None:
    """Derive again the rounds a change at ``seq`` may have changed (an added, edited or
    deleted message): those between the user messages before and after it."""
    before = conn.execute("SELECT seq FROM messages WHERE chat_id = ? AND seq < ? AND "
                          "role = 'user' ORDER BY seq DESC LIMIT 1", (chat_id, seq)).fetchone()
    after = conn.execute("SELECT seq FROM messages WHERE chat_id = ? AND seq > ? AND "
                         "role = 'user' ORDER BY seq LIMIT 1", (chat_id, seq)).fetchone()
    low = before[0] if before else -(2**63)
    high = after[0] if after else 2**63 - 1
    messages = [message_of_row(r) for r in conn.execute(
        f"{READ_MESSAGES} WHERE chat_id = ? AND seq >= ? AND seq < ? ORDER BY seq",
        (chat_id, low, high))]
    wanted = {r.anchor: r for r in rounds_of(messages)}
    marks = ", ".join("?" for _ in messages)
    rowids = [m.rowid for m in messages]
    held = {r[0]: r[1:] for r in conn.execute(
        f"SELECT rowid, user, reply FROM recall_text WHERE rowid IN ({marks})", rowids)}
    stale = [rowid for rowid, texts in held.items()
             if rowid not in wanted or tuple(texts) != wanted[rowid].texts()]
    _delete(conn, stale)
    _insert(conn, chat_id, [r for anchor, r in wanted.items()
                            if anchor not in held or anchor in stale])


def seq_of(conn: sqlite3.Connection, message_id: str) -> int:
    row = conn.execute("SELECT seq FROM messages WHERE id = ?", (message_id,)).fetchone()
    return int(row[0]) if row else 0


def copy_recall_marks(conn: sqlite3.Connection, message_id: str, meta: object) -> None:
    """A salvaged message keeps its recall marks (the salvage writes its meta anew)."""
    if isinstance(meta, str) and '"recall"' in meta:
        conn.execute("UPDATE messages SET meta = json_set(meta, '$.recall', "
                     "json_extract(?, '$.recall')) WHERE id = ? AND json_valid(?)",
                     (meta, message_id, meta))


# ---------------------------------------------------------------------------- search
class RecallIndex:
    """The rounds of one chat, searched for a text (``engine.recall.RecallSource``).

    On the store's connection it reads the store's tables; on any other connection (e.g.
    ``sqlite3.connect(":memory:")``) it makes its own and is fed by :meth:`add_round`.
    """

    def __init__(self, conn: sqlite3.Connection, chat_id: str = "memory") -> None:
        self.conn = conn
        self.chat_id = chat_id
        self._token = chat_token(chat_id)
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        self.standalone = "messages" not in names
        if "recall_text" not in names:
            create_tables(conn, fts=fts5_available(), triggers=not self.standalone)
        sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'recall_text'").fetchone()
        self.searchable = "fts5" in str(sql[0]).lower()

    # ---------------------------------------------------------- standalone
    def add_round(self, user: str, reply: str = "", *,
                  message_ids: Sequence[str] | None = None, turn: int | None = None) -> int:
        """Index one round (standalone index); returns its turn number (1-based)."""
        if not self.standalone:
            raise RuntimeError("the store keeps its rounds in step with its messages")
        number = turn if turn is not None else len(self) + 1
        rowid = self.conn.execute("SELECT coalesce(max(rowid), 0) + 1 FROM recall_rounds"
                                  ).fetchone()[0]
        ids = list(message_ids) if message_ids else [f"{self.chat_id}:{number}:user",
                                                     f"{self.chat_id}:{number}:reply"]
        self.conn.execute("INSERT INTO recall_text (rowid, user, reply, keys, chat) "
                          "VALUES (?, ?, ?, ?, ?)",
                          (rowid, user, reply, round_keys(f"{user}\n{reply}"), self._token))
        self.conn.execute("INSERT INTO recall_rounds (rowid, chat_id, user_id, reply_id, turn) "
                          "VALUES (?, ?, ?, ?, ?)",
                          (rowid, self.chat_id, ids[0] if ids else None,
                           ids[1] if len(ids) > 1 else None, number))
        return number

    def __len__(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM recall_rounds WHERE chat_id = ?",
                                     (self.chat_id,)).fetchone()[0])

    # -------------------------------------------------------------- search
    def search(self, text: str, *, exclude: set[str], limit: int) -> list[RecalledRound]:
        """The rounds above the relevance threshold, best first (BM25 alone)."""
        ranked = self.ranked(text, exclude=exclude, limit=limit)
        found = self.rounds([rowid for rowid, _ in ranked])
        return [found[rowid].scored(score) for rowid, score in ranked if rowid in found]

    def ranked(self, text: str, *, exclude: set[str], limit: int = CANDIDATES
               ) -> list[tuple[int, float]]:
        """(rowid, BM25 score) of the rounds above the threshold, best first; a round whose
        messages are all in ``exclude`` (already in the request word for word) is skipped.

        A round that states a value named by ``NAMED`` or more of the query's words, and
        ``NAMED_SHARE`` of them (the key the question names: "for the webhook handler, which
        helper…" and "For the webhook handler: the helper … is X"), or, for a message that is
        one question, two of them side by side as in it (its noun phrase, "How many people
        signed up around the ablation table?"), in a sentence that states the value (not one
        that asks about it or suggests it), passes the threshold and
        goes first, the more naming words the earlier: a question about a subject many rounds
        chat about finds the round that states its value, not the one that repeats its words
        most."""
        terms = query_terms(text)
        if not self.searchable or not terms or limit <= 0:
            return []
        rows = self._bm25(terms, exclude, max(limit, CANDIDATES))
        if not rows:
            return []
        floor = max(MIN_SCORE, rows[0][1] * RELATIVE, self._ideal(terms) * MIN_SHARE)
        found = self.rounds([rowid for rowid, _ in rows])
        asked = sum(1 for _, weight in terms if weight == 1)
        need = max(NAMED, math.ceil(asked * NAMED_SHARE))
        asking = one_question(text)
        named: dict[int, int] = {}
        for rowid, _ in rows:
            if rowid in found:
                hits, phrase = naming_hits(terms, f"{found[rowid].user}\n{found[rowid].reply}")
                if hits >= need or (asking and phrase and hits >= NAMED):
                    named[rowid] = hits
        kept = [(rowid, score) for rowid, score in rows if score >= floor or rowid in named]
        kept.sort(key=lambda row: -named.get(row[0], 0))  # stable: BM25 order within
        return kept[:limit]

    def _bm25(self, terms: list[tuple[str, int]], exclude: set[str], limit: int
              ) -> list[tuple[int, float]]:
        query = f'chat : "{self._token}" AND ({match_expression(terms)})'
        rows = self.conn.execute(
            "SELECT t.rowid, -t.rank FROM recall_text t JOIN recall_rounds r "
            "ON r.rowid = t.rowid WHERE t.recall_text MATCH ? AND r.chat_id = ? AND NOT ("
            "(r.user_id IS NULL OR r.user_id IN (SELECT value FROM json_each(?))) AND "
            "(r.reply_id IS NULL OR r.reply_id IN (SELECT value FROM json_each(?)))) "
            "ORDER BY t.rank LIMIT ?",
            (query, self.chat_id, json.dumps(sorted(exclude)), json.dumps(sorted(exclude)),
             limit)).fetchall()
        return [(int(rowid), float(score)) for rowid, score in rows]

    def _ideal(self, terms: list[tuple[str, int]]) -> float:
        """The score of a round holding each term once in its text and once in its keys, at
        average length: the weighted IDF (as FTS5's BM25 counts it, over the whole table) of
        the terms that occur at all, times those columns' weights."""
        total = self.conn.execute("SELECT count(*) FROM recall_rounds").fetchone()[0]
        ideal = 0.0
        for term, weight in terms:
            rows = self.conn.execute("SELECT count(*) FROM recall_text WHERE recall_text MATCH ?",
                                     (quote(term),)).fetchone()[0]
            if rows:  # a word nobody said cannot be matched: it raises no bar
                ideal += weight * max(math.log((total - rows + 0.5) / (rows + 0.5)), 1e-6)
        return ideal * (max(WEIGHTS[:2]) + WEIGHTS[2])

    def rounds(self, rowids: Sequence[int]) -> dict[int, Found]:
        """The rounds behind ``rowids`` (of this chat), with their texts and turn numbers."""
        if not rowids:
            return {}
        marks = ", ".join("?" for _ in rowids)
        rows = self.conn.execute(
            f"SELECT r.rowid, r.user_id, r.reply_id, r.turn, t.user, t.reply FROM recall_rounds r "
            f"JOIN recall_text t ON t.rowid = r.rowid WHERE r.chat_id = ? AND r.rowid IN ({marks})",
            (self.chat_id, *rowids)).fetchall()
        found: dict[int, Found] = {}
        for rowid, user_id, reply_id, turn, user, reply in rows:
            ids = tuple(i for i in (user_id, reply_id) if i)
            found[rowid] = Found(ids, turn if turn is not None else self._turn(rowid),
                                 user or "", reply or "")
        return found

    def _turn(self, rowid: int) -> int:
        """The exchange number of a stored round: the user messages up to its first one."""
        row = self.conn.execute(
            "SELECT count(*) FROM messages WHERE chat_id = ? AND role = 'user' AND seq <= "
            "(SELECT seq FROM messages WHERE rowid = ?)", (self.chat_id, rowid)).fetchone()
        return max(1, int(row[0]))


@dataclass(frozen=True, slots=True)
class Found:
    message_ids: tuple[str, ...]
    turn: int
    user: str
    reply: str

    def scored(self, score: float) -> RecalledRound:
        return RecalledRound(self.message_ids, self.turn, self.user, self.reply, score)
