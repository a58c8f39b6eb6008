"""What the window hands its features, as small Protocols.

A feature names the parts of the window it uses in its own ``host`` module (``SidePanelHost``,
``ComposerHost``, ...) and is given the window's content, which has them: no feature imports
the window (``window_content``), and mypy checks at the one place that installs them
(``ui.features``) that the window has what each asks for. The parts several features share
are here, and how a feature puts a widget into the window's layouts; this module imports no
feature.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtWidgets import QBoxLayout, QLayout, QMainWindow, QMenu, QWidget

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


def insert_before(anchor: QWidget, widget: QWidget) -> None:
    """Put ``widget`` just before ``anchor`` in whichever box layout of its parent (nested or
    not) holds it."""
    parent = anchor.parentWidget()
    layout = parent.layout() if parent is not None else None
    found = _holder(layout, anchor) if layout is not None else None
    if found is None:
        raise RuntimeError(f"{anchor.objectName()} is not in the expected layout")
    box, index = found
    box.insertWidget(index, widget)


def _holder(layout: QLayout, anchor: QWidget) -> tuple[QBoxLayout, int] | None:
    index = layout.indexOf(anchor)
    if index >= 0 and isinstance(layout, QBoxLayout):
        return layout, index
    for position in range(layout.count()):
        item = layout.itemAt(position)
        inner = item.layout() if item is not None else None
        if inner is not None and (found := _holder(inner, anchor)) is not None:
            return found
    return None
