"""Copy in a conversation view: the message's raw text (its Markdown source) and a code
block's exact code, with a moment of "copied" on what was clicked.

Each view has one copy QAction: Ctrl+C while the list has focus, the row's context menu and
the row's copy glyph all trigger it; it copies the selected message, else the one under the
mouse. The conversation's is ``actionCopyMessage`` (a contract); a read-only view's (the
group panel's History) has no name and no shortcut, so the window has one of each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import (
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
)
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence

from ollm_desktop.ui.conversation.roles import KIND_MESSAGE, KindRole, MessageIdRole, MessageRole

if TYPE_CHECKING:
    from ollm_desktop.ui.conversation.conversation_view import ConversationView

COPIED_MS = 1500  # how long "Copied" shows


def _tr(text: str) -> str:
    return QCoreApplication.translate("MessageCopy", text)


class MessageCopier(QObject):
    def __init__(self, view: ConversationView) -> None:
        super().__init__(view)
        self._view = view
        self.hovered = QPersistentModelIndex()  # kept by the view as the mouse moves
        action = QAction(_tr("Copy message"), view)
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        tip = _tr("Copy the message's text (its Markdown source)")
        action.setStatusTip(tip)
        action.setToolTip(tip)
        action.triggered.connect(self.copy_message)
        view.addAction(action)  # its shortcut works while the list has focus
        self.action = action
        self.set_primary(True)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(COPIED_MS)
        self._timer.timeout.connect(self._clear)

    def set_primary(self, on: bool) -> None:
        """Name and Ctrl+C for the conversation's action (a read-only view handles the key
        in ``keyPressEvent``)."""
        self.action.setObjectName("actionCopyMessage" if on else "")
        self.action.setShortcut(QKeySequence(QKeySequence.StandardKey.Copy) if on
                                else QKeySequence())

    def set_hover(self, index: QModelIndex) -> None:
        """The row under the mouse shows its copy glyph: repaint the old and the new one."""
        view, old = self._view, self.hovered
        if QPersistentModelIndex(index) == old:
            return
        model = view.model()
        for changed in (old, index):
            if changed.isValid() and model is not None:
                view.viewport().update(view.visualRect(model.index(changed.row(), 0)))
        self.hovered = QPersistentModelIndex(index)
        rows = view.conversation_model
        view.message_delegate.hover_key = (rows.rows[index.row()].key if rows is not None
                                           and index.isValid() else None)

    def target(self) -> QModelIndex:
        """The row to copy: the selected one, else the message under the mouse."""
        view = self._view
        index = view.currentIndex()
        if index.isValid():
            return index
        model, hovered = view.model(), self.hovered
        if model is None or not hovered.isValid():
            return QModelIndex()
        index = model.index(hovered.row(), 0)
        return index if index.data(KindRole) == KIND_MESSAGE else QModelIndex()

    def copy_message(self) -> bool:
        """The target message's raw text (a marker's label) to the clipboard; False when
        there is nothing to copy."""
        index = self.target()
        if not index.isValid():
            return False
        message = index.data(MessageRole)
        text = message.content if message is not None else index.data()
        if not text:
            return False
        QGuiApplication.clipboard().setText(text)
        if message is not None:
            self._flash(index, "message")
        return True

    def copy_code(self, index: QModelIndex, number: int) -> bool:
        """Code block ``number`` of the row at ``index``: exactly its code, no fences."""
        model = self._view.conversation_model
        if model is None or not index.isValid():
            return False
        row = model.rows[index.row()]
        if row.message is None:
            return False
        blocks = self._view.message_delegate.document(row).code_blocks
        if not 0 <= number < len(blocks):
            return False
        QGuiApplication.clipboard().setText(blocks[number].code)
        self._flash(index, f"code:{number}")
        return True

    def _flash(self, index: QModelIndex, part: str) -> None:
        self._clear()
        self._view.message_delegate.copied = (index.data(MessageIdRole), part)
        self._timer.start()
        self._view.viewport().update(self._view.visualRect(index))

    def _clear(self) -> None:
        delegate = self._view.message_delegate
        if delegate.copied is not None:
            delegate.copied = None
            self._view.viewport().update()
