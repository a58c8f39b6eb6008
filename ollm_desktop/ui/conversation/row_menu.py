"""The context menu of a conversation row (from the mouse or the keyboard): pin, copy (the
view's ``actionCopyMessage``), the newest reply's Continue / Regenerate, or a marker's
summary. Built apart from ``exec`` so tests can drive it; building it makes its row the
current one (what the actions act on)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QPoint
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QMenu

from ollm_desktop.ui.conversation.roles import (
    KIND_MARKER,
    KIND_MESSAGE,
    GroupIdRole,
    KindRole,
    MessageIdRole,
    PinnedRole,
)

if TYPE_CHECKING:
    from ollm_desktop.ui.conversation.conversation_view import ConversationView


def menu_target(view: ConversationView, event: QContextMenuEvent) -> tuple[QModelIndex, QPoint]:
    """The row a context menu is for and where it opens: under the mouse, or from the
    keyboard (Menu key, Shift+F10) the current row, at that row; that row becomes current."""
    if event.reason() == QContextMenuEvent.Reason.Keyboard and view.currentIndex().isValid():
        index = view.currentIndex()
        rect = view.visualRect(index)
        where = view.viewport().mapToGlobal(QPoint(rect.left() + 24, rect.top() + 12))
    else:
        index, where = view.indexAt(event.pos()), event.globalPos()
    if index.isValid():
        view.setCurrentIndex(index)
    return index, where


def build_row_menu(view: ConversationView, index: QModelIndex) -> QMenu | None:
    if not index.isValid():
        return None
    menu = QMenu(view)
    kind = index.data(KindRole)
    if kind == KIND_MESSAGE:
        message_id = index.data(MessageIdRole)
        if not view.read_only:
            pin = menu.addAction(view.tr("Unpin") if index.data(PinnedRole) else view.tr("Pin"))
            pin.setObjectName("actionPinMessage")
            pin.triggered.connect(lambda: view.pinToggled.emit(message_id))
        if view.currentIndex() != index:
            view.setCurrentIndex(index)  # Copy copies the selected message: this one
        menu.addAction(view.copy_action)
        model = view.conversation_model
        if not view.read_only and model is not None:
            extra = [a for a, applies in [*view.message_actions, *view.menu_actions]
                     if applies(model.rows[index.row()])]
            if extra:
                menu.addSeparator()
                menu.addActions(extra)
        model, actions = view.conversation_model, view.reply_actions
        if not view.read_only and actions and model is not None and \
                index.row() == model.last_message_row():
            menu.addSeparator()  # the newest message: Regenerate, and Continue if stopped
            for name in ("continue", "regenerate"):  # a stopped reply's (others: below)
                if name in actions and model.rows[index.row()].actions:
                    menu.addAction(actions[name])
    elif kind == KIND_MARKER:
        group_id = index.data(GroupIdRole)
        show = menu.addAction(view.tr("Show summary / history"))
        show.setObjectName("actionShowGroup")
        show.triggered.connect(lambda: view.groupActivated.emit(group_id))
    return menu
