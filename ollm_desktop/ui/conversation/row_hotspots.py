"""What a click on a painted part of a message row acts on, and its tooltip.

Rows are painted, not widgets: the pin, the copy glyph, a code block's Copy button and a
stopped reply's Continue / Regenerate are rectangles the delegate computes from the row's
rect (and, for code, from the row's laid-out document), here tested against the mouse.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QModelIndex, QPoint
from PySide6.QtGui import QAction

from ollm_desktop.ui.conversation.roles import KIND_MESSAGE, KindRole, PinnedRole
from ollm_desktop.ui.conversation.row_header import ACTION_PREFIX, action_rects

if TYPE_CHECKING:
    from ollm_desktop.ui.conversation.conversation_view import ConversationView

COPY = "copy"
CODE = "code:"  # + the block's number in the message
THINKING = "thinking"  # the "Thought (N words)" line: expands or collapses the reasoning


def _tr(text: str) -> str:
    return QCoreApplication.translate("ConversationView", text)


def hotspot(view: ConversationView, point: QPoint) -> str | None:
    """"copy", "code:N", "thinking", "pin", "act:<objectName>", "continue", "regenerate",
    or None."""
    index = view.indexAt(point)
    model = view.conversation_model
    if not index.isValid() or index.data(KindRole) != KIND_MESSAGE or model is None:
        return None
    row = model.rows[index.row()]
    if row.message is None:
        return None
    rect = view.visualRect(index)
    delegate = view.message_delegate
    if row.message.content and delegate.copy_rect(rect).adjusted(-4, -4, 4, 4).contains(point):
        return COPY  # read-only views copy too
    for number, button in enumerate(delegate.code_copy_rects(row, rect)):
        if button.contains(point):
            return f"{CODE}{number}"
    toggle = delegate.thinking.toggle_rect(row, rect)
    if toggle is not None and toggle.contains(point):
        return THINKING
    if view.read_only:
        return None
    if delegate.pin_hit_rect(rect).contains(point):
        return "pin"
    for name, _label, button in action_rects(delegate, row, rect):
        if button.contains(point):
            return ACTION_PREFIX + name
    if row.actions:
        for action, button in delegate.reply_button_rects(rect):
            if button.contains(point):
                return action
    return None


def row_action(view: ConversationView, spot: str | None) -> QAction | None:
    """The window's action a click on ``spot`` triggers (a hover button, Continue...)."""
    if spot is None:
        return None
    if spot.startswith(ACTION_PREFIX):
        name = spot[len(ACTION_PREFIX):]
        return next((a for a, _ in view.message_actions if a.objectName() == name), None)
    return view.reply_actions.get(spot)


def tooltip(index: QModelIndex, spot: str | None, view: ConversationView | None = None
            ) -> str | None:
    if view is not None and spot is not None and spot.startswith(ACTION_PREFIX):
        action = row_action(view, spot)  # its status tip: the tooltip of an action that
        # needs a current row says so while there is none, and this button is that row's
        return (action.statusTip() or action.toolTip()) if action is not None else None
    if spot == "pin":
        return (_tr("Unpin: this message may be summarised again") if index.data(PinnedRole)
                else _tr("Pin: always keep this message verbatim in the context"))
    if spot == COPY:
        return _tr("Copy the message (Ctrl+C)")
    if spot == THINKING:
        return _tr("Show or hide the model's reasoning (never sent back to it)")
    if spot is not None and spot.startswith(CODE):
        return _tr("Copy this code")
    return None
