"""The chat list's operations (a service the session holds): pin a chat to the top, name a
branch, and delete with undo.

A deleted chat goes to the trash at once (out of the list and the search) and the window
offers Undo; when that offer is over the chat is purged for good. Chats still in the trash
when the session starts (the app quit while Undo was offered) are purged then.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ollm_desktop.session.branches import EARLIER_REPLY
from ollm_desktop.session.chat_versions import version_labels
from ollm_desktop.session.events import NOTHING, Change
from ollm_desktop.storage import StorageError
from ollm_desktop.storage.models import ChatRecord

if TYPE_CHECKING:
    from ollm_desktop.session.chat_session import ChatSession

log = logging.getLogger(__name__)

NO_NAME = "A chat needs a name."


class ChatList:
    def __init__(self, session: ChatSession) -> None:
        self._session = session
        self.purge()  # left in the trash by the last run: its Undo is long over

    def pin(self, chat_id: str, pinned: bool) -> Change:
        """Pin (or unpin) a chat's family: unpinning clears every chat of it."""
        store = self._session.store
        chat = store.get_chat(chat_id)
        if chat is None:
            return Change(chats=True)
        try:
            if pinned:
                store.set_chat_pinned(chat_id, True)
            else:
                store.unpin_family(chat.family_id)
        except StorageError as exc:
            return self._session.storage_failed(exc)
        return Change(chats=True)

    def listed(self, regenerated: bool = False) -> list[ChatRecord]:
        """The chats as the list shows them: a branch with an automatic label reads as the
        version of its message it holds ("Edit 2 of 2"). Regenerate's earlier replies are
        left out unless asked for: they are versions of one reply, chosen in the chat itself
        (its version selector), not chats of their own."""
        chats = self._session.store.list_chats()
        try:
            labels = version_labels(self._session.store, chats)
        except StorageError as exc:  # the list still shows, with the stored labels
            log.error("branch versions could not be read: %s", exc)
            labels = {}
        return [c.model_copy(update={"branch_label": labels[c.id]}) if c.id in labels else c
                for c in chats
                if regenerated or not (c.is_branch and c.branch_label == EARLIER_REPLY)]

    def relabel(self, chat_id: str, label: str) -> Change:
        """Rename a branch: its label is what the list shows under its family's chat."""
        label = label.strip()
        if not label:
            return Change.problem("input", NO_NAME)
        try:
            self._session.store.set_branch_label(chat_id, label)
        except StorageError as exc:
            return self._session.storage_failed(exc)
        return Change(chats=True)

    def trash(self, chat_id: str, next_id: str | None = None) -> Change:
        """Delete a chat (undoably). The open chat is saved first; the window then shows
        ``next_id`` (the list's neighbour), else the newest chat, else no chat."""
        session = self._session
        store = session.store
        is_open = session.chat is not None and session.chat.id == chat_id
        if is_open and session.busy:
            return session.busy_problem()
        change = session.save_state() if is_open else NOTHING
        if change.problems:
            return change
        try:
            store.trash_chat(chat_id)
        except StorageError as exc:
            return session.storage_failed(exc)
        change = change | Change(chats=True)
        if not is_open:
            return change
        left = [c.id for c in store.list_chats()]
        target = next_id if next_id in left else left[0] if left else None
        if target is not None:
            return change | session.open_chat(target)
        session.chat = None
        session.attach(None)
        session.settings.last_chat_id = None
        return change | Change(history=True, context=True)

    def restore(self, chat_id: str) -> Change:
        """Undo a delete: the chat is back in the list with everything it had."""
        try:
            self._session.store.restore_chat(chat_id)
        except StorageError as exc:
            return self._session.storage_failed(exc)
        return Change(chats=True)

    def purge(self, chat_id: str | None = None) -> Change:
        """The undo is over: delete the trashed chat (every trashed chat when None) for good.
        A chat restored meanwhile is left alone."""
        try:
            gone = self._session.store.purge_trashed(chat_id)
        except StorageError as exc:
            log.error("could not purge deleted chats: %s", exc)
            return NOTHING  # they stay in the trash and go at the next start
        if gone:  # not at every start: the sweep may read every snapshot
            log.info("purged %d deleted chat(s)", len(gone))
            self._sweep_images()
        return NOTHING  # already out of the list

    def _sweep_images(self) -> None:
        """Pictures only the purged chats used go too; those still waiting to be sent, set
        aside for an edit, or in a message deletion that can be undone stay."""
        session = self._session
        keep = {i.id for i in [*session.images.pending, *session.images.set_aside]}
        deletes = getattr(session, "message_deletes", None)
        if deletes is not None:
            keep |= deletes.image_ids()
        try:
            count = session.store.purge_unused_images(keep)
        except StorageError as exc:
            log.error("could not delete unused images: %s", exc)
            return
        if count:
            log.info("deleted %d image(s) no message uses any more", count)
