"""A PDF's text layer, page by page, with pypdfium2 (PDFium's bindings: Apache-2.0/BSD, fast,
well kept; PyMuPDF would be AGPL).

PDFium gives each page's text line by line. Headings come from the PDF's outline (its
bookmarks) where it has one: a line that is a bookmark's title on the bookmark's page starts a
section. Paragraphs end at a blank line or at a short line ending a sentence (a paragraph's
last line); a table's rows come out as lines of text, which is what a model reads best.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable

import pypdfium2 as pdfium

from ollm_desktop.engine.document_text import Block, ExtractedText
from ollm_desktop.storage.documents.reading import DocumentError

NO_TEXT_LAYER = "This PDF has no text layer; text recognition is not supported."
PASSWORD_ERROR = 4  # FPDF_ERR_PASSWORD
ENDINGS = (".", ":", "!", "?", ";", "\u201d", '"', ")")


def read_pdf(data: bytes, name: str, progress: Callable[[float], None] | None = None
             ) -> ExtractedText:
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        if getattr(error, "err_code", None) == PASSWORD_ERROR:
            raise DocumentError(f"{name} is encrypted with a password; open it in a PDF "
                                "reader, save a copy without the password and attach that."
                                ) from error
        raise DocumentError(f"{name} is not a readable PDF ({error}).") from error
    try:
        headings = _outline(pdf)
        blocks: list[Block] = []
        for index in range(len(pdf)):
            page = pdf[index]
            try:
                text_page = page.get_textpage()
                text = text_page.get_text_bounded()
                text_page.close()
            finally:
                page.close()
            blocks.extend(_page_blocks(text, index + 1, headings.get(index, {})))
            if progress is not None:
                progress((index + 1) / len(pdf))
        pages = len(pdf)
    finally:
        pdf.close()
    if not any(b.text.strip() for b in blocks):
        raise DocumentError(f"{name}: {NO_TEXT_LAYER}")
    return ExtractedText(format="pdf", blocks=blocks, pages=pages)


def _outline(pdf: pdfium.PdfDocument) -> dict[int, dict[str, int]]:
    """page index -> {normalised bookmark title: heading level (1-based)}."""
    found: dict[int, dict[str, int]] = {}
    try:
        for mark in pdf.get_toc(max_depth=6):
            dest = mark.get_dest()
            index = dest.get_index() if dest is not None else None
            title = _norm(mark.get_title() or "")
            if index is not None and title:
                found.setdefault(index, {})[title] = mark.level + 1
    except pdfium.PdfiumError:
        return {}
    return found


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def _page_blocks(text: str, page: int, headings: dict[str, int]) -> list[Block]:
    lines = [line.strip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    widths = [len(line) for line in lines if line]
    if not widths:
        return []
    typical = statistics.median(widths)
    blocks: list[Block] = []
    pending: list[str] = []

    def flush() -> None:
        if pending:
            blocks.append(Block(kind="paragraph", text=_join(pending), page=page))
            pending.clear()

    for line in lines:
        if not line:
            flush()
            continue
        level = headings.get(_norm(line))
        if level is not None:
            flush()
            blocks.append(Block(kind="heading", text=line, level=level, page=page))
            continue
        pending.append(line)
        if len(line) < 0.7 * typical and line.endswith(ENDINGS):
            flush()
    flush()
    return blocks


def _join(lines: list[str]) -> str:
    """Lines of one paragraph as one text; a word hyphenated at a line's end is joined."""
    text = lines[0]
    for line in lines[1:]:
        if text.endswith("-") and len(text) > 1 and text[-2].isalpha() and line[:1].islower():
            text = text[:-1] + line
        else:
            text += " " + line
    return text
