"""Safe Markdown rendering: no raw HTML, no resource loading of any kind.

Model output and pasted text are untrusted: an ``<img src="file:///...">`` or a remote
image must never make the app read a file or open a connection, so every document used
for display is a :class:`SafeTextDocument` whose ``loadResource`` serves blanks.
"""

from __future__ import annotations

from functools import cache
from typing import Any, ClassVar

from PySide6.QtCore import QByteArray, QCoreApplication, QObject, QUrl
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QFontMetrics,
    QImage,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextDocumentFragment,
    QTextFormat,
    QTextOption,
)

from ollm_desktop.ui.text.code_blocks import HIGHLIGHT_LIMIT, CodeBlock, prepare_code_blocks

MARKDOWN_FEATURES = (
    QTextDocument.MarkdownFeature.MarkdownNoHTML
    | QTextDocument.MarkdownFeature.MarkdownDialectGitHub
)

# Longest text laid out per message in the list; Copy still gives the full text.
VIEW_CHAR_LIMIT = 20_000

# Neutral translucent grey: readable behind code on light and dark palettes alike.
CODE_BACKGROUND = QColor(127, 127, 127, 36)


class SafeTextDocument(QTextDocument):
    """A QTextDocument that never loads a resource (images, stylesheets, anything)."""

    load_attempts: ClassVar[int] = 0  # every request, for tests

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.code_blocks: list[CodeBlock] = []  # fenced blocks, set by make_document

    def loadResource(self, type_: int, url: QUrl | str) -> Any:
        """Serve a blank for everything: ``None`` would let Qt load the URL itself (it opens
        ``file:`` images, so a path to a pipe or device could hang the window)."""
        SafeTextDocument.load_attempts += 1
        if type_ == QTextDocument.ResourceType.ImageResource:
            return _blank_image()
        if type_ == QTextDocument.ResourceType.StyleSheetResource:
            return ""
        return QByteArray()


@cache
def _blank_image() -> QImage:
    image = QImage(1, 1, QImage.Format.Format_ARGB32)
    image.fill(0)
    return image


def truncation_note() -> str:
    return QCoreApplication.translate(
        "markdown", "… (message truncated in view; Copy gives the full text)")


def cap_for_view(text: str, limit: int = VIEW_CHAR_LIMIT) -> tuple[str, bool]:
    """The part of ``text`` laid out in the list, and whether it was cut."""
    if len(text) <= limit:
        return text, False
    head = text[:limit]
    if head.count("```") % 2:  # close a code fence cut in the middle
        head += "\n```"
    return f"{head}\n\n*{truncation_note()}*", True


def fixed_font() -> QFont:
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)


def style_code_blocks(doc: QTextDocument) -> None:
    """Monospace font and a soft background on fenced/indented code blocks."""
    mono = fixed_font()
    block = doc.begin()
    while block.isValid():
        fmt = block.blockFormat()
        if fmt.hasProperty(QTextFormat.Property.BlockCodeFence) or fmt.hasProperty(
                QTextFormat.Property.BlockCodeLanguage):
            cursor = QTextCursor(block)
            block_fmt = QTextBlockFormat()
            block_fmt.setBackground(CODE_BACKGROUND)
            cursor.mergeBlockFormat(block_fmt)
            cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock,
                                QTextCursor.MoveMode.KeepAnchor)
            char_fmt = QTextCharFormat()
            char_fmt.setFontFamilies(mono.families())
            char_fmt.setFontFixedPitch(True)
            cursor.mergeCharFormat(char_fmt)
        block = block.next()


def set_safe_markdown(doc: QTextDocument, text: str) -> None:
    doc.setMarkdown(text, MARKDOWN_FEATURES)
    style_code_blocks(doc)


def make_document(text: str, font: QFont | None = None, width: float | None = None,
                  parent: QObject | None = None, limit: int | None = VIEW_CHAR_LIMIT,
                  dark: bool = False, strip_height: int | None = None,
                  colour_limit: int | None = None) -> SafeTextDocument:
    """A laid-out, safe document for ``text`` (capped to ``limit`` characters); fenced code
    is coloured for a ``dark`` or light background (its first ``colour_limit`` characters:
    lexing costs ~3 ms per 1,000), with a strip above each block."""
    doc = SafeTextDocument(parent)
    doc.setUndoRedoEnabled(False)  # built once, never edited: no undo steps to record
    if font is not None:
        doc.setDefaultFont(font)
    doc.setDocumentMargin(0)
    doc.setDefaultStyleSheet(f"code, pre {{ font-family: '{fixed_font().family()}'; }}")
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    doc.setDefaultTextOption(option)
    if limit is not None:
        text, _ = cap_for_view(text, limit)
    set_safe_markdown(doc, text)
    if strip_height is None:
        strip_height = QFontMetrics(font or doc.defaultFont()).height() + 8
    doc.code_blocks = prepare_code_blocks(doc, strip_height, dark,
                                          HIGHLIGHT_LIMIT if colour_limit is None
                                          else colour_limit)
    if width is not None:
        doc.setTextWidth(width)
    return doc


def markdown_fragment(text: str) -> QTextDocumentFragment:
    """A self-contained fragment: an unclosed code fence cannot swallow what follows."""
    return QTextDocumentFragment.fromMarkdown(text, MARKDOWN_FEATURES)


_MD_SPECIAL = set("\\`*_{}[]()#+-.!|<>~")


def escape_markdown(text: str) -> str:
    """Plain text shown literally inside Markdown."""
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in text)
