"""What is stored about an attached document: its content (once) and its place in a chat."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict

from ollm_desktop.engine.document_text import DocumentFormat, ExtractedText


class AttachedDocument(BaseModel):
    """A document in a chat: the content's id (SHA-256 of its bytes) and how the user named
    it, where it came from and when; ``removed`` while its removal can still be undone."""

    model_config = ConfigDict(frozen=True)

    chat_id: str
    document_id: str
    name: str
    format: DocumentFormat
    size: int  # bytes of the original file
    pages: int
    passages: int
    tokens: int  # of the whole text (its passages)
    path: str | None = None  # where it was attached from (to notice a change on disk)
    mtime: float | None = None
    added_at: datetime
    removed: bool = False
    has_file: bool = True  # False for one imported as text only


class ExportedDocument(BaseModel):
    """A chat's document in an export: its reference and its extracted text (not its bytes:
    the text is what the model reads, and it is a fraction of a PDF's size)."""

    document_id: str
    name: str
    size: int
    added_at: datetime
    text: ExtractedText


class DocumentSource(BaseModel):
    """A passage a reply's request carried (the reply row's sources, the reader's place)."""

    document_id: str
    name: str
    ordinal: int
    source: str  # its citation as sent: "[name, p. 12]"
    section: str = ""
