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

EDITED_GONE = ("The message you were editing is no longer in this chat; your text is back in "
               "the input (Send posts it as a new message).")
BRANCH_FAILED = "The branch for the edited message could not be made."
NO_CHAT = "Open a chat first."


class BranchOps(OpsBase):
    def regenerate(self) -> asyncio.Task[Any] | None:
        return self._edit_reply("regenerate")

    def continue_reply(self) -> asyncio.Task[Any] | None:
        return self._edit_reply("continue")

    def reply_edit_refusal(self, kind: EditKind) -> str | None:
        """Why a Regenerate or a Continue cannot run now (None: it can): the window disables
        the action and says this in its tooltip, instead of answering a click with an error."""
        refusal = self.session.reply_edits.check(kind) if self.session.chat is not None \
            else ("input", NO_CHAT)
        return refusal[1] if refusal is not None else None

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
        """Start editing one of the user's messages: its text for the input (its images wait
        in the attachments, the draft's are set aside), or None (and why, through ``error``)
        when it cannot be edited."""
        message = self.session.message(message_id)
        if message is None or message.role != "user":
            self._apply(Change.problem("input", ONLY_USER if message else NO_MESSAGE))
            return None
        images = self.session.images
        if self._editing is None:
            images.set_aside = images.pending
        images.pending = list(message.images)
        self._editing = message_id
        self.pendingImagesChanged.emit()
        return message.content

    def cancel_edit(self) -> None:
        images = self.session.images
        if self._editing is not None:
            images.pending, images.set_aside = images.set_aside, []
            self.pendingImagesChanged.emit()
        self._editing = None

    def _branch_for_edit(self, text: str) -> str | None:
        """Before a send while editing: the branch it goes to is made and opened (the chat it
        was edited in stays as it was). Why the send cannot go, or None."""
        target = self._editing
        if target is None:
            return None
        if self.session.message(target) is None:  # deleted meanwhile: nothing to branch from
            self.cancel_edit()
            return EDITED_GONE
        reason = self.session.turns.check(text)
        if reason is not None:  # refused before a branch is made: still editing
            return reason
        self._editing = None
        if self._open_new(self.session.branches.branch_for_edit(target, text)) is None:
            self._editing = target  # still editing: the text goes back to the input
            return BRANCH_FAILED
        return None

    # -------------------------------------------------------------- forks
    def fork_chat(self, message_id: str) -> ChatRecord | None:
        """A new chat with this chat's history, checkpoints and pins up to ``message_id``."""
        return self._open_new(self.session.branches.fork(message_id))

    # ------------------------------------------------------- alternatives
    def alternatives(self) -> dict[str, Alternatives]:
        return self.session.branches.alternatives()

    def switch_alternative(self, message_id: str, step: int) -> str | None:
        """Open the previous (-1) or next (+1) version of a message; that version's message id
        in the opened chat, or None when there is no such version."""
        found = self.alternatives().get(message_id)
        if found is None:
            return None
        target = found.index + step
        if not 0 <= target < found.count:
            return None
        self.open_chat(found.chats[target])
        return found.message_ids[target]
