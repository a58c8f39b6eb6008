"""The parts of the window the conversation's features are handed (see ``ui.window_parts``):
each feature's Protocol lists what it uses, and nothing here imports the window."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QPlainTextEdit, QWidget

from ollm_desktop.controller import ChatController
from ollm_desktop.ui.conversation.conversation_model import ConversationModel
from ollm_desktop.ui.conversation.conversation_view import ConversationView
from ollm_desktop.ui.window_parts import UndoOffer, WindowBasics


class ConversationHost(Protocol):
    @property
    def controller(self) -> ChatController: ...

    @property
    def window(self) -> QMainWindow: ...

    @property
    def conversation_model(self) -> ConversationModel: ...

    @property
    def conversation_view(self) -> ConversationView: ...


class SendKeyInput(Protocol):
    """The composer's input as the conversation sees it: it names the key that sends."""

    def set_send_key(self, send_key: str) -> None: ...


class ReplyActionsHost(ConversationHost, Protocol):
    @property
    def message_input(self) -> SendKeyInput: ...

    @property
    def action_regenerate(self) -> QAction: ...

    @property
    def action_continue(self) -> QAction: ...


class BranchActionsHost(WindowBasics, ConversationHost, Protocol):
    @property
    def message_input(self) -> QPlainTextEdit: ...

    @property
    def action_regenerate(self) -> QAction: ...


class MessageDeleteHost(WindowBasics, ConversationHost, Protocol):
    @property
    def action_goal(self) -> QAction: ...

    @property
    def undo_bar(self) -> UndoOffer: ...


class ToolCallsHost(Protocol):
    @property
    def controller(self) -> ChatController: ...

    @property
    def message_input(self) -> QWidget: ...

    @property
    def conversation_view(self) -> ConversationView: ...



class SuggestedPromptsHost(ConversationHost, Protocol):
    @property
    def message_input(self) -> QPlainTextEdit: ...


class CurrentRowActionsHost(ConversationHost, Protocol):
    @property
    def action_toggle_pin(self) -> QAction: ...
