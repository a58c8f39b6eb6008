"""The chat list: pinning, trash and its undo, drafts: the controller's side (the session does
the work)."""

from __future__ import annotations

from ollm_desktop.controller.ops_base import OpsBase
from ollm_desktop.session.core import CONTEXT_ORIGIN
from ollm_desktop.storage.models import ChatRecord


class ChatListOps(OpsBase):
    def listed_chats(self) -> list[ChatRecord]:
        """The chats as the list shows them (a branch as a version of its message; no
        regenerated replies)."""
        return self.session.chat_list.listed()

    def pin_chat(self, chat_id: str, pinned: bool) -> None:
        """Pin a chat (its family) to the top of the list, or unpin it."""
        self._op(self.session.chat_list.pin, chat_id, pinned)

    def relabel_chat(self, chat_id: str, label: str) -> None:
        """Rename a branch (the label the list shows under its family's chat)."""
        self._op(self.session.chat_list.relabel, chat_id, label)

    def trash_chat(self, chat_id: str, next_id: str | None = None) -> bool:
        """Delete a chat undoably (False when refused: e.g. its reply is streaming); the open
        chat makes way for ``next_id``."""
        return self._op(self.session.chat_list.trash, chat_id, next_id)

    def restore_chat(self, chat_id: str, *, reopen: bool = False) -> bool:
        """Undo a delete; ``reopen``: it was the open chat, so it is opened again (unless a
        reply is streaming in the chat open now: opening would stop it; it is listed)."""
        restored = self._op(self.session.chat_list.restore, chat_id)
        if restored and reopen and not self.session.busy:
            self.open_chat(chat_id)
        return restored

    def purge_chat(self, chat_id: str) -> None:
        """The undo is over: the chat is deleted for good (unless it was restored)."""
        self._op(self.session.chat_list.purge, chat_id)

    def draft(self, chat_id: str) -> str:
        """The unsent text left in a chat."""
        return self.session.draft(chat_id)

    def save_draft(self, chat_id: str, text: str) -> None:
        self.session.save_draft(chat_id, text)

    def context_origin(self, chat_id: str) -> str:
        """Where the chat's context size was last set, and to what ("chat settings:4096")."""
        return self.session.chat_note(chat_id, CONTEXT_ORIGIN)

    def remember_context_origin(self, chat_id: str, origin: str) -> None:
        self.session.set_chat_note(chat_id, CONTEXT_ORIGIN, origin)
