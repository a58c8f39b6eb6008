"""The parts of the window the composer's features are handed (see ``ui.window_parts``)."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtWidgets import QComboBox, QMainWindow, QPushButton

from ollm_desktop.controller import ChatController
from ollm_desktop.ui.composer.context_meter import ContextMeter
from ollm_desktop.ui.composer.message_input import MessageInput
from ollm_desktop.ui.conversation.conversation_view import ConversationView
from ollm_desktop.ui.window_parts import WindowBasics


class InputHost(Protocol):
    @property
    def controller(self) -> ChatController: ...

    @property
    def window(self) -> QMainWindow: ...

    @property
    def message_input(self) -> MessageInput: ...


class DraftsHost(InputHost, Protocol):
    @property
    def sending(self) -> bool:
        """True while a send is under way: the input then holds the message going out."""


class ComposerHost(InputHost, Protocol):
    @property
    def send_button(self) -> QPushButton: ...

    @property
    def stop_button(self) -> QPushButton: ...

    @property
    def model_selector(self) -> QComboBox: ...

    @property
    def context_meter(self) -> ContextMeter: ...

    @property
    def conversation_view(self) -> ConversationView:
        """The composer is as wide as the conversation's readable column."""

    def tr(self, text: str) -> str: ...


class ImageAttachHost(WindowBasics, InputHost, Protocol):
    @property
    def send_button(self) -> QPushButton: ...

    @property
    def stop_button(self) -> QPushButton: ...

    @property
    def conversation_view(self) -> ConversationView:
        """Attached images show in their rows, and drop onto the conversation."""
