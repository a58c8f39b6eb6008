"""A document's text as read from its file, with the structure that locates a passage.

Extraction (``storage.documents``) turns a PDF, DOCX, HTML, Markdown, text or source file
into a list of :class:`Block`: headings (with their level), paragraphs, code blocks, list
items and table rows, each with where it stands (page for a PDF, line numbers for text and
code). Passages (``engine.passages``) are cut from these blocks, and a citation
(``[name, p. 12]``, ``[name, lines 40–72]``) is made from them. Stored with the document
(extracted once per content), carried by an export.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

BlockKind = Literal["heading", "paragraph", "code", "table", "item"]
DocumentFormat = Literal["pdf", "docx", "html", "markdown", "text", "code"]


class Block(BaseModel):
    """One unit of a document's structure, in reading order."""

    model_config = ConfigDict(frozen=True)

    kind: BlockKind
    text: str
    level: int = 0  # a heading's level (1 = the title or a chapter)
    page: int | None = None  # 1-based page of a PDF
    first_line: int | None = None  # 1-based lines of a text or code file
    last_line: int | None = None


class ExtractedText(BaseModel):
    """What extraction found in one file: its blocks and the page count where pages exist."""

    model_config = ConfigDict(frozen=True)

    format: DocumentFormat
    blocks: list[Block] = Field(default_factory=list)
    pages: int = 0  # PDF pages; for other formats an estimate (``PAGE_CHARS`` per page)

    @property
    def chars(self) -> int:
        return sum(len(b.text) for b in self.blocks)


PAGE_CHARS = 3000  # a printed page of prose, for the "pages" of a file that has none


def estimated_pages(chars: int) -> int:
    return max(1, -(-chars // PAGE_CHARS)) if chars else 0
