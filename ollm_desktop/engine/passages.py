"""Passages: a document cut along its own structure, sized for a small window.

A passage never crosses a heading: each belongs to one section (its heading path, "Part ›
Chapter"). Inside a section, paragraphs, list items, table rows and code blocks are packed in
reading order up to :data:`TARGET_TOKENS`; a new PDF page starts a new passage (so a citation
names one page) unless the passage so far is a scrap. A block larger than
:data:`MAX_TOKENS` is split at its sentences (prose) or its lines (code, tables), never inside
a word.

Why 160 tokens (at most 240): at a 2K window about 1.5K tokens are usable, and the system
prompt and the recent turns leave roughly 700-1,000 for documents, so four to six passages fit
where one 512-token chunk would (and a 512-token chunk mostly holds text the question did not
ask about). A paragraph of a technical text is 60-150 tokens, so most passages are one or two
whole paragraphs, with their section to say what they are about.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ollm_desktop.engine.document_text import Block

TARGET_TOKENS = 160
MAX_TOKENS = 240
SCRAP_TOKENS = 40  # below this a passage joins the next page's text rather than stand alone
SECTION_SEPARATOR = " › "
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+(?=\S)")


@dataclass(frozen=True, slots=True)
class Passage:
    """One passage of one document, with where it stands."""

    ordinal: int  # 0-based position in its document
    text: str
    tokens: int
    section: str = ""  # heading path, "" before the first heading
    first_page: int | None = None
    last_page: int | None = None
    first_line: int | None = None
    last_line: int | None = None


def citation(name: str, passage: Passage) -> str:
    """``[name, p. 12]``, ``[name, p. 12–13]``, ``[name, lines 40–72]`` or ``[name, § Setup]``."""
    if passage.first_page is not None:
        last = passage.last_page or passage.first_page
        pages = f"{passage.first_page}" if last == passage.first_page else \
            f"{passage.first_page}–{last}"
        return f"[{name}, p. {pages}]"
    if passage.first_line is not None:
        last = passage.last_line or passage.first_line
        if last == passage.first_line:
            return f"[{name}, line {passage.first_line}]"
        return f"[{name}, lines {passage.first_line}–{last}]"
    if passage.section:
        return f"[{name}, § {passage.section.split(SECTION_SEPARATOR)[-1]}]"
    return f"[{name}]"


@dataclass
class _Open:
    texts: list[str]
    tokens: int
    first_page: int | None
    last_page: int | None
    first_line: int | None
    last_line: int | None


def cut_passages(blocks: Sequence[Block], count: Callable[[str], int]) -> list[Passage]:
    """The passages of a document's blocks, in reading order."""
    passages: list[Passage] = []
    headings: list[tuple[int, str]] = []
    section = ""
    current: _Open | None = None

    def close() -> None:
        nonlocal current
        if current is not None and current.texts:
            text = "\n".join(current.texts)
            passages.append(Passage(len(passages), text, count(text), section,
                                    current.first_page, current.last_page,
                                    current.first_line, current.last_line))
        current = None

    for block in blocks:
        if block.kind == "heading":
            close()
            level = max(1, block.level)
            headings = [(lv, title) for lv, title in headings if lv < level]
            headings.append((level, " ".join(block.text.split())))
            section = SECTION_SEPARATOR.join(title for _, title in headings)
            continue
        for piece, first_line, last_line in _pieces(block, count):
            if not piece.strip():
                continue
            tokens = count(piece)
            if current is not None and (
                    current.tokens + tokens > TARGET_TOKENS
                    or (block.page is not None and current.last_page is not None
                        and block.page != current.last_page
                        and current.tokens >= SCRAP_TOKENS)):
                close()
            if current is None:
                current = _Open([], 0, block.page, block.page, first_line, last_line)
            current.texts.append(piece)
            current.tokens += tokens + 1
            current.last_page = block.page if block.page is not None else current.last_page
            current.last_line = last_line if last_line is not None else current.last_line
    close()
    return passages


def _pieces(block: Block, count: Callable[[str], int]) -> list[tuple[str, int | None, int | None]]:
    """The block's text, or its sentences / lines packed up to the target when it is long;
    each piece with its lines (a piece of lines knows its own, a sentence its block's)."""
    text = block.text
    if count(text) <= MAX_TOKENS:
        return [(text, block.first_line, block.last_line)]
    by_line = block.kind in ("code", "table") or "\n" in text
    units = text.split("\n") if by_line else _SENTENCE_END.split(text)
    joiner = "\n" if by_line else " "
    pieces: list[tuple[str, int | None, int | None]] = []
    held: list[str] = []
    held_tokens = 0
    first = last = 0

    def line(offset: int, fallback: int | None) -> int | None:
        return block.first_line + offset if by_line and block.first_line is not None \
            else fallback

    for index, unit in enumerate(units):
        for part in _words_within(unit, count):
            tokens = count(part) + 1
            if held and held_tokens + tokens > TARGET_TOKENS:
                pieces.append((joiner.join(held), line(first, block.first_line),
                               line(last, block.last_line)))
                held, held_tokens, first = [], 0, index
            held.append(part)
            held_tokens += tokens
            last = index
    if held:
        pieces.append((joiner.join(held), line(first, block.first_line),
                       line(last, block.last_line)))
    return pieces


def _words_within(unit: str, count: Callable[[str], int]) -> list[str]:
    """A sentence or line longer than the target, cut between words."""
    if count(unit) <= TARGET_TOKENS:
        return [unit]
    parts: list[str] = []
    held: list[str] = []
    held_tokens = 0
    for word in unit.split(" "):
        tokens = count(" " + word)  # one count per word: a long line stays linear
        if held and held_tokens + tokens > TARGET_TOKENS:
            parts.append(" ".join(held))
            held, held_tokens = [], 0
        held.append(word)
        held_tokens += tokens
    if held:
        parts.append(" ".join(held))
    return parts
