"""A thinking model's reasoning on its reply row: a painted "Thought (N words)" line under
the reply that expands to the reasoning as muted plain text and collapses again.

The reasoning is display only (it is never sent or summarised), so it sits below the body:
the body's origin, which code Copy buttons and selection rely on, does not move. Which rows
are expanded is view state, kept here and forgotten with the window.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QCoreApplication, QRect, QRectF, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QFontMetrics,
    QPainter,
    QPalette,
    QTextDocument,
    QTextOption,
)

from ollm_desktop.ui.conversation.conversation_model import ConversationRow

if TYPE_CHECKING:  # the window's first picture draws rows before the engine is imported
    from ollm_desktop.engine.models import Message

GAP = 6  # between the body and the toggle line, and the line and the text
DOC_CACHE_SIZE = 50
THINKING_CHAR_LIMIT = 200_000  # what is laid out of a very long reasoning


def _tr(text: str) -> str:
    return QCoreApplication.translate("MessageDelegate", text)


class _Geometry(Protocol):
    """What the delegate tells about a row's card (see ``MessageDelegate``)."""

    def card_rect(self, row_rect: QRect) -> QRect: ...
    def text_width(self) -> int: ...
    def footer_for(self, row: ConversationRow) -> int: ...


class RowThinking:
    """Geometry, painting and the expanded state of the reasoning lines of reply rows."""

    def __init__(self, geometry: _Geometry, pad: tuple[int, int]) -> None:
        self._geometry = geometry
        self._pad_h, self._pad_v = pad
        self._expanded: set[str] = set()
        self._docs: OrderedDict[str, tuple[tuple[str, int], QTextDocument]] = OrderedDict()
        self.set_font(QFont())

    def set_font(self, small: QFont) -> None:
        self._font = QFont(small)
        self._fm = QFontMetrics(self._font)
        self._line_h = self._fm.height() + 4
        self._docs.clear()

    def clear(self) -> None:
        self._docs.clear()

    # ------------------------------------------------------------ state
    def expanded(self, key: str) -> bool:
        return key in self._expanded

    def toggle(self, key: str) -> None:
        self._expanded.symmetric_difference_update({key})

    @staticmethod
    def label(message: Message, streaming: bool = False) -> str:
        words = len((message.thinking or "").split())
        unit = _tr("word") if words == 1 else _tr("words")
        verb = _tr("Thinking…") if streaming and not message.content else _tr("Thought")
        return f"{verb} ({words} {unit})"

    # ------------------------------------------------------------ geometry
    def _document(self, row: ConversationRow) -> QTextDocument:
        """The reasoning as plain text (never Markdown or HTML), laid out to the body width."""
        text = (row.message.thinking or "")[:THINKING_CHAR_LIMIT] if row.message else ""
        width = self._geometry.text_width()
        entry = self._docs.get(row.key)
        if entry is not None and entry[0] == (text, width):
            self._docs.move_to_end(row.key)
            return entry[1]
        doc = QTextDocument()
        doc.setDefaultFont(self._font)
        doc.setDocumentMargin(0)
        doc.setDefaultTextOption(QTextOption(Qt.AlignmentFlag.AlignLeft))
        doc.setPlainText(text)
        doc.setTextWidth(width)
        self._docs[row.key] = ((text, width), doc)
        while len(self._docs) > DOC_CACHE_SIZE:
            self._docs.popitem(last=False)
        return doc

    def height(self, row: ConversationRow) -> int:
        """Room the reasoning takes under the body (0 without reasoning)."""
        if row.message is None or not row.message.thinking:
            return 0
        height = GAP + self._line_h
        if self.expanded(row.key):
            height += int(self._document(row).size().height()) + GAP
        return height

    def _top(self, row: ConversationRow, row_rect: QRect) -> int:
        card = self._geometry.card_rect(row_rect)
        return card.bottom() + 1 - self._pad_v - self._geometry.footer_for(row) - self.height(row)

    def toggle_rect(self, row: ConversationRow, row_rect: QRect) -> QRect | None:
        """The clickable "Thought (N words)" line, or None for a row without reasoning."""
        if row.message is None or not row.message.thinking:
            return None
        card = self._geometry.card_rect(row_rect)
        width = self._fm.horizontalAdvance(self.label(row.message, row.streaming) + "  ▾") + 8
        return QRect(card.left() + self._pad_h - 4, self._top(row, row_rect) + GAP, width,
                     self._line_h)

    # ------------------------------------------------------------ painting
    def paint(self, painter: QPainter, row: ConversationRow, row_rect: QRect,
              muted: QColor) -> None:
        toggle = self.toggle_rect(row, row_rect)
        if toggle is None or row.message is None:
            return
        open_ = self.expanded(row.key)
        painter.save()
        painter.setFont(self._font)
        painter.setPen(muted)
        text = self.label(row.message, row.streaming) + ("  ▾" if open_ else "  ▸")
        painter.drawText(toggle.adjusted(4, 0, 0, 0),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
        if open_:
            doc = self._document(row)
            top = toggle.bottom() + 1
            painter.translate(toggle.left() + 4, top)
            painter.setClipRect(QRectF(0, 0, doc.textWidth(), doc.size().height()))
            context = QAbstractTextDocumentLayout.PaintContext()
            palette = QPalette()
            palette.setColor(QPalette.ColorRole.Text, muted)
            palette.setColor(QPalette.ColorRole.WindowText, muted)
            context.palette = palette
            doc.documentLayout().draw(painter, context)
        painter.restore()
