"""The window's menu bar. Features add their actions to the menus it returns by name."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

if TYPE_CHECKING:
    from ollm_desktop.ui.window_content import WindowContent


def build_menus(content: WindowContent) -> dict[str, QMenu]:
    """File / Conversation / Settings / Help, keyed "file", "conversation", ..."""
    c, tr = content, content.tr
    bar = c.window.menuBar()
    menus: list[tuple[str, str, list[QAction | None]]] = [
        ("file", tr("&File"), [c.action_new_chat, None, c.action_export_md,
                               c.action_export_json, c.action_import, c.action_set_aside, None,
                               c.action_quit]),
        ("conversation", tr("&Conversation"), [
            c.action_regenerate, c.action_continue, None,
            c.action_compact, c.action_undo_compaction, c.action_branch_before,
            None, c.action_snapshots, c.action_create_snapshot,
            c.action_undo_restore, None, c.action_toggle_pin, c.action_goal]),
        ("settings", tr("&Settings"), [c.action_preferences]),
        ("help", tr("&Help"), [c.action_about]),
    ]
    built = {}
    for key, title, actions in menus:
        menu = bar.addMenu(title)
        for action in actions:
            if action is None:
                menu.addSeparator()
            else:
                menu.addAction(action)
        built[key] = menu
    return built
