"""An HTML page's text with the standard library's parser (no dependency, no scripts, no
remote resources: only text is kept). h1-h6 are headings, pre is code, li an item, each table
row one line of cells joined by " | "; script, style and the page's chrome (nav, header,
footer, aside) are left out."""

from __future__ import annotations

from html.parser import HTMLParser

from ollm_desktop.engine.document_text import Block, BlockKind, ExtractedText, estimated_pages

SKIPPED = {"script", "style", "noscript", "template", "nav", "header", "footer", "aside",
           "svg", "head"}
BREAKS = {"p", "div", "section", "article", "main", "blockquote", "dd", "dt", "br", "hr",
          "ul", "ol", "dl", "figure", "figcaption", "caption", "table", "form", "body"}


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[Block] = []
        self.text: list[str] = []
        self.kind: BlockKind = "paragraph"
        self.level = 0
        self.skipping = 0
        self.pre = 0
        self.row: list[str] | None = None
        self.cell: list[str] | None = None

    def flush(self) -> None:
        raw = "".join(self.text)
        text = raw.strip("\n") if self.kind == "code" else " ".join(raw.split())
        if text.strip():
            self.blocks.append(Block(kind=self.kind, text=text, level=self.level))
        self.text = []
        self.kind, self.level = "paragraph", 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED:
            self.skipping += 1
        elif self.skipping:
            return
        elif len(tag) == 2 and tag[0] == "h" and tag[1] in "123456":
            self.flush()
            self.kind, self.level = "heading", int(tag[1])
        elif tag == "pre":
            self.flush()
            self.kind, self.pre = "code", self.pre + 1
        elif tag == "li":
            self.flush()
            self.kind = "item"
        elif tag == "tr":
            self.flush()
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []
        elif tag in BREAKS:
            self.flush()

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED:
            self.skipping = max(0, self.skipping - 1)
        elif self.skipping:
            return
        elif tag in ("td", "th") and self.row is not None and self.cell is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            if any(self.row):
                self.blocks.append(Block(kind="table", text=" | ".join(self.row)))
            self.row = None
        elif tag == "pre":
            self.pre = max(0, self.pre - 1)
            self.flush()
        elif (len(tag) == 2 and tag[0] == "h" and tag[1] in "123456") or tag == "li" \
                or tag in BREAKS:
            self.flush()

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        if self.cell is not None:
            self.cell.append(data)
        elif self.row is None:
            self.text.append(data)


def read_html(text: str) -> ExtractedText:
    reader = _Reader()
    reader.feed(text)
    reader.close()
    reader.flush()
    return ExtractedText(format="html", blocks=reader.blocks,
                         pages=estimated_pages(sum(len(b.text) for b in reader.blocks)))
