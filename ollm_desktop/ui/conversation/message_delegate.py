"""Paints messages as a current chat app does, with cached sizes: the user's messages are
bubbles on the right, replies are plain text in a centred column of a readable line length
(``READABLE_LINE_CHARS``), the model's name and the time are small, compaction markers are
quiet dividers across the row (``row_parts.paint_marker``), actions show on hover.

QListView asks every row's size on each relayout, so ``sizeHint`` must be O(1): sizes are
cached per message id with the (layout revision, width) they were computed for. Rows never
painted get a cheap estimate; a painted (or prefetched) row gets its exact height, and the
view is told when an estimate was wrong so it can relayout while keeping its anchor.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable

from PySide6.QtCore import (
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    QPointF,
    QRect,
    QRectF,
    QSize,
)
from PySide6.QtCore import Signal as _Signal
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QFont,
    QFontMetrics,
    QPainter,
    QPalette,
)
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from ollm_desktop.ui.conversation import row_images, row_tool_calls
from ollm_desktop.ui.conversation.conversation_model import ConversationModel, ConversationRow
from ollm_desktop.ui.conversation.roles import DIMMED_VISIBILITIES, KIND_MARKER
from ollm_desktop.ui.conversation.row_header import paint_header
from ollm_desktop.ui.conversation.row_parts import (
    blend,
    bubbled,
    button_rects,
    footer_height,
    paint_buttons,
    paint_marker,
    paint_stream_cursor,
    paint_surface,
)
from ollm_desktop.ui.conversation.row_thinking import RowThinking
from ollm_desktop.ui.text.code_blocks import (
    CODE_PAD,
    code_rects,
    copy_button_rect,
    paint_code_blocks,
)
from ollm_desktop.ui.text.markdown import VIEW_CHAR_LIMIT, SafeTextDocument, make_document
from ollm_desktop.ui.theme.tokens import READABLE_LINE_CHARS

# Geometry (logical pixels).
OUTER_H = 14  # card to viewport edge
OUTER_V = 5  # card to row edge
PAD_H = 14  # text to card edge
PAD_V = 10
HEADER_GAP = 6
BUBBLE_SHARE = 0.8  # of the column: a user's bubble is at most this wide
BUBBLE_H, BUBBLE_V = 14, 9  # text to bubble edge
PIN_SIZE = 16
STREAM_SLACK_LINES = 3  # a streaming row grows in steps: fewer full relayouts
DOC_CACHE_SIZE = 300
STREAM_COLOUR_LIMIT = 4000  # code characters coloured per relayout while a reply streams


def _tr(text: str) -> str:
    return QCoreApplication.translate("MessageDelegate", text)


class MessageDelegate(QStyledItemDelegate):
    sizeMismatch = _Signal()  # an estimated height proved wrong: relayout needed

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._model: ConversationModel | None = None
        self._width = 640
        self._sizes: dict[str, tuple[int, int, QSize, bool]] = {}
        # (layout revision, streaming) -> document: a reply is coloured in full once done
        self._docs: OrderedDict[str, tuple[tuple[int, bool], SafeTextDocument]] = OrderedDict()
        self.code_colours = True
        self.read_only = False
        self.dark = False  # code colours for a dark palette (the view follows its palette)
        self.hover_key: str | None = None  # the row under the mouse: its Copy glyph shows
        self.copied: tuple[str, str] | None = None  # (row key, "message" | "code:N") just copied
        self.thinking = RowThinking(self, (PAD_H, PAD_V))  # reasoning under a reply
        self.alternatives: dict[str, str] = {}  # message id -> "2/3": it has other versions
        # (objectName, label) of a row's hover buttons; the window's message actions
        self.row_actions: Callable[[ConversationRow], list[tuple[str, str]]] | None = None
        self.row_notes: Callable[[ConversationRow], list[str]] | None = None  # header tags
        self.selector_row: str | None = None  # the row the branchSelector widget sits on
        self.set_font(QFont())

    # ------------------------------------------------------------ configuration
    def set_model(self, model: ConversationModel | None) -> None:
        self._model = model
        self.clear_caches()

    def set_font(self, font: QFont) -> None:
        self._font = QFont(font)
        self._bold = QFont(font)
        self._bold.setWeight(QFont.Weight.DemiBold)
        self._small = QFont(font)
        size = font.pointSizeF()
        if size > 0:
            self._small.setPointSizeF(max(6.0, size * 0.88))
        self._fm = QFontMetrics(self._font)
        self._small_fm = QFontMetrics(self._small)
        self._bold_fm = QFontMetrics(self._bold)
        self._line = self._fm.lineSpacing()
        # The column: READABLE_LINE_CHARS of ordinary text (not of the font's average glyph).
        sample = "The team reviewed the design and agreed to keep the current approach. "
        per_char = self._fm.horizontalAdvance(sample) / len(sample)
        self.column_width = round(per_char * READABLE_LINE_CHARS) + 2 * PAD_H
        self._char_w = max(1.0, self._fm.averageCharWidth() * 1.04)
        self._header_h = max(self._bold_fm.height(), self._small_fm.height() + 6, PIN_SIZE)
        self._strip_h = self._small_fm.height() + 10  # a code block's Copy strip
        self.thinking.set_font(self._small)
        self.clear_caches()

    def set_width(self, width: int) -> bool:
        """The viewport width rows are laid out for; True when it changed."""
        width = max(120, int(width))
        if width == self._width:
            return False
        self._width = width
        return True

    @property
    def width(self) -> int:
        return self._width

    def column_rect(self, area: QRect) -> QRect:
        """The readable column centred in ``area`` (where the empty chat's hint wraps)."""
        width = min(area.width(), self.column_width)
        return QRect(area.left() + (area.width() - width) // 2, area.top(), width, area.height())

    def clear_caches(self) -> None:
        self._sizes.clear()
        self._docs.clear()
        self.thinking.clear()

    def set_code_colours(self, on: bool) -> None:
        """Off for the window's first picture (Pygments stays unimported until the window is
        up); on again rebuilds the documents, sizes stay (colours do not move text)."""
        if on != self.code_colours:
            self.code_colours = on
            self._docs.clear()

    def set_dark(self, dark: bool) -> None:
        """Code colours for the palette; documents are rebuilt, sizes stay (same layout)."""
        if dark != self.dark:
            self.dark = dark
            self._docs.clear()

    def selector_on(self, row: ConversationRow) -> bool:
        return row.message is not None and row.message.id == self.selector_row

    # ------------------------------------------------------------ geometry
    def card_rect(self, row_rect: QRect) -> QRect:
        """The row's column: centred, at most a readable line length wide."""
        width = min(self._width - 2 * OUTER_H, self.column_width)
        left = row_rect.left() + max(OUTER_H, (row_rect.width() - width) // 2)
        return QRect(left, row_rect.top() + OUTER_V, width, row_rect.height() - 2 * OUTER_V)

    def text_width(self, row: ConversationRow | None = None) -> int:
        """Where a row's text wraps: the column's width, or a user's bubble's at most."""
        column = max(40, min(self._width - 2 * OUTER_H, self.column_width) - 2 * PAD_H)
        return max(40, int(column * BUBBLE_SHARE)) if bubbled(row) else column

    def bubble_rect(self, row: ConversationRow, row_rect: QRect) -> QRect:
        """A user's bubble: right-aligned in the column, as wide as its text needs (the text
        wraps at ``text_width(row)`` whatever the bubble's width: sizes do not depend on it)."""
        card = self.card_rect(row_rect)
        top = card.top() + PAD_V + self._header_h + HEADER_GAP
        text = self.document(row).idealWidth() if row.message and row.message.content else 0
        content = max(text, row_images.width(self, row), self._fm.horizontalAdvance("mmmm"))
        width = min(self.text_width(row), math.ceil(content)) + 2 * BUBBLE_H
        bottom = card.bottom() - PAD_V + 1 - self.footer_for(row) - self.thinking.height(row)
        return QRect(card.right() + 1 - width, top, width, bottom - top)

    def pin_rect(self, row_rect: QRect) -> QRect:
        card = self.card_rect(row_rect)
        top = card.top() + PAD_V + (self._header_h - PIN_SIZE) // 2
        return QRect(card.right() - PAD_H - PIN_SIZE + 1, top, PIN_SIZE, PIN_SIZE)

    def pin_hit_rect(self, row_rect: QRect) -> QRect:
        return self.pin_rect(row_rect).adjusted(-6, -6, 6, 6)

    def copy_rect(self, row_rect: QRect) -> QRect:
        """The Copy glyph left of the pin (shown on the hovered or selected row)."""
        return self.pin_rect(row_rect).translated(-PIN_SIZE - 10, 0)

    def body_origin(self, row_rect: QRect, row: ConversationRow | None = None) -> QPoint:
        """Where the row's text starts (inside the bubble for a user's message)."""
        if row is not None and bubbled(row):
            bubble = self.bubble_rect(row, row_rect)
            return QPoint(bubble.left() + BUBBLE_H, bubble.top() + BUBBLE_V)
        card = self.card_rect(row_rect)
        return QPoint(card.left() + PAD_H, card.top() + PAD_V + self._header_h + HEADER_GAP)

    def code_copy_rects(self, row: ConversationRow, row_rect: QRect) -> list[QRect]:
        """The Copy buttons of the row's code blocks, in view coordinates."""
        if row.message is None or not row.message.content:
            return []
        doc = self.document(row)
        origin = self.body_origin(row_rect, row)
        return [copy_button_rect(strip, self._small_fm).translated(origin)
                for strip, _box in code_rects(doc, doc.code_blocks)]

    def marker_height(self) -> int:
        return 2 * OUTER_V + self._small_fm.height() + 16

    def _height_for_body(self, body: float, row: ConversationRow) -> int:
        if row.streaming:
            step = STREAM_SLACK_LINES * self._line
            body = math.ceil((body + 1) / step) * step
        body += row_images.height(self, row)  # a message's images, under its text
        body += row_tool_calls.height(self, row)  # a reply's tool calls (their panel)
        bubble = 2 * BUBBLE_V if bubbled(row) else 0
        return int(2 * OUTER_V + 2 * PAD_V + self._header_h + HEADER_GAP + math.ceil(body)
                   + bubble + self.footer_for(row) + self.thinking.height(row))

    def _has_buttons(self, row: ConversationRow) -> bool:
        return row.actions and not self.read_only

    def footer_for(self, row: ConversationRow) -> int:
        return footer_height(self._small_fm) if self._has_buttons(row) else 0

    def toggle_thinking(self, key: str) -> None:
        """Expand or collapse a reply's reasoning: its height changes, so relayout."""
        self.thinking.toggle(key)
        self._sizes.pop(key, None)
        self.sizeMismatch.emit()

    def reply_button_rects(self, row_rect: QRect) -> list[tuple[str, QRect]]:
        """Continue / Regenerate of a stopped newest reply (its row rect given)."""
        card = self.card_rect(row_rect)
        return button_rects(card, card.left() + PAD_H, card.bottom() - PAD_V + 1,
                            self._small_fm)

    # ------------------------------------------------------------ sizes
    def _row(self, index: QModelIndex | QPersistentModelIndex) -> ConversationRow | None:
        model = self._model
        if model is None:
            return None
        position = index.row()
        return model.rows[position] if 0 <= position < len(model.rows) else None

    def sizeHint(self, option: QStyleOptionViewItem,
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        row = self._row(index)
        if row is None:
            return super().sizeHint(option, index)
        if row.kind == KIND_MARKER:
            return QSize(self._width, self.marker_height())
        entry = self._sizes.get(row.key)
        if entry is not None and entry[0] == row.layout_revision and entry[1] == self._width:
            return entry[2]
        size = self._estimate(row)
        self._sizes[row.key] = (row.layout_revision, self._width, size, False)
        return size

    def _estimate(self, row: ConversationRow) -> QSize:
        """Line count from length and newlines: no text layout, ~1 us per message."""
        assert row.message is not None
        text = row.message.content
        length = min(len(text), VIEW_CHAR_LIMIT)
        per_line = max(8, int(self.text_width(row) / self._char_w))
        lines = text.count("\n", 0, length) + 1 + length // per_line
        if not text:
            lines = 1
        strips = text.count("```", 0, length) // 2 * (self._strip_h + 2 * CODE_PAD + 10)
        return QSize(self._width, self._height_for_body(lines * self._line + strips, row))

    def exact_size(self, row: ConversationRow) -> tuple[QSize, bool]:
        """The laid-out size of a message row and whether it differs from the cached one."""
        assert row.message is not None
        entry = self._sizes.get(row.key)
        if entry is not None and entry[3] and entry[0] == row.layout_revision and \
                entry[1] == self._width:
            return entry[2], False
        doc = self.document(row)
        size = QSize(self._width, self._height_for_body(doc.size().height(), row))
        changed = entry is None or entry[2] != size
        self._sizes[row.key] = (row.layout_revision, self._width, size, True)
        return size, changed

    def ensure_exact(self, position: int) -> bool:
        """Make row ``position`` exact; True when its height changed."""
        model = self._model
        if model is None or not 0 <= position < len(model.rows):
            return False
        row = model.rows[position]
        if row.kind == KIND_MARKER:
            return False
        return self.exact_size(row)[1]

    def cached_height(self, position: int) -> int:
        model = self._model
        if model is None or not 0 <= position < len(model.rows):
            return 0
        row = model.rows[position]
        if row.kind == KIND_MARKER:
            return self.marker_height()
        entry = self._sizes.get(row.key)
        if entry is not None and entry[0] == row.layout_revision and entry[1] == self._width:
            return entry[2].height()
        return self._estimate(row).height()

    def document(self, row: ConversationRow) -> SafeTextDocument:
        """The row's laid-out document, from a bounded LRU cache keyed by (id, revision)."""
        assert row.message is not None
        entry = self._docs.get(row.key)
        stamp = (row.layout_revision, row.streaming)
        if entry is not None and entry[0] == stamp:
            self._docs.move_to_end(row.key)
            doc = entry[1]
        else:
            doc = make_document(row.message.content, self._font, dark=self.dark,
                                strip_height=self._strip_h,
                                colour_limit=0 if not self.code_colours else
                                STREAM_COLOUR_LIMIT if row.streaming else None)
            self._docs[row.key] = (stamp, row.marks(doc) if row.marks else doc)
            while len(self._docs) > DOC_CACHE_SIZE:
                self._docs.popitem(last=False)
        width = self.text_width(row)
        if doc.textWidth() != width:
            doc.setTextWidth(width)
        return doc

    # ------------------------------------------------------------ painting
    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        row = self._row(index)
        if row is None:
            super().paint(painter, option, index)
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setClipRect(option.rect)
        try:
            if row.kind == KIND_MARKER:
                self._paint_marker(painter, option, row)
            else:
                self._paint_message(painter, option, row)
        finally:
            painter.restore()

    def _paint_message(self, painter: QPainter, option: QStyleOptionViewItem,
                       row: ConversationRow) -> None:
        message = row.message
        assert message is not None
        exact, _ = self.exact_size(row)
        if exact.height() != option.rect.height():
            self.sizeMismatch.emit()  # laid out with an estimate: relayout (anchored)
        palette: QPalette = option.palette
        base = palette.color(QPalette.ColorRole.Base)
        text = palette.color(QPalette.ColorRole.Text)
        highlight = palette.color(QPalette.ColorRole.Highlight)
        dimmed = row.visibility in DIMMED_VISIBILITIES
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        text_colour = blend(text, base, 0.5) if dimmed else text
        quiet = palette.color(QPalette.ColorRole.PlaceholderText)  # 4.5:1 on the surfaces
        muted = blend(quiet, base, 0.3) if dimmed else quiet

        card = self.card_rect(option.rect)
        bubble = self.bubble_rect(row, option.rect) if bubbled(row) else None
        paint_surface(painter, option, card, bubble, message.role, dimmed)

        # Header: role, time, state tags; pin badge and pin toggle on the right.
        top = card.top() + PAD_V
        header = QRect(card.left() + PAD_H, top, card.width() - 2 * PAD_H, self._header_h)
        paint_header(self, painter, option, row, header,
                     (text, base, highlight, text_colour, muted, dimmed, selected))
        copied = self.copied[1] if self.copied and self.copied[0] == row.key else None

        # Body.
        origin = self.body_origin(option.rect, row)
        doc = self.document(row)
        painter.save()
        painter.translate(origin)
        context = QAbstractTextDocumentLayout.PaintContext()
        body_palette = QPalette(palette)
        body_palette.setColor(QPalette.ColorRole.Text, text_colour)
        body_palette.setColor(QPalette.ColorRole.WindowText, text_colour)
        context.palette = body_palette
        context.clip = QRectF(0, 0, self.text_width(row), card.bottom() - origin.y())
        if doc.code_blocks and message.content:
            code = int(copied[5:]) if copied and copied.startswith("code:") else None
            paint_code_blocks(painter, doc, doc.code_blocks, body_palette, self._small, code)
        if message.content:
            doc.documentLayout().draw(painter, context)
        else:
            painter.setFont(self._font)
            painter.setPen(muted)
            painter.drawText(QPointF(0, self._fm.ascent()), "…")
        if row.streaming and message.content:
            paint_stream_cursor(painter, doc, highlight)
        painter.restore()
        row_images.paint(self, painter, row, option.rect, muted)  # a message's images
        self.thinking.paint(painter, row, option.rect, muted)
        if self._has_buttons(row):
            paint_buttons(painter, self.reply_button_rects(option.rect), palette, self._small)

    def _paint_marker(self, painter: QPainter, option: QStyleOptionViewItem,
                      row: ConversationRow) -> None:
        label = self._model.marker_text(row.group) if self._model is not None else ""
        paint_marker(painter, option, option.rect.adjusted(OUTER_H, OUTER_V, -OUTER_H, -OUTER_V),
                     label, self._small)
