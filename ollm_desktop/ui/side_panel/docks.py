"""The window's side panels (goal, facts) share the right dock area as tabs."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget


def follow(action: QAction, dock: QDockWidget) -> None:
    """``action`` (checkable) shows and brings forward, or hides, ``dock``, and shows whether
    it is in view. Only the user's trigger acts: a tab put behind another reports itself not
    visible, and hiding it then would take the tab away."""
    action.setCheckable(True)
    action.triggered.connect(lambda shown: _show(dock, shown))
    dock.visibilityChanged.connect(action.setChecked)


def _show(dock: QDockWidget, shown: bool) -> None:
    dock.setVisible(shown)
    if shown:
        dock.raise_()
