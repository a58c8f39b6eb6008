"""Unsent text is kept per chat: it survives switching chats and quitting the app.

What the user types is saved for the chat it was typed in (shortly after typing stops, when
another chat opens, and when the window closes) and comes back when that chat opens again. A
message being sent is not a draft: a chat opened by the send itself (a new chat, a branch for
an edit) leaves the input alone. Text typed before the chat loaded is never overwritten.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from ollm_desktop.storage.models import ChatRecord

if TYPE_CHECKING:
    from ollm_desktop.ui.composer.host import DraftsHost

SAVE_DELAY_MS = 700


class Drafts(QObject):
    def __init__(self, content: DraftsHost) -> None:
        super().__init__(content.window)
        self.content = content
        self.controller, self.input = content.controller, content.message_input
        chat = self.controller.chat
        self.chat_id: str | None = chat.id if chat is not None else None
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(SAVE_DELAY_MS)
        self.timer.timeout.connect(self.save)
        self.input.textChanged.connect(self._typed)
        self.controller.chatOpened.connect(self._opened)
        content.window.closed.connect(self.save)  # type: ignore[attr-defined]

    def _typed(self) -> None:
        if self.input.toPlainText().strip():
            self.timer.start()
        else:  # sent or cleared: forget the draft at once
            self.save()

    def save(self) -> None:
        self.timer.stop()
        if self.chat_id is not None:
            self.controller.save_draft(self.chat_id, self.input.toPlainText())

    def _opened(self, chat: ChatRecord) -> None:
        if chat.id == self.chat_id:
            return
        if self.content.sending:  # the input holds the message going out, not a draft
            self.chat_id = chat.id
            return
        previous = self.chat_id
        self.save()  # the chat left behind keeps its text
        self.chat_id = chat.id
        if previous is None and self.input.toPlainText().strip():
            return  # typed before the chat loaded (or with none open): it stays
        self.input.setPlainText(self.controller.draft(chat.id))
        self.timer.stop()  # what was just put back is already saved


def install(content: DraftsHost) -> Drafts:
    return Drafts(content)
