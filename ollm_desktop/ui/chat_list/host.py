"""The parts of the window the chat list's features are handed (see ``ui.window_parts``)."""

from __future__ import annotations

from typing import Protocol

from ollm_desktop.controller import ChatController
from ollm_desktop.ui.chat_list.panel import ChatListPanel
from ollm_desktop.ui.window_parts import UndoOffer


class SearchMarks(Protocol):
    """The opened search hit's matches, highlighted in the conversation."""

    def show(self, message_id: str, text: str) -> None: ...

    def clear(self) -> None: ...


class ChatListHost(Protocol):
    @property
    def controller(self) -> ChatController: ...

    @property
    def chat_panel(self) -> ChatListPanel: ...

    @property
    def undo_bar(self) -> UndoOffer: ...
