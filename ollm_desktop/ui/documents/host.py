"""The parts of the window the documents feature is handed (see ``ui.window_parts``)."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtWidgets import QMainWindow, QPushButton

from ollm_desktop.controller import ChatController
from ollm_desktop.ui.composer.message_input import MessageInput
from ollm_desktop.ui.conversation.conversation_view import ConversationView
from ollm_desktop.ui.window_parts import UndoOffer, WindowBasics


class SourcesHost(Protocol):
    @property
    def controller(self) -> ChatController: ...

    @property
    def window(self) -> QMainWindow: ...

    @property
    def conversation_view(self) -> ConversationView:
        """A reply's sources are a note on its row and an action in its menu."""


class DocumentsHost(WindowBasics, SourcesHost, Protocol):
    @property
    def message_input(self) -> MessageInput:
        """Documents dropped or pasted on the input are attached."""

    @property
    def stop_button(self) -> QPushButton: ...

    @property
    def undo_bar(self) -> UndoOffer: ...
