"""The chat list's issue-15 wiring: pin, rename a branch, delete with undo (the undo bar
instead of a confirmation box), and the highlight of an opened search hit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

if TYPE_CHECKING:
    from ollm_desktop.ui.chat_list.host import ChatListHost, SearchMarks


def _tr(text: str) -> str:
    return QCoreApplication.translate("ChatList", text)


def install(content: ChatListHost, highlight: SearchMarks) -> None:
    """Adds this feature's actions and wiring to the built window; ``highlight`` marks an
    opened search hit's matches in the conversation."""
    c, panel = content.controller, content.chat_panel
    panel.pinRequested.connect(c.pin_chat)
    panel.relabelRequested.connect(c.relabel_chat)
    panel.deleteRequested.disconnect(c.delete_chat)  # deleted with an undo, not at once

    def delete(chat_id: str) -> None:
        title = panel.title_of(chat_id) or _tr("Untitled")
        was_open = c.chat is not None and c.chat.id == chat_id
        if not c.trash_chat(chat_id, panel.neighbour_of(chat_id) if was_open else None):
            return  # refused (and said why): e.g. its reply is still streaming

        def undo() -> None:
            c.restore_chat(chat_id, reopen=was_open)  # the open chat is opened again

        content.undo_bar.offer(_tr("Chat “{0}” deleted.").format(title), undo,
                               expire=lambda: c.purge_chat(chat_id))

    panel.deleteRequested.connect(delete)
    # A finished reply may make a branch a version of its message ("Edit 2 of 2").
    c.replyFinished.connect(lambda *_: panel.refresh())

    def hit_opened(chat_id: str, message_id: str) -> None:
        # After reply_actions' handler: the chat is open and scrolled to the message.
        if c.chat is not None and c.chat.id == chat_id:
            highlight.show(message_id, panel.search_edit.text())

    panel.messageRequested.connect(hit_opened)
    panel.search_edit.textChanged.connect(lambda _text: highlight.clear())
    c.chatOpened.connect(lambda _chat: highlight.clear())
