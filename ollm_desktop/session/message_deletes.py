"""Deleting a message of the open chat, and undoing it: a service the session holds.

The message leaves the engine (history, request, checkpoints' id lists: ``engine.deletion``)
and the store at once. The state is written before the row is deleted, so a crash in between
leaves the message in the chat (sent word for word), never a checkpoint naming a message that
is gone. Undo brings back the newest deletion of the open chat: its row is written again at its
place with the state, in one transaction (``save_engine_state`` puts a new row in order).
Deletions belong to the chat they were made in; a few are kept, for this run only.
"""

from __future__ import annotations

from collections import deque

from ollm_desktop.engine.deletion import Deleted
from ollm_desktop.session.core import SessionCore
from ollm_desktop.session.events import Change
from ollm_desktop.storage import StorageError

KEEP = 10  # deletions that can still be undone, newest last (all chats together)
NO_MESSAGE = "That message is not in this chat (a reply still being written cannot be deleted)."
NOTHING_TO_UNDO = "There is no deleted message to bring back in this chat."
BACK_ALREADY = "That message is in the chat again already."
DELETED = "Message deleted."
SUMMARISED = ("This message was summarised: what it said stays in its checkpoint's summary, "
              "which is not rewritten when a message is deleted (undo that compaction or "
              "branch before it for a context without it).")
CHECKPOINT_GONE = ("It was the last message its checkpoint summarised, so that checkpoint was "
                   "removed with it.")
RESTORED = "The message is back."


class MessageDeletes:
    def __init__(self, core: SessionCore) -> None:
        self._core = core
        self._done: deque[tuple[str, Deleted]] = deque(maxlen=KEEP)

    def image_ids(self) -> set[str]:
        """The pictures of deletions that can still be undone (their bytes must stay)."""
        return {i.id for _, deleted in self._done for i in deleted.message.images}

    def can_undo(self) -> bool:
        chat = self._core.chat
        return chat is not None and any(chat_id == chat.id for chat_id, _ in self._done)

    def delete(self, message_id: str) -> Change:
        """Delete one message of the open chat; refused while a reply streams (a compaction
        runs on a copy and is checked against the chat before it is applied)."""
        core = self._core
        if (refused := core.idle_chat_refusal(during_compaction=True)) is not None:
            return refused
        chat, engine = core.chat, core.engine
        assert chat is not None and engine is not None
        if engine.message(message_id) is None:
            return Change.problem("input", NO_MESSAGE)
        deleted = engine.delete_message(message_id)
        saved = core.save_state()
        if saved.problems:
            engine.restore_message(deleted)
            return saved
        try:
            core.store.delete_message(message_id)
        except StorageError as exc:
            engine.restore_message(deleted)
            return core.save_state() | core.storage_failed(exc)
        self._done.append((chat.id, deleted))
        notice = DELETED
        if deleted.summarised:
            notice += " " + SUMMARISED
        elif deleted.removed_groups:
            notice += " " + CHECKPOINT_GONE
        return Change(history=True, context=True, notices=(notice,))

    def undo_delete(self) -> Change:
        """Bring back the newest message deleted in the open chat, where it was."""
        core = self._core
        if (refused := core.idle_chat_refusal()) is not None:
            return refused
        chat, engine = core.chat, core.engine
        assert chat is not None and engine is not None
        found = next((entry for entry in reversed(self._done) if entry[0] == chat.id), None)
        if found is None:
            return Change.problem("input", NOTHING_TO_UNDO)
        self._done.remove(found)
        deleted = found[1]
        if engine.message(deleted.message.id) is not None:
            return Change.problem("input", BACK_ALREADY)
        engine.restore_message(deleted)
        return Change(history=True, context=True, notices=(RESTORED,)) | core.save_state()
