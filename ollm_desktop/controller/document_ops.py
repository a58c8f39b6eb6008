"""Attached documents (issue 31): the controller's side; the session does the work.

Attaching and re-reading run as named tasks (the file is read in a worker thread by the
session); the rows' changes, progress included, come back through ``documentsChanged``.
"""

from __future__ import annotations

from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ollm_desktop.controller.ops_base import OpsBase
from ollm_desktop.engine.passages import Passage
from ollm_desktop.session.documents import DocumentRow

if TYPE_CHECKING:
    from ollm_desktop.session import Change


class DocumentOps(OpsBase):
    def document_rows(self) -> list[DocumentRow]:
        """The open chat's documents and the files being read, as their rows show them."""
        return self.session.documents.rows()

    def document_passages(self, key: str) -> list[Passage]:
        """A document's passages in order (the reader)."""
        return self.session.documents.passages(key)

    def attach_documents(self, paths: list[str | Path]) -> None:
        """Attach files to the open chat (button, drop, paste); each is read off the loop.
        With no chat open yet (a fresh window), a new chat takes them."""
        if paths and self.session.chat is None and not self._op(self.session.new_chat):
            return
        for path in paths:
            self._spawn(self._documents_done(self.session.documents.attach(Path(path))),
                        "attach-document")

    def remove_document(self, key: str) -> bool:
        return self._op(self.session.documents.remove, key)

    def undo_remove_document(self) -> bool:
        return self._op(self.session.documents.undo_remove)

    def reread_document(self, key: str) -> None:
        self._spawn(self._documents_done(self.session.documents.reread(key)), "reread-document")

    def check_documents(self) -> None:
        """Look again at the files the documents came from (a window brought forward)."""
        self._spawn(self.session.documents.check_disk(), "documents-disk")

    async def _documents_done(self, work: Coroutine[Any, Any, Change]) -> None:
        self._apply(await work)
