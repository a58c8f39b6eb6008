"""Documents attached to the open chat: attaching off the event loop with its progress,
removing with Undo, a file changed on disk noticed and offered a re-read, and the passages each
request carries.

Attaching reads, hashes, extracts and cuts the file in a worker thread (``asyncio.to_thread``;
a PDF reports each page), so the window never waits; only the store's write runs on the loop.
The same content attached again, to this chat or another, is read from the store without
reading the file (``storage.documents``). A file deleted or moved afterwards still serves: its
bytes and text are in the store. What a request carried goes with the reply in its
``RecallRecord.sources`` (the row lists them, the reader opens them).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ollm_desktop.engine import ContextEngine
from ollm_desktop.engine.document_context import AttachedText
from ollm_desktop.engine.passages import Passage
from ollm_desktop.session.core import SessionCore
from ollm_desktop.session.document_meaning import DocumentMeaning
from ollm_desktop.session.events import Change
from ollm_desktop.storage import StorageError
from ollm_desktop.storage.documents import MAX_BYTES, DocumentError
from ollm_desktop.storage.documents.library import DiskState, disk_state
from ollm_desktop.storage.documents.models import AttachedDocument, DocumentSource
from ollm_desktop.storage.documents.preparing import document_id, prepare
from ollm_desktop.storage.documents.reading import MAX_LABEL
from ollm_desktop.storage.models import RecallRecord

log = logging.getLogger(__name__)

Sent = tuple[list[dict[str, str]], RecallRecord | None]
WithDocuments = Callable[[ContextEngine, list[dict[str, str]], RecallRecord | None],
                         Coroutine[Any, Any, Sent]]  # a request with the chat's passages


async def without_documents(_engine: ContextEngine, messages: list[dict[str, str]],
                            found: RecallRecord | None) -> Sent:
    """A turn's default: no documents service (the facade sets its own)."""
    return messages, found


Status = Literal["reading", "ready", "changed", "missing", "text only"]
STEP = 0.02  # progress is told on at least this much advance (a 1,000-page PDF: 50 times)


@dataclass(frozen=True, slots=True)
class DocumentRow:
    """One document of the open chat as its row shows it."""

    key: str  # the document's id; the file's path while it is being read
    name: str
    size: int  # bytes
    pages: int
    passages: int
    status: Status
    progress: float = 1.0  # share read, while reading
    path: str | None = None


def _read_file(path: Path) -> tuple[bytes, float, str]:
    """(bytes, mtime, content id), in a worker thread."""
    data = path.read_bytes()
    return data, path.stat().st_mtime, document_id(data)


