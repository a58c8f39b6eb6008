"""What the window hands its features, as small Protocols.

A feature names the parts of the window it uses in its own ``host`` module (``SidePanelHost``,
``ComposerHost``, ...) and is given the window's content, which has them: no feature imports
the window (``window_content``), and mypy checks at the one place that installs them
(``ui.features``) that the window has what each asks for. The parts several features share
are here; this module imports no feature.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtWidgets import QMainWindow, QMenu

from ollm_desktop.controller import ChatController


class UndoOffer(Protocol):
    """The window's one "… deleted. Undo" bar (``status.undo_bar.UndoBar``)."""

    def offer(self, text: str, undo: Callable[[], None],
              expire: Callable[[], None] | None = None, timeout_ms: int = ...) -> None: ...

    def finish(self) -> None: ...


class WindowBasics(Protocol):
    """What nearly every feature needs: the controller, the main window, its menus by name
    ("file", "conversation", "settings", "help")."""

    @property
    def controller(self) -> ChatController: ...

    @property
    def window(self) -> QMainWindow: ...

    @property
    def menus(self) -> dict[str, QMenu]: ...
