"""Text, Markdown and source code, line by line, each block with its first and last line.

Text and Markdown: ATX headings (``# Title``) and underlined ones (a line under a title made
of one repeated ``= - ~ ^ * + #`` as long as the title: Markdown's setext and
reStructuredText's sections, the level by the order the underline characters first appear),
fenced code (``` or ~~~), indented code after a blank line (and after reST's ``::``), tables
(lines of ``|`` cells, reST grid and simple tables) as rows, list items and paragraphs.
Source code: blocks that start at a line in the first column after a blank line, so a
function or a class stays whole; no headings.
"""

from __future__ import annotations

import re
import textwrap

from ollm_desktop.engine.document_text import Block, BlockKind, ExtractedText, estimated_pages

_ATX = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_UNDERLINE = re.compile(r"^([=\-~^*+#`'\".:_])\1{2,}\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_ITEM = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)]|[a-z][.)])\s+\S")
_TABLE = re.compile(r"^\s*(\|.*\||\+[-=+]+\+)\s*$")
_DIRECTIVE = re.compile(r"^\.\.\s+(?:([\w-]+)::|_|\[|\|)")
_CODE_DIRECTIVES = {"code-block", "code", "sourcecode", "literalinclude", "highlight"}
_SIMPLE_RULE = re.compile(r"^\s*=+(\s+=+)+\s*$")  # reST simple table borders


def read_plain(text: str, *, markdown: bool = False) -> ExtractedText:
    lines = text.split("\n")
    blocks: list[Block] = []
    levels: list[str] = []  # underline characters in order of first use (reST's rule)
    pending: list[str] = []
    kind: BlockKind = "paragraph"
    start = 0
    literal = False  # the text before announced a literal block (reST "::", a code directive)

    def flush(end: int) -> None:
        nonlocal pending, kind, literal
        body = textwrap.dedent("\n".join(pending)).strip("\n") if kind == "code" else " ".join(
            " ".join(line.split()) for line in pending).strip()
        if body:
            directive = _DIRECTIVE.match(body) if kind == "paragraph" else None
            literal = bool(directive and directive.group(1) in _CODE_DIRECTIVES) or (
                kind != "code" and body.endswith("::"))
            if directive is None:  # a reST directive or comment line is markup, not text
                text = body[:-1] if body.endswith("::") else body
                blocks.append(Block(kind=kind, text=text, first_line=start + 1, last_line=end))
        pending, kind = [], "paragraph"

    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        fence = _FENCE.match(line)
        if fence:  # fenced code runs to its closing fence
            flush(i)
            close = next((j for j in range(i + 1, len(lines))
                          if lines[j].strip().startswith(fence.group(1))), len(lines))
            kind, start, pending = "code", i + 1, lines[i + 1:close]
            flush(close)
            i = close + 1
            continue
        heading = _heading(lines, i, levels)
        if heading is not None:
            flush(i)
            level, title, used = heading
            blocks.append(Block(kind="heading", text=title, level=level, first_line=i + 1,
                                last_line=i + used))
            i += used
            continue
        if not stripped:
            flush(i)
            i += 1
            continue
        previous_blank = i == 0 or not lines[i - 1].strip()
        indent = len(line) - len(line.lstrip(" \t"))
        if previous_blank and ((literal and indent) or indent >= 4) and not pending \
                and _code_may_start(blocks):
            end = i
            while end < len(lines) and (not lines[end].strip()
                                        or lines[end].startswith((" ", "\t"))):
                end += 1
            while end > i and not lines[end - 1].strip():
                end -= 1
            flush(i)
            kind, start, pending = "code", i, [ln for ln in lines[i:end]]
            flush(end)
            i = end
            continue
        if _TABLE.match(line) or _SIMPLE_RULE.match(line):
            flush(i)
            if not _rule_only(stripped):
                blocks.append(Block(kind="table", text=_cells(stripped), first_line=i + 1,
                                    last_line=i + 1))
            i += 1
            continue
        if _ITEM.match(line):
            flush(i)
            kind, start = "item", i
        elif not pending:
            start = i
        pending.append(line)
        i += 1
    flush(len(lines))
    return ExtractedText(format="markdown" if markdown else "text", blocks=blocks,
                         pages=estimated_pages(len(text)))


def _heading(lines: list[str], i: int, levels: list[str]) -> tuple[int, str, int] | None:
    """(level, title, lines used) when a heading starts at line ``i``."""
    line = lines[i]
    atx = _ATX.match(line)
    if atx:
        return len(atx.group(1)), atx.group(2), 1
    title = line.strip()
    if not title or _UNDERLINE.match(line) or i + 1 >= len(lines):
        # an overlined reST title: rule, title, rule
        if _UNDERLINE.match(line) and i + 2 < len(lines) and lines[i + 1].strip() \
                and lines[i + 2].strip() == line.strip():
            return _level(levels, "o" + line.strip()[0]), lines[i + 1].strip(), 3
        return None
    under = _UNDERLINE.match(lines[i + 1])
    if not under or line.startswith((" ", "\t")) or len(lines[i + 1].rstrip()) < len(title):
        return None
    return _level(levels, under.group(1)), title, 2


def _level(levels: list[str], mark: str) -> int:
    if mark not in levels:
        levels.append(mark)
    return min(6, levels.index(mark) + 1)


def _code_may_start(blocks: list[Block]) -> bool:
    """Indented text is code unless it continues a list item (a nested paragraph)."""
    return not blocks or blocks[-1].kind != "item"


def _rule_only(line: str) -> bool:
    return not line.strip("+-=|: ")


def _cells(line: str) -> str:
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    return " | ".join(cells)


def read_code(text: str) -> ExtractedText:
    """Blocks of code split where a line in the first column follows a blank line."""
    lines = text.split("\n")
    blocks: list[Block] = []
    start = 0
    for i in range(1, len(lines) + 1):
        boundary = i == len(lines) or (lines[i][:1].strip() != "" and not lines[i - 1].strip())
        if boundary:
            chunk = lines[start:i]
            while chunk and not chunk[-1].strip():
                chunk.pop()
            first = start
            while chunk and not chunk[0].strip():
                chunk.pop(0)
                first += 1
            if chunk:
                blocks.append(Block(kind="code", text="\n".join(chunk), first_line=first + 1,
                                    last_line=first + len(chunk)))
            start = i
    return ExtractedText(format="code", blocks=blocks, pages=estimated_pages(len(text)))
