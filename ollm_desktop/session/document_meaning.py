"""Meaning search over attached documents, when the user picked an embedding model (the one
recall uses, Preferences).

Passages are embedded in the background after a document is attached and when a chat opens
(each content once: the vectors live on the passage rows, shared by every chat that has the
document). At a send the newest message, and it with the turn before, are embedded in one call
that waits at most ``RECALL_BUDGET_S``; when it is late or fails the send goes with words
alone. :class:`MeaningSource` then answers the engine's ``meaning`` ranking by cosine over the
chat's passage vectors.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import numpy as np

from ollm_desktop.backend import BackendError
from ollm_desktop.engine.document_context import FoundPassage
from ollm_desktop.session.core import SessionCore
from ollm_desktop.session.query_embeddings import QueryEmbeddings
from ollm_desktop.session.recall import (
    EMBED_BATCH,
    RECALL_BUDGET_S,
    SIMILARITY_FLOOR,
    _prefixes,
    _unit,
)
from ollm_desktop.storage.documents.passage_index import CANDIDATES, PassageIndex

log = logging.getLogger(__name__)


class MeaningSource:
    """Words from the index, meaning from the query vectors computed for this send."""

    def __init__(self, index: PassageIndex, queries: dict[str, np.ndarray],
                 rowids: np.ndarray, matrix: np.ndarray) -> None:
        self.index, self.queries, self.rowids, self.matrix = index, queries, rowids, matrix

    def search(self, text: str, *, limit: int = CANDIDATES) -> list[FoundPassage]:
        return self.index.search(text, limit=limit)

    def neighbour(self, document_id: str, ordinal: int) -> FoundPassage | None:
        return self.index.neighbour(document_id, ordinal)

    def meaning(self, text: str, *, limit: int = CANDIDATES) -> list[FoundPassage]:
        query = self.queries.get(text)
        if query is None or not len(self.rowids) or self.matrix.shape[1] != query.shape[0]:
            return []
        similarity = self.matrix @ query
        best = [int(i) for i in np.argsort(-similarity)[:limit]
                if similarity[i] >= SIMILARITY_FLOOR]
        found = self.index.by_rowid([int(self.rowids[i]) for i in best])
        return [FoundPassage(int(self.rowids[i]), *found[int(self.rowids[i])],
                             float(similarity[i])) for i in best if int(self.rowids[i]) in found]


class DocumentMeaning:
    def __init__(self, core: SessionCore) -> None:
        self._core = core
        self._embedding: asyncio.Task[Any] | None = None
        self.queries = QueryEmbeddings("documents-query-embedding")  # late ones tracked

    @property
    def model(self) -> str:
        return (self._core.settings.embedding_model or "").strip()

    async def close(self) -> None:
        """At shutdown: end the query embeddings still running (as recall does)."""
        await self.queries.close()

    def schedule(self, document_ids: Sequence[str]) -> None:
        """Embed these documents' passages that have no vector of the model, in the
        background (one run at a time)."""
        if not self.model or not document_ids:
            return
        if self._embedding is not None and not self._embedding.done():
            return
        self._embedding = self._core.spawn(self.embed(list(document_ids)), "documents-embed")

    async def embed(self, document_ids: list[str]) -> int:
        model, store, done = self.model, self._core.store, 0
        prefix = _prefixes(model)[1]
        previous: list[tuple[int, str]] = []
        while model and self.model == model:
            batch = store.passages_to_embed(document_ids, model, EMBED_BATCH)
            if not batch or batch == previous:
                break
            try:
                vectors = await self._core.backend.embed(model, [prefix + t for _r, t in batch])
            except BackendError as exc:
                log.info("passages not embedded (%s): %s", model, exc.message)
                break
            if len(vectors) != len(batch):
                break
            store.put_passage_vectors(model, [(rowid, _unit(v).tobytes())
                                              for (rowid, _t), v in zip(batch, vectors,
                                                                         strict=True)])
            done += len(batch)
            previous = batch
        return done

    async def source(self, index: PassageIndex, texts: Sequence[str]
                     ) -> PassageIndex | MeaningSource:
        """The index, with meaning when the passages have vectors and the texts' embeddings
        came back within the budget."""
        model = self.model
        if not model or not texts:
            return index
        rows = self._core.store.passage_vectors(list(index.document_ids), model)
        if not rows:
            self.schedule(index.document_ids)
            return index
        try:
            vectors = await self.queries.within(self._core.backend.embed(
                model, [_prefixes(model)[0] + t for t in texts]), RECALL_BUDGET_S)
        except BackendError as exc:
            log.info("the query's embedding failed (%s): words only", exc.message)
            return index
        if vectors is None:  # left to finish by itself, bounded by the client's timeout
            return index
        if len(vectors) != len(texts):
            return index
        dims = {len(blob) for _r, blob in rows}
        if len(dims) != 1:
            return index
        flat = np.frombuffer(b"".join(blob for _r, blob in rows), dtype=np.float32)
        matrix = flat.reshape(len(rows), dims.pop() // 4)
        rowids = np.array([r for r, _b in rows], dtype=np.int64)
        self.schedule(index.document_ids)  # passages of a newer document may lack vectors
        return MeaningSource(index, {t: _unit(v) for t, v in zip(texts, vectors, strict=True)},
                             rowids, matrix)
