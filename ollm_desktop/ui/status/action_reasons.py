"""Actions with nothing to act on are disabled, and their tooltip says why (issue 32 point 7):
Regenerate and Continue ask the controller whether they could run (the same check a click
would meet, so a click is never answered with an error); exporting and snapshots need a chat;
the state before a compaction needs a compaction; recovering needs a damaged database. Run
after the window's own ``update_actions``, which sets the enabled state of the rest."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtGui import QAction

from ollm_desktop.controller import ChatController


class ActionsHost(Protocol):
    @property
    def controller(self) -> ChatController: ...

    @property
    def action_regenerate(self) -> QAction: ...

    @property
    def action_continue(self) -> QAction: ...

    @property
    def action_export_md(self) -> QAction: ...

    @property
    def action_export_json(self) -> QAction: ...

    @property
    def action_snapshots(self) -> QAction: ...

    @property
    def action_create_snapshot(self) -> QAction: ...

    @property
    def action_branch_before(self) -> QAction: ...

    @property
    def action_undo_compaction(self) -> QAction: ...

    @property
    def action_set_aside(self) -> QAction: ...

    def tr(self, text: str) -> str: ...


def explain(content: ActionsHost) -> None:
    c, tr = content.controller, content.tr
    for action, why in ((content.action_regenerate, c.reply_edit_refusal("regenerate")),
                        (content.action_continue, c.reply_edit_refusal("continue"))):
        action.setEnabled(why is None)
        action.setToolTip(action.statusTip() if why is None else why)
    has_chat = c.chat is not None
    for action, what in (
            (content.action_export_md, tr("Save this chat as a Markdown file")),
            (content.action_export_json, tr("Save this chat as a JSON file (it can be "
                                            "imported again)")),
            (content.action_snapshots, tr("The snapshots of this chat: restore, delete or "
                                          "export one")),
            (content.action_create_snapshot, tr("Keep this chat's state as it is now, to "
                                                "come back to"))):
        action.setStatusTip(what)
        action.setToolTip(what if has_chat else tr("Open a chat first"))
    before, undo = content.action_branch_before, content.action_undo_compaction
    before.setStatusTip(tr("A new chat holding this one as it was before its last "
                           "compaction"))
    before.setToolTip(before.statusTip() if before.isEnabled() else undo.toolTip())
    recover = content.action_set_aside
    recover.setStatusTip(tr("Import chats from a database that could not be opened at a "
                            "start"))
    recover.setToolTip(recover.statusTip() if recover.isEnabled() else tr(
        "Nothing to recover: no damaged database was found"))
