"""Delete a message, with Undo in the window's undo bar (never a confirmation box).

``actionDeleteMessage`` (a contract) acts on the conversation's current message: the Delete
key while the conversation has focus (typing Delete in the input is unaffected), the
Conversation menu and the row's context menu. What became of the message (a summarised one
stays in its checkpoint's summary) is said in the bar beside Undo. The undo belongs to the chat
it was made in: opening another chat ends the offer. The view keeps its place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence

from ollm_desktop.storage.models import ChatRecord

if TYPE_CHECKING:
    from ollm_desktop.ui.conversation.host import MessageDeleteHost


def _tr(text: str) -> str:
    return QCoreApplication.translate("MessageDelete", text)


class MessageDelete(QObject):
    def __init__(self, content: MessageDeleteHost) -> None:
        super().__init__(content.window)
        self._content = content
        view = content.conversation_view
        action = QAction(_tr("&Delete message"), view)
        action.setObjectName("actionDeleteMessage")
        action.setIconText(_tr("Delete"))  # the row's hover button
        action.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        tip = _tr("Delete the selected message (Undo brings it back)")
        action.setStatusTip(tip)
        action.setToolTip(tip)
        action.triggered.connect(self.delete_current)
        view.addAction(action)  # its shortcut works while the conversation has focus
        self.action = action
        self._offered_in: str | None = None  # the chat whose deletion the bar offers to undo
        content.controller.chatOpened.connect(self._chat_opened)

    def delete_current(self) -> bool:
        """Delete the current message; False when there is none or it was refused."""
        content = self._content
        view, model, controller = (content.conversation_view, content.conversation_model,
                                   content.controller)
        message_id = view.current_message_id()
        chat = controller.chat
        if message_id is None or chat is None:
            return False
        row = model.row_of_message(message_id)
        bar, at_bottom = view.verticalScrollBar(), view.is_at_bottom()
        place = bar.value()
        text = controller.delete_message(message_id)
        if text is None:
            return False
        if not at_bottom:  # the history was reloaded: stay where the user was
            view.executeDelayedItemsLayout()
            bar.setValue(min(place, bar.maximum()))
        if row is not None and model.rowCount():
            view.setCurrentIndex(model.index(min(row, model.rowCount() - 1)))
        self._offer(chat.id, message_id, text)
        return True

    def _offer(self, chat_id: str, message_id: str, text: str) -> None:
        self._offered_in = chat_id
        self._content.undo_bar.offer(text, lambda: self._undo(chat_id, message_id, text),
                                     self._expired)

    def _undo(self, chat_id: str, message_id: str, text: str) -> None:
        self._offered_in = None
        controller = self._content.controller
        if controller.undo_delete():
            self._content.conversation_view.scroll_to_message(message_id)
        elif controller.can_undo_delete():  # refused for now (a reply streams): offered again
            self._offer(chat_id, message_id, text)

    def _expired(self) -> None:
        self._offered_in = None

    def _chat_opened(self, chat: ChatRecord) -> None:
        if self._offered_in is not None and chat.id != self._offered_in:
            self._content.undo_bar.finish()  # the undo belongs to the chat it was made in


def install(content: MessageDeleteHost) -> None:
    """Adds ``actionDeleteMessage`` to the Conversation menu and the rows' context menu."""
    deleter = MessageDelete(content)
    content.menus["conversation"].insertAction(content.action_goal, deleter.action)  # by Pin
    content.conversation_view.message_actions.append(
        (deleter.action, lambda row: row.message is not None))
