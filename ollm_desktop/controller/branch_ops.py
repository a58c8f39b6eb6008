"""Regenerate, Continue, edit-and-resend, fork and switching between a message's
alternatives: the controller's side (the session does the work)."""

from __future__ import annotations

import asyncio
from typing import Any

from ollm_desktop.controller.ops_base import OpsBase
from ollm_desktop.session.reply_edits import EditKind


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
