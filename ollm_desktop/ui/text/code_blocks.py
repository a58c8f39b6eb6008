"""Fenced code blocks of a rendered reply: Pygments colours, and a strip above each block with
its language and a Copy button (painted and hit-tested by the message delegate).

Safety: nothing here produces or parses HTML. The document is built from Markdown without
HTML (``markdown.make_document``); Pygments only splits each block's text into tokens, and
their colours are applied to that same text as character formats. Code stays text.

Each block's exact code (the lines between the fences) is kept on the document, so Copy does
not depend on what the painter shows. Qt gives every code line its own text block; adjacent
lines with the same fence, language and indent form one visual block, so two fences written
back to back with nothing between them show, and copy, as one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from PySide6.QtCore import QCoreApplication, QRect, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QPainter,
    QPalette,
    QPen,
    QTextBlock,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)

# Pygments styles that read well on our light and dark cards (checked in screenshots).
LIGHT_STYLE = "default"
DARK_STYLE = "github-dark"
STRIP_PROPERTY = int(QTextFormat.Property.UserProperty) + 41  # marks a strip block
CODE_INSET = 10  # code text from the box's left edge
CODE_PAD = 5  # box below the last code line
CODE_FILL = QColor(127, 127, 127, 34)  # readable on light and dark cards alike
STRIP_FILL = QColor(127, 127, 127, 30)
HIGHLIGHT_LIMIT = 20_000  # characters of code coloured per document; the rest stays plain


@dataclass(frozen=True, slots=True)
class CodeBlock:
    strip: int  # block number of the strip above the code
    first: int  # block numbers of the first and last code line
    last: int
    language: str
    code: str  # exactly the lines between the fences


def tr(text: str) -> str:
    return QCoreApplication.translate("CodeBlocks", text)


def _code_key(block: QTextBlock) -> tuple[Any, ...] | None:
    fmt = block.blockFormat()
    if not (fmt.hasProperty(QTextFormat.Property.BlockCodeFence)
            or fmt.hasProperty(QTextFormat.Property.BlockCodeLanguage)):
        return None
    return (fmt.property(QTextFormat.Property.BlockCodeFence),
            fmt.stringProperty(QTextFormat.Property.BlockCodeLanguage), fmt.indent(),
            block.textList() is not None)


def _runs(doc: QTextDocument) -> list[tuple[int, int, str, str]]:
    """(first, last, language, code) of each run of code lines that shows as one block."""
    runs: list[tuple[int, int, str, str]] = []
    lines: list[str] = []
    key: tuple[Any, ...] | None = None
    first = 0
    block = doc.begin()
    while True:
        this = _code_key(block) if block.isValid() else None
        if key is not None and this != key:
            runs.append((first, first + len(lines) - 1, str(key[1]), "\n".join(lines)))
            lines = []
        if this is not None and this != key:
            first = block.blockNumber()
        key = this
        if not block.isValid():
            return runs
        if this is not None:
            lines.append(block.text())
        block = block.next()


def prepare_code_blocks(doc: QTextDocument, strip_height: int, dark: bool,
                        colour_limit: int = HIGHLIGHT_LIMIT) -> list[CodeBlock]:
    """Colour the code (its first ``colour_limit`` characters), inset it, and put an empty
    strip block above each code block."""
    runs = _runs(doc)
    if not runs:
        return []
    budget = colour_limit
    cursor = QTextCursor(doc)
    for first, last, language, code in runs:
        if budget > 0 and language:
            _highlight(doc, first, code[:budget], language, dark)
            budget -= len(code)
        for number in range(first, last + 1):
            fmt = doc.findBlockByNumber(number).blockFormat()
            fmt.clearBackground()  # the delegate paints one rounded box per block instead
            fmt.setLeftMargin(fmt.leftMargin() + CODE_INSET)
            fmt.setRightMargin(CODE_INSET)
            if number == first:
                fmt.setTopMargin(CODE_PAD)  # room under the strip
            if number == last:
                fmt.setBottomMargin(CODE_PAD + 4)  # room under the box
            cursor.setPosition(doc.findBlockByNumber(number).position())
            cursor.setBlockFormat(fmt)
    strip = QTextBlockFormat()
    strip.setProperty(STRIP_PROPERTY, True)
    strip.setTopMargin(6)  # apart from a block just above
    strip.setLineHeight(float(strip_height), QTextBlockFormat.LineHeightTypes.FixedHeight.value)
    for first, _last, _language, _code in reversed(runs):  # later numbers move, earlier stay
        code_block = doc.findBlockByNumber(first)
        cursor.setPosition(code_block.position())
        cursor.insertBlock(code_block.blockFormat(), code_block.charFormat())
        strip_fmt = QTextBlockFormat(strip)
        strip_fmt.setIndent(code_block.blockFormat().indent())  # in a list or a quote,
        strip_fmt.setLeftMargin(code_block.blockFormat().leftMargin() - CODE_INSET)  # as it
        cursor.movePosition(QTextCursor.MoveOperation.PreviousBlock)
        cursor.setBlockFormat(strip_fmt)
    return [CodeBlock(first + i, first + i + 1, last + i + 1, language, code)
            for i, (first, last, language, code) in enumerate(runs)]


def _highlight(doc: QTextDocument, first: int, code: str, language: str, dark: bool) -> None:
    lexer = _lexer(language.strip().lower())
    if lexer is None:
        return
    formats = _formats(dark)
    cursor = QTextCursor(doc)
    start = doc.findBlockByNumber(first).position()
    span: tuple[int, int, Any] | None = None  # merge neighbouring tokens of one colour
    for index, ttype, value in lexer.get_tokens_unprocessed(code):
        fmt = formats(ttype)
        if span is not None and span[2] is fmt and span[1] == index:
            span = (span[0], index + len(value), fmt)
            continue
        if span is not None and span[2] is not None:
            _apply(cursor, start, span)
        span = (index, index + len(value), fmt)
    if span is not None and span[2] is not None:
        _apply(cursor, start, span)


def _apply(cursor: QTextCursor, start: int, span: tuple[int, int, Any]) -> None:
    cursor.setPosition(start + span[0])
    cursor.setPosition(start + span[1], QTextCursor.MoveMode.KeepAnchor)
    cursor.mergeCharFormat(span[2])


@cache
def _lexer(language: str) -> Any:
    """The Pygments lexer for a fence's language, or None (imported on first use)."""
    from pygments.lexers import get_lexer_by_name  # type: ignore[import-untyped]
    from pygments.util import ClassNotFound  # type: ignore[import-untyped]

    try:
        return get_lexer_by_name(language, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


@cache
def _formats(dark: bool) -> Any:
    """Token type -> character format of the light or dark style (None: plain text)."""
    from pygments.styles import get_style_by_name  # type: ignore[import-untyped]
    from pygments.token import Token  # type: ignore[import-untyped]

    style = get_style_by_name(DARK_STYLE if dark else LIGHT_STYLE)
    base = style.style_for_token(Token)["color"]

    @cache
    def for_token(ttype: Any) -> QTextCharFormat | None:
        spec = style.style_for_token(ttype)
        colour = spec["color"] if spec["color"] != base else None
        if not (colour or spec["bold"] or spec["italic"]):
            return None
        fmt = QTextCharFormat()
        if colour:
            fmt.setForeground(QColor(f"#{colour}"))
        if spec["bold"]:
            fmt.setFontWeight(QFont.Weight.Bold)
        if spec["italic"]:
            fmt.setFontItalic(True)
        return fmt

    return for_token


# ---------------------------------------------------------------- painting and hit-testing
def code_rects(doc: QTextDocument, blocks: list[CodeBlock]) -> list[tuple[QRectF, QRectF]]:
    """(strip, whole block) rectangles in document coordinates."""
    layout = doc.documentLayout()
    rects = []
    for block in blocks:
        strip_block = doc.findBlockByNumber(block.strip)
        strip = layout.blockBoundingRect(strip_block)
        top = strip.top()
        height = strip_block.blockFormat().lineHeight()
        bottom = layout.blockBoundingRect(doc.findBlockByNumber(block.last)).bottom() + CODE_PAD
        left = doc.textWidth() - strip.width()  # a block in a list is indented
        rects.append((QRectF(left, top, strip.width(), height),
                      QRectF(left, top, strip.width(), bottom - top)))
    return rects


def copy_button_rect(strip: QRectF, metrics: QFontMetrics) -> QRect:
    """The Copy button at the right end of a strip (document coordinates)."""
    width = max(metrics.horizontalAdvance(tr("Copy")), metrics.horizontalAdvance(tr("Copied")))
    width += 18
    height = min(int(strip.height()) - 4, metrics.height() + 4)
    return QRect(int(strip.right()) - 4 - width, int(strip.center().y() - height / 2),
                 width, height)


def paint_code_blocks(painter: QPainter, doc: QTextDocument, blocks: list[CodeBlock],
                      palette: QPalette, font: QFont, copied: int | None) -> None:
    """The boxes behind the code, the strips' language names and Copy buttons (painted
    before the document, in its coordinates); ``copied``: the block just copied."""
    metrics = QFontMetrics(font)
    text = palette.color(QPalette.ColorRole.Text)
    muted = QColor(text)
    muted.setAlphaF(0.62)
    link = palette.color(QPalette.ColorRole.Link)
    painter.save()
    painter.setFont(font)
    for number, (strip, box) in enumerate(code_rects(doc, blocks)):
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(CODE_FILL)
        painter.drawRoundedRect(box, 6, 6)
        painter.setBrush(STRIP_FILL)
        painter.drawRoundedRect(strip, 6, 6)
        painter.drawRect(strip.adjusted(0, strip.height() / 2, 0, 0))
        label = strip.adjusted(CODE_INSET, 0, -CODE_INSET, 0)
        painter.setPen(muted)
        painter.drawText(label, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         blocks[number].language or tr("code"))
        button = copy_button_rect(strip, metrics)
        painter.setPen(QPen(link, 1.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(QRectF(button).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4)
        painter.drawText(button, Qt.AlignmentFlag.AlignCenter,
                         tr("Copied") if copied == number else tr("Copy"))
    painter.restore()
