"""A DOCX's text with python-docx (MIT, the standard reader of Word's XML): paragraphs in
body order with tables between them; "Heading N" and "Title" styles are headings, list styles
are items, and each table row is one line of cells joined by " | "."""

from __future__ import annotations

from io import BytesIO

import docx
from docx.opc.exceptions import PackageNotFoundError
from docx.table import Table
from docx.text.paragraph import Paragraph

from ollm_desktop.engine.document_text import Block, ExtractedText, estimated_pages
from ollm_desktop.storage.documents.reading import DocumentError


def read_docx(data: bytes, name: str) -> ExtractedText:
    try:
        document = docx.Document(BytesIO(data))
    except (PackageNotFoundError, KeyError, ValueError) as error:
        raise DocumentError(f"{name} is not a readable DOCX ({error}).") from error
    blocks: list[Block] = []
    for item in document.iter_inner_content():
        if isinstance(item, Paragraph):
            block = _paragraph(item)
            if block is not None:
                blocks.append(block)
        elif isinstance(item, Table):
            blocks.extend(_table(item))
    return ExtractedText(format="docx", blocks=blocks,
                         pages=estimated_pages(sum(len(b.text) for b in blocks)))


def _paragraph(paragraph: Paragraph) -> Block | None:
    text = paragraph.text.strip()
    if not text:
        return None
    style = (paragraph.style.name if paragraph.style is not None else "") or ""
    if style == "Title":
        return Block(kind="heading", text=text, level=1)
    if style.startswith("Heading"):
        number = style.removeprefix("Heading").strip()
        return Block(kind="heading", text=text, level=int(number) if number.isdigit() else 1)
    if style.startswith("List"):
        return Block(kind="item", text=text)
    return Block(kind="paragraph", text=text)


def _table(table: Table) -> list[Block]:
    rows: list[Block] = []
    for row in table.rows:
        cells: list[str] = []
        seen: set[int] = set()
        for cell in row.cells:
            if id(cell._tc) in seen:  # a merged cell repeats across its span
                continue
            seen.add(id(cell._tc))
            cells.append(" ".join(cell.text.split()))
        if any(cells):
            rows.append(Block(kind="table", text=" | ".join(cells)))
    return rows
