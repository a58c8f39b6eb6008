"""Recall in the session: what a send brings back from earlier in the open chat.

The engine asks a ``RecallSource`` for the rounds a new message asks about and puts the best
into the request (``ContextEngine.recall_request``). The source is the store's word index of
the open chat (BM25) and, when the user picked an embedding model, meaning search over the
rounds' embeddings, fused by reciprocal rank. The query's embedding never delays a send
beyond ``RECALL_BUDGET_S``: when it is late or fails the send goes with words alone (the
late answer is left to end by itself, so a send never waits on a cancelled connect; a send
that is stopped cancels its query, and ``close`` cancels what is left at shutdown).
Rounds are embedded in the background, after a reply and when a chat opens. What a send
recalled is kept with its reply (``RecallRecord``) so its row can say so after a restart.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ollm_desktop.backend import BackendError
from ollm_desktop.engine import ContextEngine, Message
from ollm_desktop.engine.recall import RecalledRound, RecallSource
from ollm_desktop.session.core import SessionCore
from ollm_desktop.session.events import NOTHING, Change
from ollm_desktop.session.query_embeddings import QueryEmbeddings
from ollm_desktop.storage import StorageError
from ollm_desktop.storage.models import RecalledItem, RecallRecord
from ollm_desktop.storage.recall_index import CANDIDATES, RecallIndex

log = logging.getLogger(__name__)

RECALL_BUDGET_S = 0.3  # the longest a send waits for its query's embedding
QUERY_TASK = "recall-query-embedding"
RRF_K = 60  # reciprocal rank fusion's constant (Cormack et al.)
SIMILARITY_FLOOR = 0.3  # cosine below which meaning search finds nothing (MiniLM-like)
EMBED_BATCH = 16
RETRY_AFTER_S = 60.0  # an embedding model that failed is not asked again before this
# Models trained with task prefixes (nomic-embed-text v1.5, embeddinggemma): (query, document).
PREFIXES = {"nomic-embed-text": ("search_query: ", "search_document: "),
            "embeddinggemma": ("task: search result | query: ", "title: none | text: ")}

OFF_NO_FTS = ("Recall is off: this SQLite has no full-text search (FTS5), so earlier messages "
              "cannot be searched.")
OFF_CHAT = "Recall is off for this chat."
WORDS_ONLY = "Recall searches this chat's earlier messages by their words."
NO_MODEL = " Pick an embedding model in Preferences to search by meaning too."
WITH_MODEL = " and by meaning ({0})."
MODEL_DOWN = " The embedding model {0} did not answer ({1}): words only for now."


def _prefixes(model: str) -> tuple[str, str]:
    base = model.split(":")[0].split("/")[-1]
    return PREFIXES.get(base, ("", ""))


def _unit(vector: Sequence[float]) -> np.ndarray:
    array = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(array))
    return array / norm if norm > 0 else array


@dataclass
class Vectors:
    """The open chat's round embeddings of one model, as one normalised matrix."""

    chat_id: str
    model: str
    version: tuple[int, int]
    rowids: np.ndarray
    matrix: np.ndarray


class FusedSource:
    """Words (BM25) and meaning (cosine over the rounds' embeddings), fused by reciprocal
    rank; each side keeps only what passes its own relevance floor."""

    def __init__(self, index: RecallIndex, query: np.ndarray, vectors: Vectors) -> None:
        self.index, self.query, self.vectors = index, query, vectors

    def meaning(self, exclude: set[str]) -> list[tuple[int, float]]:
        vectors = self.vectors
        if not len(vectors.rowids) or vectors.matrix.shape[1] != self.query.shape[0]:
            return []
        similarity = vectors.matrix @ self.query
        best = np.argsort(-similarity)[:CANDIDATES]
        ranked = [(int(vectors.rowids[i]), float(similarity[i])) for i in best
                  if similarity[i] >= SIMILARITY_FLOOR]
        rounds = self.index.rounds([rowid for rowid, _ in ranked])
        return [(rowid, score) for rowid, score in ranked if rowid in rounds
                and not set(rounds[rowid].message_ids) <= exclude]

    def search(self, text: str, *, exclude: set[str], limit: int) -> list[RecalledRound]:
        fused: dict[int, float] = {}
        for ranked in (self.index.ranked(text, exclude=exclude), self.meaning(exclude)):
            for rank, (rowid, _score) in enumerate(ranked):
                fused[rowid] = fused.get(rowid, 0.0) + 1.0 / (RRF_K + rank + 1)
        best = sorted(fused, key=lambda rowid: -fused[rowid])[:limit]
        found = self.index.rounds(best)
        return [found[rowid].scored(fused[rowid]) for rowid in best if rowid in found]