class DocumentsService:
    def __init__(self, core: SessionCore) -> None:
        self._core = core
        self._reading: dict[str, tuple[str, int, float]] = {}  # path -> name, size, share
        self._disk: dict[str, DiskState] = {}
        self._removed: list[tuple[str, str]] = []  # (chat id, document id) that Undo restores
        self.changed: Callable[[], None] = lambda: None  # the rows changed (the controller)
        self.meaning = DocumentMeaning(core)  # with an embedding model picked
        self._last_tokens: dict[str, int] = {}  # per chat: what its last send's documents took

    # ------------------------------------------------------------- reading
    def attached(self) -> list[AttachedDocument]:
        chat = self._core.chat
        return self._core.store.chat_documents(chat.id) if chat is not None else []

    def rows(self) -> list[DocumentRow]:
        """The open chat's documents, then the files being read."""
        rows = []
        for doc in self.attached():
            disk = self._disk.get(doc.document_id, "same")
            status: Status = ("text only" if not doc.has_file else
                              "changed" if disk == "changed" else
                              "missing" if disk == "missing" else "ready")
            rows.append(DocumentRow(doc.document_id, doc.name, doc.size, doc.pages,
                                    doc.passages, status, 1.0, doc.path))
        rows += [DocumentRow(path, name, size, 0, 0, "reading", share, path)
                 for path, (name, size, share) in self._reading.items()]
        return rows

    def passages(self, key: str) -> list[Passage]:
        return self._core.store.document_passages(key)

    # ----------------------------------------------------------- attaching
    async def attach(self, path: Path) -> Change:
        """Attach a file to the open chat (read in a worker thread, with progress)."""
        chat = self._core.chat
        if chat is None:
            return Change.problem("documents", "Open a chat before attaching a document.")
        name, where = path.name, str(path)
        if where in self._reading:
            return Change.problem("documents", f"{name} is being read already.")
        try:
            size = (await asyncio.to_thread(os.stat, path)).st_size
        except OSError as exc:
            return Change.problem("documents", f"Could not read {name}: {exc.strerror or exc}")
        if size > MAX_BYTES:
            return Change.problem("documents", f"{name} is {size / 1024 / 1024:.1f} MB; "
                                  f"documents up to {MAX_LABEL} can be attached.")
        self._reading[where] = (name, size, 0.0)
        self.changed()
        loop = asyncio.get_running_loop()

        def progress(share: float) -> None:  # the worker thread's: hand over to the loop
            loop.call_soon_threadsafe(self._progress, where, share)

        try:
            data, mtime, key = await asyncio.to_thread(_read_file, path)
            store = self._core.store
            if not store.has_document(key):
                prepared = await asyncio.to_thread(prepare, data, name, progress=progress)
                store.put_document(prepared)
            attached = store.attach_document(chat.id, key, name, path=where, mtime=mtime)
        except DocumentError as exc:
            return Change.problem("documents", str(exc))
        except OSError as exc:
            return Change.problem("documents", f"Could not read {name}: {exc.strerror or exc}")
        except StorageError as exc:
            return self._core.storage_failed(exc)
        finally:
            self._reading.pop(where, None)
            self.changed()
        self._disk[key] = "same"
        self.meaning.schedule([d.document_id for d in self.attached()])
        self._sync_engine()
        self.changed()
        pages = "1 page" if attached.pages == 1 else f"{attached.pages:,} pages"
        return Change(context=True, notices=(
            f"{attached.name} attached: {pages}, {attached.passages:,} passages.",))

    def _progress(self, where: str, share: float) -> None:
        held = self._reading.get(where)
        if held is not None and (share >= 1.0 or share - held[2] >= STEP):
            self._reading[where] = (held[0], held[1], share)
            self.changed()

    # ------------------------------------------------------------- removing
    def remove(self, key: str) -> Change:
        """Take a document out of the open chat (its passages stop going into requests);
        :meth:`undo_remove` brings it back until another chat is opened."""
        chat = self._core.chat
        if chat is None or self._core.store.attached_document(chat.id, key) is None:
            return Change.problem("documents", "That document is not in this chat.")
        try:
            self._core.store.set_document_removed(chat.id, key, True)
        except StorageError as exc:
            return self._core.storage_failed(exc)
        self._removed.append((chat.id, key))
        self._sync_engine()
        self.changed()
        return Change(context=True)

    def can_undo(self) -> bool:
        chat = self._core.chat
        return bool(self._removed) and chat is not None and self._removed[-1][0] == chat.id

    def undo_remove(self) -> Change:
        if not self.can_undo():
            return Change.problem("undo", "There is no removed document to bring back.")
        chat_id, key = self._removed.pop()
        try:
            self._core.store.set_document_removed(chat_id, key, False)
        except StorageError as exc:
            return self._core.storage_failed(exc)
        self._sync_engine()
        self.changed()
        return Change(context=True)

    # ------------------------------------------------------------ the disk
    async def check_disk(self) -> list[str]:
        """Look at the files the open chat's documents came from (in a worker thread); the
        keys of those changed since they were attached."""
        documents = self.attached()
        states = await asyncio.to_thread(lambda: [disk_state(d) for d in documents])
        self._disk.update({d.document_id: s for d, s in zip(documents, states, strict=True)})
        self.changed()
        return [d.document_id for d, s in zip(documents, states, strict=True) if s == "changed"]

    async def reread(self, key: str) -> Change:
        """Read a changed file again: the new content replaces the old in the chat."""
        chat = self._core.chat
        old = self._core.store.attached_document(chat.id, key) if chat is not None else None
        if old is None or not old.path:
            return Change.problem("documents", "That document has no file to read again.")
        change = await self.attach(Path(old.path))
        if change.problems:
            return change
        fresh = self._core.store.document_id_at(old.chat_id, old.path)
        if fresh is not None and fresh != key:
            self._core.store.set_document_removed(old.chat_id, key, True)
            self._removed.append((old.chat_id, key))
        self._sync_engine()
        self.changed()
        return change

    # --------------------------------------------------------- chats, sends
    def opened(self) -> None:
        """Another chat is open: Undo of a removal is over, the engine is told whether this
        one has documents, and its files are looked at."""
        self._removed.clear()
        self._disk.clear()
        try:
            self._core.store.purge_unused_documents()
        except StorageError as exc:
            log.error("unused documents could not be purged: %s", exc)
        self._sync_engine()
        if self.attached():
            self._core.spawn(self.check_disk(), "documents-disk")
            self.meaning.schedule([d.document_id for d in self.attached()])
        self.changed()

    def _sync_engine(self) -> None:
        engine = self._core.engine
        if engine is not None:
            engine.set_documents_attached(bool(self.attached()))

    def ahead_tokens(self) -> int:
        """What the open chat's next send may add from its documents (what the last one
        added): a background compaction counts it, so the conversation leaves the documents
        their room instead of growing into it until only a passage or two fits."""
        chat = self._core.chat
        if chat is None or not self.attached():
            return 0
        return self._last_tokens.get(chat.id, 0)

    async def into_request(self, engine: ContextEngine, messages: list[dict[str, str]],
                           recalled: RecallRecord | None
                           ) -> tuple[list[dict[str, str]], RecallRecord | None]:
        """The request with the passages its newest user message needs, after what recall
        added (within the room recall left), and the record the reply keeps."""
        chat = self._core.chat
        documents = self.attached()
        if chat is None or not documents or not messages or messages[-1]["role"] != "user":
            return messages, recalled
        store = self._core.store
        texts = [AttachedText(d.document_id, d.name, d.tokens,
                              functools.partial(store.document_passages, d.document_id))
                 for d in documents]
        source = await self.meaning.source(store.passage_index(chat.id),
                                           engine.document_queries())
        _plain, sent = engine.document_request(texts, source,
                                               reserve=recalled.tokens if recalled else 0)
        self._last_tokens[chat.id] = sent.tokens
        if not sent.text:
            return messages, recalled
        last = dict(messages[-1])
        last["content"] += sent.text
        sources = [DocumentSource(document_id=p.document_id, name=p.name,
                                  ordinal=p.passage.ordinal, source=p.source,
                                  section=p.passage.section) for p in sent.passages]
        record = (recalled or RecallRecord()).model_copy(update={"sources": sources})
        return [*messages[:-1], last], record
