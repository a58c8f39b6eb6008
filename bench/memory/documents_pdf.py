"""Render a reStructuredText PEP to a PDF with a text layer and an outline (bookmarks), for
the document benchmark's long PDF: ``python -m bench.memory.documents_pdf IN.rst OUT.pdf``.

The text is read with the app's own reader (``storage.documents``: headings, paragraphs,
code) and laid out with reportlab (BSD): one heading style per level, code in a monospaced
font, each heading a bookmark at its page. Done once; the PDF is shipped in
``documents_corpus/docs``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import Paragraph, Preformatted, SimpleDocTemplate, Spacer

from ollm_desktop.storage.documents import read_document


class _Outlined(SimpleDocTemplate):
    def afterFlowable(self, flowable: object) -> None:
        level = getattr(flowable, "outline_level", None)
        if level is None:
            return
        key = f"h{id(flowable)}"
        self.canv.bookmarkPage(key)
        self.canv.addOutlineEntry(flowable.getPlainText(), key,  # type: ignore[attr-defined]
                                  level=level, closed=False)


def render(source: Path, target: Path) -> int:
    text = read_document(source.read_bytes(), source.name)
    styles = getSampleStyleSheet()
    heads = {1: styles["Heading1"], 2: styles["Heading2"], 3: styles["Heading3"]}
    story: list[object] = []
    levels_seen: list[int] = []
    for block in text.blocks:
        if block.kind == "heading":
            level = min(3, block.level)
            # an outline may only go one level deeper at a time
            level = min(level, (levels_seen[-1] + 1) if levels_seen else 1)
            levels_seen.append(level)
            para = Paragraph(escape(block.text), heads[level])
            para.outline_level = level - 1  # type: ignore[attr-defined]
            story.append(para)
        elif block.kind == "code":
            story.append(Preformatted(block.text, styles["Code"]))
        else:
            story.append(Paragraph(escape(block.text), styles["BodyText"]))
        story.append(Spacer(1, 2))
    document = _Outlined(str(target), pagesize=A4, title=source.stem, author="PEP authors")
    document.build(story)
    return document.page


if __name__ == "__main__":
    pages = render(Path(sys.argv[1]), Path(sys.argv[2]))
    print(f"{sys.argv[2]}: {pages} pages")