class RecallService:
    """Recall for the open chat: its source, its embeddings, its marks."""

    def __init__(self, core: SessionCore) -> None:
        self._core = core
        self._vectors: Vectors | None = None
        self._embedding: asyncio.Task[Any] | None = None
        self.queries = QueryEmbeddings(QUERY_TASK)  # each send's, late ones tracked
        self._down: tuple[str, str, float] | None = None  # model, reason, until
        self.semantic_used = False  # the last send's source searched by meaning too

    # ------------------------------------------------------------- state
    @property
    def model(self) -> str:
        return (self._core.settings.embedding_model or "").strip()

    def enabled(self) -> bool:
        chat = self._core.chat
        return (chat is not None and chat.settings.recall_on
                and self._core.store.recall_searchable)

    def status(self) -> str:
        """What recall does in the open chat (said under its switch in the chat settings)."""
        if not self._core.store.recall_searchable:
            return OFF_NO_FTS
        chat = self._core.chat
        if chat is not None and not chat.settings.recall_on:
            return OFF_CHAT
        model = self.model
        if not model:
            return WORDS_ONLY + NO_MODEL
        down = self._down
        if down is not None and down[0] == model and time.monotonic() < down[2]:
            return WORDS_ONLY + MODEL_DOWN.format(model, down[1])
        return WORDS_ONLY.rstrip(".") + WITH_MODEL.format(model)

    # ------------------------------------------------------------ the send
    async def request(self, engine: ContextEngine, user: Message
                      ) -> tuple[list[dict[str, str]], RecallRecord | None]:
        """The request for the newest user message, with what it recalls (None: nothing)."""
        recall_request = getattr(engine, "recall_request", None)
        if recall_request is None or not self.enabled() or not user.content.strip():
            return engine.api_messages(), None
        source = await self.source(user.content)
        messages, recalled = recall_request(source, user.content)
        if not recalled.rounds:
            return messages, None
        items = [RecalledItem(message_ids=list(r.message_ids), turn=max(1, r.turn),
                              partial=partial, score=r.score)
                 for r, partial in zip(recalled.rounds, recalled.partial, strict=False)]
        return messages, RecallRecord(items=items, text=recalled.text, tokens=recalled.tokens,
                                      semantic=self.semantic_used)

    async def source(self, text: str) -> RecallSource:
        """The open chat's source for ``text``: words, and meaning when its embedding came
        back within the budget."""
        chat = self._core.chat
        assert chat is not None
        index = self._core.store.recall_index(chat.id)
        self.semantic_used = False
        query = await self._query_vector(text)
        vectors = self._load_vectors() if query is not None else None
        if query is None or vectors is None:
            return index
        self.semantic_used = True
        return FusedSource(index, query, vectors)

    def keep(self, reply: Message, record: RecallRecord | None) -> RecallRecord | None:
        """Store what the reply's request recalled with the reply (a failed write is only
        logged: the reply itself is saved)."""
        if record is None:
            return None
        try:
            self._core.store.set_recalled(reply.id, record)
        except StorageError as exc:
            log.error("what a reply recalled could not be saved: %s", exc)
        return record

    # --------------------------------------------------------- embeddings
    def _available(self) -> bool:
        model, down = self.model, self._down
        if not model:
            return False
        return down is None or down[0] != model or time.monotonic() >= down[2]

    def _failed(self, reason: str) -> None:
        self._down = (self.model, reason, time.monotonic() + RETRY_AFTER_S)
        log.info("embedding model %s: %s", self.model, reason)

    async def _query_vector(self, text: str) -> np.ndarray | None:
        if not self._available():
            return None
        model = self.model
        try:
            vectors = await self.queries.within(
                self._core.backend.embed(model, [_prefixes(model)[0] + text]), RECALL_BUDGET_S)
        except BackendError as exc:
            self._failed(exc.message)
            return None
        if vectors is None:  # left to finish by itself, bounded by the client's timeout
            log.info("the query's embedding was late: words only for this send")
            return None
        if not vectors or not vectors[0]:
            self._failed("it returned no embedding")
            return None
        self._down = None
        return _unit(vectors[0])

    async def close(self) -> None:
        """At shutdown: end the query embeddings still running."""
        await self.queries.close()

    def _load_vectors(self) -> Vectors | None:
        chat, model = self._core.chat, self.model
        if chat is None or not model:
            return None
        store = self._core.store
        version = store.vectors_version(chat.id, model)
        held = self._vectors
        if held is not None and (held.chat_id, held.model, held.version) == (chat.id, model,
                                                                            version):
            return held
        rows = store.vectors(chat.id, model)
        dims = {d for _r, _b, d in rows}
        if not rows or len(dims) != 1:
            return None
        matrix = np.frombuffer(b"".join(blob for _r, blob, _d in rows), dtype=np.float32)
        self._vectors = Vectors(chat.id, model, version,
                                np.array([r for r, _b, _d in rows], dtype=np.int64),
                                matrix.reshape(len(rows), dims.pop()))
        return self._vectors

    def schedule_embedding(self) -> None:
        """Embed the open chat's rounds that have no vector yet, in the background."""
        if not self.enabled() or not self._available():
            return
        if self._embedding is not None and not self._embedding.done():
            return
        self._embedding = self._core.spawn(self.embed_rounds(), "recall-embed")

    async def embed_rounds(self) -> int:
        """Embed, batch by batch, until every round of the open chat has a vector; stops at
        a failure (said in the chat settings) or when the chat or model changes."""
        chat, model = self._core.chat, self.model
        if chat is None or not model:
            return 0
        store, done = self._core.store, 0
        prefix = _prefixes(model)[1]
        previous: list[tuple[int, str]] = []
        while self._core.chat is chat and self.model == model:
            batch = store.rounds_to_embed(chat.id, model, EMBED_BATCH)
            if not batch or batch == previous:  # nothing, or nothing of it could be written
                break
            try:
                vectors = await self._core.backend.embed(model, [prefix + t for _r, t in batch])
            except BackendError as exc:
                self._failed(exc.message)
                break
            if len(vectors) != len(batch):
                self._failed("it returned a different number of embeddings")
                break
            units = [_unit(v) for v in vectors]
            # A round derived again meanwhile (same rowid, new text) is not written: the next
            # batch embeds it as it reads now.
            done += store.put_vectors(model, [
                (rowid, unit.tobytes(), int(unit.shape[0]), text)
                for (rowid, text), unit in zip(batch, units, strict=True)])
            self._vectors = None  # a re-embedded round keeps its rowid: reload
            previous = batch
        return done

    # -------------------------------------------------------------- marks
    def set_excluded(self, message_id: str, excluded: bool) -> Change:
        """Keep a message out of recall (in every copy of it in the chat's family), or let
        it back in."""
        try:
            self._core.store.set_recall_excluded(message_id, excluded)
        except StorageError as exc:
            return self._core.storage_failed(exc)
        return NOTHING

    def excluded(self) -> set[str]:
        chat = self._core.chat
        return self._core.store.recall_excluded(chat.id) if chat is not None else set()

    def records(self) -> dict[str, RecallRecord]:
        """What each reply of the open chat recalled."""
        chat = self._core.chat
        return self._core.store.recalled(chat.id) if chat is not None else {}
