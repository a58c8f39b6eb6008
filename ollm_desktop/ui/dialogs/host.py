"""The parts of the window the dialogs' features are handed (see ``ui.window_parts``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtGui import QAction, QKeySequence

from ollm_desktop.ui.window_parts import WindowBasics


class HelpHost(WindowBasics, Protocol):
    def add_action(self, name: str, text: str,
                   shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
                   slot: Callable[[], object] | None = None) -> QAction:
        """A window action (its shortcut works everywhere) named ``name``."""
