"""The parts of the window the first-run screen is handed (see ``ui.window_parts``)."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtWidgets import QPlainTextEdit, QWidget

from ollm_desktop.controller import ChatController


class QuietBanner(Protocol):
    """The server banner, quiet while the screen says the same."""

    def hide_banner(self) -> None: ...


class FirstRunHost(Protocol):
    @property
    def controller(self) -> ChatController: ...

    @property
    def conversation_view(self) -> QWidget:
        """The screen takes its place in the centre column while it shows."""

    @property
    def message_input(self) -> QPlainTextEdit:
        """A suggested prompt is put here."""

    @property
    def banner(self) -> QuietBanner: ...
