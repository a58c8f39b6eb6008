"""Pieces of a row painted by ``MessageDelegate``: colours, the pin and copy glyphs, the
Continue / Regenerate buttons of a stopped reply (geometry shared with the view's clicks),
the streaming cursor and the compaction marker band."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QTextDocument,
)
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem

from ollm_desktop.ui.conversation.conversation_model import ConversationRow
from ollm_desktop.ui.theme.tokens import RADIUS

# (action, label): the row's buttons, left to right; the action names the window's QAction
# (``actionContinue`` / ``actionRegenerate``) that a click triggers.
REPLY_BUTTONS = (("continue", "Continue"), ("regenerate", "Regenerate"))
BUTTON_GAP = 8  # between the body and the buttons, and between two buttons


def blend(a: QColor, b: QColor, amount: float) -> QColor:
    """``a`` moved towards ``b`` by ``amount`` (0..1): palette-relative colours."""
    return QColor.fromRgbF(
        a.redF() + (b.redF() - a.redF()) * amount,
        a.greenF() + (b.greenF() - a.greenF()) * amount,
        a.blueF() + (b.blueF() - a.blueF()) * amount,
        1.0,
    )


def button_label(action: str) -> str:
    text = dict(REPLY_BUTTONS)[action]
    return QCoreApplication.translate("MessageDelegate", text)


def footer_height(metrics: QFontMetrics) -> int:
    """Room the buttons take under the body of a stopped reply."""
    return BUTTON_GAP + metrics.height() + 10


def button_rects(card: QRect, left: int, bottom: int,
                 metrics: QFontMetrics) -> list[tuple[str, QRect]]:
    """The buttons' rectangles: in a row at ``left``, their bottom at ``bottom``."""
    height = metrics.height() + 10
    x = left
    rects = []
    for action, _text in REPLY_BUTTONS:
        width = metrics.horizontalAdvance(button_label(action)) + 24
        rects.append((action, QRect(x, bottom - height, width, height)))
        x += width + BUTTON_GAP
    return [(a, r) for a, r in rects if r.right() <= card.right()]


def paint_buttons(painter: QPainter, rects: list[tuple[str, QRect]], palette: QPalette,
                  font: QFont) -> None:
    base = palette.color(QPalette.ColorRole.Base)
    highlight = palette.color(QPalette.ColorRole.Highlight)
    painter.setFont(font)
    for action, rect in rects:
        painter.setPen(QPen(blend(base, highlight, 0.7), 1.0))
        painter.setBrush(blend(base, highlight, 0.08))
        radius = rect.height() / 2
        painter.drawRoundedRect(QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)
        painter.setPen(palette.color(QPalette.ColorRole.Link))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, button_label(action))


def bubbled(row: ConversationRow | None) -> bool:
    """The user's messages are bubbles; replies, system text and notes are not."""
    return row is not None and row.message is not None and row.message.role == "user"


