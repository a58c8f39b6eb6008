"""Deleting a message and undoing it: the controller's side (the session does the work)."""

from __future__ import annotations

from dataclasses import replace

from ollm_desktop.controller.ops_base import OpsBase


class MessageOps(OpsBase):
    def delete_message(self, message_id: str) -> str | None:
        """Delete one message of the open chat. Returns what to say beside its Undo (what
        became of it; the window shows it there, not also in the status bar), or None when
        it was refused (the reason goes out through ``error``)."""
        change = self.session.message_deletes.delete(message_id)
        self._apply(replace(change, notices=()))
        return None if change.problems else " ".join(change.notices)

    def undo_delete(self) -> bool:
        """The newest message deleted in the open chat back where it was; False (and why,
        through ``error``) when there is none or the chat is busy."""
        return self._op(self.session.message_deletes.undo_delete)

    def can_undo_delete(self) -> bool:
        return self.session.message_deletes.can_undo()
