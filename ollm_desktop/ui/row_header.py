"""A message row's header: role, model, time and state tags on the left; the Pinned badge,
the Copy glyph and the pin toggle on the right."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QStyleOptionViewItem

from ollm_desktop.ui.conversation_model import ConversationRow, role_label
from ollm_desktop.ui.reply_info import reply_model
from ollm_desktop.ui.roles import CLIPPED, DIMMED_VISIBILITIES, PRESERVED
from ollm_desktop.ui.row_parts import blend, draw_copy_glyph, draw_pin

if TYPE_CHECKING:
    from ollm_desktop.ui.message_delegate import MessageDelegate

Colours = tuple[QColor, QColor, QColor, QColor, QColor, bool, bool]


def _tr(text: str) -> str:
    return QCoreApplication.translate("MessageDelegate", text)


def paint_header(d: MessageDelegate, painter: QPainter, option: QStyleOptionViewItem,
                 row: ConversationRow, header: QRect, colours: Colours) -> None:
    """``colours``: text, base, highlight, the text's colour, muted, dimmed, selected."""
    text, base, highlight, text_colour, muted, dimmed, selected = colours
    message = row.message
    assert message is not None
    palette: QPalette = option.palette
    x, top = header.left(), header.top()
    painter.setFont(d._bold)
    role_colour = highlight if message.role == "user" and not dimmed else text_colour
    painter.setPen(role_colour)
    label = role_label(message.role)
    painter.drawText(header, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                     label)
    x += d._bold_fm.horizontalAdvance(label) + 10
    painter.setFont(d._small)
    painter.setPen(muted)
    details = [message.created_at.astimezone().strftime("%H:%M")]
    if reply_model(message):  # the model that wrote the reply (its figures: on hover)
        details.insert(0, reply_model(message))
    if d._model is not None and (row.visibility in DIMMED_VISIBILITIES
                                 or row.visibility in (PRESERVED, CLIPPED)):
        details.append(d._model.visibility_text(row))
    if message.partial:
        details.append(_tr("writing…") if row.streaming else _tr("stopped"))
    detail = " · ".join(details)
    pin = d.pin_rect(option.rect)
    copy = d.copy_rect(option.rect)  # left of the pin; the header text stops before it
    right_limit = copy.left() - 8
    if message.pinned:
        badge_text = _tr("Pinned")
        badge_w = d._small_fm.horizontalAdvance(badge_text) + 14
        badge = QRect(copy.left() - 6 - badge_w, header.center().y() - 9, badge_w, 18)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(highlight)
        painter.drawRoundedRect(QRectF(badge), 9, 9)
        painter.setPen(palette.color(QPalette.ColorRole.HighlightedText))
        painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, badge_text)
        right_limit = badge.left() - 8
    painter.setPen(muted)
    detail_rect = QRect(x, top, max(0, right_limit - x), d._header_h)
    painter.drawText(detail_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                     d._small_fm.elidedText(detail, Qt.TextElideMode.ElideRight,
                                            detail_rect.width()))
    if message.pinned or not d.read_only:
        pin_colour = highlight if message.pinned else blend(text, base, 0.6)
        draw_pin(painter, pin, pin_colour, filled=message.pinned)
    copied = d.copied[1] if d.copied and d.copied[0] == row.key else None
    if message.content and (selected or row.key == d.hover_key or copied == "message"):
        draw_copy_glyph(painter, copy, blend(text, base, 0.35), copied == "message")

