"""Regenerate, Continue, edit-and-resend, fork and switching between a message's
alternatives: the controller's side (the session does the work)."""

from __future__ import annotations

import asyncio
from typing import Any

from ollm_desktop.controller.ops_base import OpsBase
from ollm_desktop.session.branches import NO_MESSAGE, ONLY_USER, Alternatives
from ollm_desktop.session.events import Change
from ollm_desktop.session.reply_edits import EditKind
from ollm_desktop.storage.models import ChatRecord


class BranchOps(OpsBase):
    def regenerate(self) -> asyncio.Task[Any] | None:
        return self._edit_reply("regenerate")

    def continue_reply(self) -> asyncio.Task[Any] | None:
        return self._edit_reply("continue")

    def _edit_reply(self, kind: EditKind) -> asyncio.Task[Any] | None:
        """Started like ``send`` (the handle is kept: Stop works), or refused with a reason."""
        change = self.session.start_reply_edit(kind)
        if change.problems:
            self._apply(change)
            return None
        edits = self.session.reply_edits
        coro = edits.regenerate() if kind == "regenerate" else edits.continue_reply()
        self._reply_task = self._spawn(coro, kind)
        return self._reply_task

    # --------------------------------------------------------- edit and resend
    _editing: str | None = None  # the message the next send replaces (in a new branch)

    @property
    def editing(self) -> str | None:
        return self._editing

    def begin_edit(self, message_id: str) -> str | None:
        """Start editing one of the user's messages: its text for the input, or None (and
        why, through ``error``) when it cannot be edited."""
        message = self.session.message(message_id)
        if message is None or message.role != "user":
            self._apply(Change.problem("input", ONLY_USER if message else NO_MESSAGE))
            return None
        self._editing = message_id
        return message.content

    def cancel_edit(self) -> None:
        self._editing = None

    def _branch_for_edit(self, text: str) -> bool:
        """Before a send while editing: the branch it goes to is made and opened (the chat it
        was edited in stays as it was). False when that failed (the send does not happen)."""
        target, self._editing = self._editing, None
        if target is None:
            return True
        if self._open_new(self.session.branches.branch_for_edit(target, text)) is None:
            self._editing = target  # still editing: the text goes back to the input
            return False
        return True

    # -------------------------------------------------------------- forks
    def fork_chat(self, message_id: str) -> ChatRecord | None:
        """A new chat with this chat's history, checkpoints and pins up to ``message_id``."""
        return self._open_new(self.session.branches.fork(message_id))

    # ------------------------------------------------------- alternatives
    def alternatives(self) -> dict[str, Alternatives]:
        return self.session.branches.alternatives()

    def switch_alternative(self, message_id: str, step: int) -> int | None:
        """Open the previous (-1) or next (+1) version of a message; the position of that
        message in the opened chat's history, or None when there is no such version."""
        found = self.alternatives().get(message_id)
        if found is None:
            return None
        target = found.index + step
        if not 0 <= target < found.count:
            return None
        self.open_chat(found.chats[target])
        return found.position
