"""A message row's header, small and quiet: the model's name, the time and state tags (left
above a reply, right above the user's bubble). On the right, from the edge, on the hovered or
selected row: the pin toggle (always when pinned), the Copy glyph, the versions of a message
that has alternatives ("‹ 2/3 ›", where the window's ``branchSelector`` sits on the row it is
shown for), the Pinned badge, and the row's actions (Edit, Fork, Delete, Regenerate...) as
small buttons, which are also in the row's menu and the window's menus. The rectangles are
computed here for painting and for the view's clicks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QStyleOptionViewItem

from ollm_desktop.ui.conversation.conversation_model import ConversationRow, role_label
from ollm_desktop.ui.conversation.reply_info import reply_model
from ollm_desktop.ui.conversation.roles import CLIPPED, DIMMED_VISIBILITIES, PRESERVED
from ollm_desktop.ui.conversation.row_parts import blend, draw_copy_glyph, draw_pin

if TYPE_CHECKING:
    from ollm_desktop.ui.conversation.message_delegate import MessageDelegate

Colours = tuple[QColor, QColor, QColor, QColor, QColor, bool, bool]
BRANCH_W = 72  # the versions indicator (and the selector widget over it)
CHIP_H = 20
ACTION_PREFIX = "act:"  # + the action's objectName: a hover button's hotspot


def branch_rect(d: MessageDelegate, row: ConversationRow, row_rect: QRect) -> QRect | None:
    """Where a message with alternatives shows its versions; None without alternatives."""
    if row.message is None or row.message.id not in d.alternatives:
        return None
    copy = d.copy_rect(row_rect)
    return QRect(copy.left() - 8 - BRANCH_W, copy.center().y() - CHIP_H // 2, BRANCH_W,
                 CHIP_H)


def _badge_rect(d: MessageDelegate, row: ConversationRow, row_rect: QRect) -> QRect | None:
    if row.message is None or not row.message.pinned:
        return None
    edge = branch_rect(d, row, row_rect) or d.copy_rect(row_rect)
    width = d._small_fm.horizontalAdvance(_tr("Pinned")) + 14
    return QRect(edge.left() - 6 - width, edge.center().y() - 9, width, 18)


def action_rects(d: MessageDelegate, row: ConversationRow,
                 row_rect: QRect) -> list[tuple[str, str, QRect]]:
    """(objectName, label, rect) of the row's action buttons, left to right."""
    if d.read_only or d.row_actions is None or row.message is None:
        return []
    edge = (_badge_rect(d, row, row_rect) or branch_rect(d, row, row_rect)
            or d.copy_rect(row_rect))
    right = edge.left() - 8
    top = d.copy_rect(row_rect).center().y() - CHIP_H // 2
    made: list[tuple[str, str, QRect]] = []
    for name, label in reversed(d.row_actions(row)):
        width = d._small_fm.horizontalAdvance(label) + 14
        rect = QRect(right - width, top, width, CHIP_H)
        made.append((name, label, rect))
        right = rect.left() - 4
    made.reverse()
    return made


def _chip(painter: QPainter, rect: QRect, label: str, edge: QColor, fill: QColor,
          text: QColor) -> None:
    painter.setPen(edge)
    painter.setBrush(fill)
    painter.drawRoundedRect(QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5)
    painter.setPen(text)
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, label)


def _tr(text: str) -> str:
    return QCoreApplication.translate("MessageDelegate", text)


def paint_header(d: MessageDelegate, painter: QPainter, option: QStyleOptionViewItem,
                 row: ConversationRow, header: QRect, colours: Colours) -> None:
    """``colours``: text, base, highlight, the text's colour, muted, dimmed, selected."""
    text, base, highlight, text_colour, muted, _dimmed, selected = colours
    message = row.message
    assert message is not None
    palette: QPalette = option.palette
    x, top = header.left(), header.top()
    user = message.role == "user"
    # Small and quiet: the model's name and the time; a role only where no model names it
    # (the user's bubble says whose it is).
    label = "" if user or reply_model(message) else role_label(message.role)
    if label:
        painter.setFont(d._bold)
        painter.setPen(text_colour)
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
    elif message.cut_off:
        details.append(_tr("cut off at the length limit"))
    if d.row_notes is not None:  # e.g. what a reply's request recalled
        details += d.row_notes(row)
    hovered = selected or row.key == d.hover_key
    # Above the user's bubble the time alone shows on hover; a state (kept verbatim...) always.
    detail = "" if user and len(details) == 1 and not hovered else " · ".join(details)
    pin = d.pin_rect(option.rect)
    copy = d.copy_rect(option.rect)  # left of the pin; the header text stops before it
    # The pin and Copy show on hover (or when pinned): until then the text may reach the edge.
    right_limit = copy.left() - 8 if hovered or message.pinned else header.right()
    versions = branch_rect(d, row, option.rect)
    if versions is not None:
        right_limit = versions.left() - 8
        if not d.selector_on(row):  # the selector widget covers the row it is shown for
            _chip(painter, versions, f"‹ {d.alternatives[message.id]} ›",
                  blend(text, base, 0.75), base, muted)
    badge = _badge_rect(d, row, option.rect)
    if badge is not None:
        badge_text = _tr("Pinned")
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(highlight)
        painter.drawRoundedRect(QRectF(badge), 9, 9)
        painter.setPen(palette.color(QPalette.ColorRole.HighlightedText))
        painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, badge_text)
        right_limit = badge.left() - 8
    if selected or row.key == d.hover_key:
        for _name, button_label, rect in action_rects(d, row, option.rect):
            _chip(painter, rect, button_label, blend(text, base, 0.7),
                  blend(base, text, 0.04), blend(text, base, 0.25))
            right_limit = min(right_limit, rect.left() - 8)
    painter.setFont(d._small)
    painter.setPen(muted)
    detail_rect = QRect(x, top, max(0, right_limit - x), d._header_h)
    side = Qt.AlignmentFlag.AlignRight if user else Qt.AlignmentFlag.AlignLeft
    painter.drawText(detail_rect, side | Qt.AlignmentFlag.AlignVCenter,
                     d._small_fm.elidedText(detail, Qt.TextElideMode.ElideRight,
                                            detail_rect.width()))
    if message.pinned or (hovered and not d.read_only):  # Pin: an action, shown on hover
        pin_colour = highlight if message.pinned else blend(text, base, 0.6)
        draw_pin(painter, pin, pin_colour, filled=message.pinned)
    copied = d.copied[1] if d.copied and d.copied[0] == row.key else None
    if message.content and (selected or row.key == d.hover_key or copied == "message"):
        draw_copy_glyph(painter, copy, blend(text, base, 0.35), copied == "message")