def paint_surface(painter: QPainter, option: QStyleOptionViewItem, card: QRect,
                  bubble: QRect | None, role: str, dimmed: bool) -> None:
    """What is under a message's text: the user's bubble; nothing under a reply (plain text
    in the column), a quiet frame when it is selected; a faint box under system text."""
    palette: QPalette = option.palette
    base = palette.color(QPalette.ColorRole.Base)
    text = palette.color(QPalette.ColorRole.Text)
    highlight = palette.color(QPalette.ColorRole.Highlight)
    selected = bool(option.state & QStyle.StateFlag.State_Selected)
    if bubble is not None:
        painter.setPen(QPen(highlight, 1.6) if selected else Qt.PenStyle.NoPen)
        bubble_fill = palette.color(QPalette.ColorRole.AlternateBase)  # text reads at 4.5:1
        painter.setBrush(blend(bubble_fill, base, 0.5) if dimmed else bubble_fill)
        painter.drawRoundedRect(QRectF(bubble).adjusted(0.5, 0.5, -0.5, -0.5), RADIUS.bubble,
                                RADIUS.bubble)
    elif selected or role == "system":
        border = highlight if selected else blend(base, text, 0.13 if not dimmed else 0.08)
        painter.setPen(QPen(border, 1.6 if selected else 1.0))
        painter.setBrush(blend(base, text, 0.04) if role == "system" else Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(QRectF(card).adjusted(0.5, 0.5, -0.5, -0.5), RADIUS.surface,
                                RADIUS.surface)


def draw_pin(painter: QPainter, rect: QRect, colour: QColor, filled: bool) -> None:
    """A push-pin glyph (no icon font needed, scales with the rect)."""
    painter.save()
    painter.translate(QRectF(rect).center())
    painter.rotate(35)
    s = rect.width() / 16.0
    painter.scale(s, s)
    head = QPainterPath()
    head.moveTo(-3.5, -7)
    head.lineTo(3.5, -7)
    head.lineTo(2.5, -5.5)
    head.lineTo(2.5, -1.5)
    head.lineTo(5, 1.5)
    head.lineTo(-5, 1.5)
    head.lineTo(-2.5, -1.5)
    head.lineTo(-2.5, -5.5)
    head.closeSubpath()
    pen = QPen(colour, 1.3)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    painter.setPen(pen)
    painter.setBrush(colour if filled else Qt.BrushStyle.NoBrush)
    painter.drawPath(head)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(pen)
    painter.drawLine(QPointF(0, 1.5), QPointF(0, 7.5))
    painter.restore()


def draw_copy_glyph(painter: QPainter, rect: QRect, colour: QColor, done: bool) -> None:
    """Two overlapping sheets (copy), or a check mark once copied."""
    painter.save()
    pen = QPen(colour, 1.3)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    r = QRectF(rect)
    s = r.width() / 16.0
    if done:
        painter.drawPolyline([QPointF(r.left() + 3 * s, r.top() + 8.5 * s),
                              QPointF(r.left() + 6.5 * s, r.top() + 12 * s),
                              QPointF(r.left() + 13 * s, r.top() + 4.5 * s)])
    else:
        painter.drawRoundedRect(QRectF(r.left() + 5 * s, r.top() + 1.5 * s, 9 * s, 10 * s),
                                1.5 * s, 1.5 * s)
        painter.drawPolyline([QPointF(r.left() + 3.5 * s, r.top() + 4.5 * s),
                              QPointF(r.left() + 2 * s, r.top() + 4.5 * s),
                              QPointF(r.left() + 2 * s, r.top() + 14.5 * s),
                              QPointF(r.left() + 10.5 * s, r.top() + 14.5 * s),
                              QPointF(r.left() + 10.5 * s, r.top() + 13 * s)])
    painter.restore()


def paint_stream_cursor(painter: QPainter, doc: QTextDocument, colour: QColor) -> None:
    """A block cursor after the last character of a reply being written."""
    block = doc.lastBlock()
    layout = block.layout()
    if layout is None or layout.lineCount() == 0:
        return
    line = layout.lineAt(layout.lineCount() - 1)
    rect = doc.documentLayout().blockBoundingRect(block)
    x = rect.left() + line.x() + line.naturalTextWidth() + 3
    y = rect.top() + line.y() + 2
    cursor_colour = QColor(colour)
    cursor_colour.setAlphaF(0.7)
    painter.fillRect(QRectF(x, y, 7, max(4.0, line.height() - 4)), cursor_colour)


def paint_marker(painter: QPainter, option: QStyleOptionViewItem, card: QRect, label: str,
                 font: QFont) -> None:
    """A compaction marker as a quiet row: a hairline, the group's line in small muted text
    and a "Show" link in the middle of it (the whole row opens the checkpoint)."""
    palette: QPalette = option.palette
    base = palette.color(QPalette.ColorRole.Base)
    text = palette.color(QPalette.ColorRole.Text)
    selected = bool(option.state & QStyle.StateFlag.State_Selected)
    fm = QFontMetrics(font)
    link_text = QCoreApplication.translate("MessageDelegate", "Show summary / history")
    link_w = fm.horizontalAdvance(link_text)
    label = fm.elidedText(label, Qt.TextElideMode.ElideRight,
                          max(40, card.width() - link_w - 12 - 2 * 16))
    label_w = fm.horizontalAdvance(label)
    width = label_w + 12 + link_w
    left = card.center().x() - width // 2
    y = card.center().y()
    painter.setPen(QPen(palette.color(QPalette.ColorRole.Highlight) if selected
                        else blend(base, text, 0.18), 1.0))
    if left - 10 > card.left() + 6:  # the hairline where the text leaves room for it
        painter.drawLine(QPointF(card.left(), y + 0.5), QPointF(left - 10, y + 0.5))
        painter.drawLine(QPointF(left + width + 10, y + 0.5), QPointF(card.right(), y + 0.5))
    painter.setFont(font)
    painter.setPen(palette.color(QPalette.ColorRole.PlaceholderText))
    row = QRect(left, y - fm.height() // 2, width, fm.height())
    painter.drawText(row, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, label)
    painter.setPen(palette.color(QPalette.ColorRole.Link))
    painter.drawText(row, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                     link_text)
