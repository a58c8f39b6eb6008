"""The document benchmark's three ways of putting attached documents into a request.

- ``ours``: the app's (``ContextEngine.document_request``): whole documents when they fit
  their share, else passages cut along the documents' structure, found by BM25 with the newest
  user message and the turn before it, as many as the room holds.
- ``top-3 x 512``: the peers' default (Jan; Open WebUI's and AnythingLLM's are alike): the
  text cut into 512-token chunks overlapping by 64, BM25 over them with the newest user message
  alone, the best 3 appended whatever the window (no budget: what overflows, overflows).
- ``truncated``: the whole text of every document, in folder order, cut to the room the
  request leaves (Alpaca's whole-text inlining, made to fit).

Each returns the request's messages and the text it added to the newest user message.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from ollm_desktop.engine import ContextEngine, budget
from ollm_desktop.engine.document_context import AttachedText
from ollm_desktop.engine.tokens import encoding
from ollm_desktop.storage.documents.passage_index import PassageIndex
from ollm_desktop.storage.documents.preparing import PreparedDocument
from ollm_desktop.storage.recall_terms import match_expression, query_terms

STRATEGIES = ("ours", "top-3 x 512", "truncated")
CHUNK_TOKENS, CHUNK_OVERLAP, TOP_K = 512, 64, 3
INTRO = "(From the attached documents:)"


@dataclass(frozen=True, slots=True)
class Library:
    """The folder's documents, prepared once and indexed three ways."""

    names: list[str]
    attached: list[AttachedText]
    index: PassageIndex
    chunks: sqlite3.Connection  # FTS5 table ``chunk`` (text), the peers' 512-token chunks
    whole: str  # every document's text, in folder order


def whole_text(prepared: PreparedDocument) -> str:
    return "\n\n".join(block.text for block in prepared.text.blocks)


def library(documents: Sequence[tuple[str, PreparedDocument]]) -> Library:
    from ollm_desktop.storage.documents.passage_index import add_passages

    conn = sqlite3.connect(":memory:")
    index = PassageIndex(conn)
    attached = []
    for name, prepared in documents:
        add_passages(conn, prepared.document_id, prepared.passages)
        passages = prepared.passages
        attached.append(AttachedText(prepared.document_id, name,
                                     sum(p.tokens for p in passages),
                                     lambda passages=passages: passages))  # type: ignore[misc]
    index.document_ids = tuple(d.document_id for d in attached)
    chunks = sqlite3.connect(":memory:")
    chunks.execute("CREATE VIRTUAL TABLE chunk USING fts5(text, tokenize='porter unicode61')")
    enc = encoding()
    for _name, prepared in documents:
        tokens = enc.encode(whole_text(prepared), disallowed_special=())
        step = CHUNK_TOKENS - CHUNK_OVERLAP
        for start in range(0, max(1, len(tokens) - CHUNK_OVERLAP), step):
            chunks.execute("INSERT INTO chunk (text) VALUES (?)",
                           (enc.decode(tokens[start:start + CHUNK_TOKENS]),))
    return Library([n for n, _ in documents], attached, index, chunks,
                   "\n\n".join(f"{name}\n{whole_text(p)}" for name, p in documents))


def _appended(messages: list[dict[str, str]], text: str) -> list[dict[str, str]]:
    last = dict(messages[-1])
    last["content"] += text
    return [*messages[:-1], last]


def ours(engine: ContextEngine, lib: Library) -> tuple[list[dict[str, str]], str]:
    messages, sent = engine.document_request(lib.attached, lib.index)
    return messages, sent.text


def top3(engine: ContextEngine, lib: Library, question: str
         ) -> tuple[list[dict[str, str]], str]:
    terms = query_terms(question)
    messages = engine.api_messages()
    if not terms:
        return messages, ""
    rows = lib.chunks.execute("SELECT text FROM chunk WHERE chunk MATCH ? ORDER BY rank "
                              "LIMIT ?", (match_expression(terms), TOP_K)).fetchall()
    text = "\n\n" + INTRO + "\n" + "\n\n".join(r[0] for r in rows) if rows else ""
    return _appended(messages, text), text


def truncated(engine: ContextEngine, lib: Library) -> tuple[list[dict[str, str]], str]:
    messages = engine.api_messages()
    data = engine._data
    room = budget.usable_tokens(data.config) - engine.api_tokens() - data.count(INTRO) - 8
    if room <= 0:
        return messages, ""
    enc = encoding()
    # the engine's counts are scaled: leave the difference as margin
    tokens = enc.encode(lib.whole, disallowed_special=())
    keep = int(room / max(1.0, data.config.estimate_scale))
    text = "\n\n" + INTRO + "\n" + enc.decode(tokens[:keep])
    while data.count(text) > room + data.count(INTRO) and keep > 0:
        keep -= 16
        text = "\n\n" + INTRO + "\n" + enc.decode(tokens[:keep])
    return _appended(messages, text), text
