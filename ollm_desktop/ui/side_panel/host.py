"""The parts of the window the side panel and its tabs are handed (see ``ui.window_parts``)."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import SignalInstance
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QSplitter, QWidget

from ollm_desktop.ui.side_panel.checkpoint_panel import GroupPanel
from ollm_desktop.ui.side_panel.goal_panel import GoalPanel
from ollm_desktop.ui.window_parts import UndoOffer, WindowBasics


class MessageScroller(Protocol):
    """The conversation, as far as a fact's "show where it was said" needs it."""

    def scroll_to_message(self, message_id: str) -> bool: ...


class FactsHost(WindowBasics, Protocol):
    @property
    def goal_panel(self) -> QDockWidget:
        """The facts' dock is tabbed beside the goal's."""

    @property
    def conversation_view(self) -> MessageScroller: ...

    @property
    def undo_bar(self) -> UndoOffer: ...


class SidePanelHost(WindowBasics, Protocol):
    @property
    def splitter(self) -> QSplitter:
        """The chat list, the centre column and the checkpoint panel, whose place it takes."""

    @property
    def chat_panel(self) -> QWidget: ...

    @property
    def conversation_view(self) -> QWidget:
        """Its parent is the centre column the panel lies over when the window is narrow."""

    @property
    def goal_panel(self) -> GoalPanel: ...

    @property
    def group_panel(self) -> GroupPanel: ...

    @property
    def action_goal(self) -> QAction: ...

    @property
    def groupShown(self) -> SignalInstance:
        """A compressed group's checkpoint is shown: its tab comes forward."""

    @property
    def groupClosed(self) -> SignalInstance: ...

    def tr(self, text: str) -> str: ...
