"""The parts of the window the state's messages are handed (see ``ui.window_parts``)."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QSize, SignalInstance
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QLineEdit, QMainWindow

from ollm_desktop.controller import ChatController
from ollm_desktop.ui.status.action_reasons import ActionsHost
from ollm_desktop.ui.status.compaction_progress import CompactionProgress
from ollm_desktop.ui.status.ollama_banner import OllamaBanner
from ollm_desktop.ui.status.reliability import ReliabilityIndicator


class ReliabilityHost(Protocol):
    @property
    def controller(self) -> ChatController: ...

    @property
    def reliability_indicator(self) -> ReliabilityIndicator: ...


class ChatSearch(Protocol):
    """The chat list, as far as Ctrl+F needs it."""

    @property
    def search_edit(self) -> QLineEdit: ...


class MeterFigures(Protocol):
    """The context meter in the status bar, whose secondary labels make room for a message."""

    @property
    def tier_label(self) -> QLabel: ...

    @property
    def text_label(self) -> QLabel: ...

    def isVisible(self) -> bool: ...

    def sizeHint(self) -> QSize: ...


class StateMessagesHost(ReliabilityHost, ActionsHost, Protocol):
    @property
    def window(self) -> QMainWindow: ...

    @property
    def banner(self) -> OllamaBanner: ...

    @property
    def input_error(self) -> QLabel: ...

    @property
    def chat_panel(self) -> ChatSearch: ...

    @property
    def compaction_progress(self) -> CompactionProgress: ...

    @property
    def context_meter(self) -> MeterFigures: ...

    @property
    def action_compact(self) -> QAction: ...

    @property
    def action_undo_restore(self) -> QAction: ...

    def tr(self, text: str) -> str: ...

    def update_actions(self) -> None: ...

    @property
    def actionsUpdated(self) -> SignalInstance:
        """Emitted at the end of ``update_actions``: the state's reasons refine it."""
