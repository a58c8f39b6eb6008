"""The chat list: pinning, trash and its undo: the controller's side (the session does the work)."""

from __future__ import annotations

from ollm_desktop.controller.ops_base import OpsBase


class ChatListOps(OpsBase):
    pass
