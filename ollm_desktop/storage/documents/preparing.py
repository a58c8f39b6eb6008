"""Making a file ready to attach, off the event loop: its content id, its text and its
passages. Pure: no database, so it runs in a worker thread while the window stays live."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from ollm_desktop.engine.document_text import ExtractedText
from ollm_desktop.engine.passages import Passage, cut_passages
from ollm_desktop.engine.tokens import count_tokens
from ollm_desktop.storage.documents.reading import read_document


def document_id(data: bytes) -> str:
    """The key of a document: the SHA-256 of its bytes (hex); the same file is stored once."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, slots=True)
class PreparedDocument:
    document_id: str
    size: int
    data: bytes | None  # None: imported as text only
    text: ExtractedText
    passages: list[Passage]


READ_SHARE = 0.85  # of the progress bar: reading; the rest is cutting into passages


def prepare(data: bytes, name: str, *, count: Callable[[str], int] = count_tokens,
            progress: Callable[[float], None] | None = None) -> PreparedDocument:
    """Read and cut ``data`` (``DocumentError`` with the user's message when it cannot be);
    ``progress`` hears the share done, from this (worker) thread."""
    text = read_document(data, name, None if progress is None
                         else lambda share: progress(share * READ_SHARE))
    passages = cut_passages(text.blocks, count)
    if progress is not None:
        progress(1.0)
    return PreparedDocument(document_id(data), len(data), data, text, passages)


def prepare_text(key: str, size: int, text: ExtractedText, *,
                 count: Callable[[str], int] = count_tokens) -> PreparedDocument:
    """An imported document: its text, cut as the original was."""
    return PreparedDocument(key, size, None, text, cut_passages(text.blocks, count))
