"""One in-window "… deleted. Undo" bar for whatever the user just removed (a message, a chat).

Never a dialog: a deletion happens at once and the bar offers its undo for a while. A new
offer ends the previous one (its ``expire`` runs: e.g. a trashed chat is purged), so the
window never holds more than one pending undo.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

UNDO_MS = 15000


class UndoBar(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("undoBar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.text = QLabel()
        self.text.setObjectName("undoText")
        self.text.setWordWrap(True)
        self.undo_button = QPushButton(self.tr("Undo"))
        self.undo_button.setObjectName("undoButton")
        self.close_button = QPushButton(self.tr("Dismiss"))
        self.close_button.setObjectName("undoDismiss")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 4, 6, 4)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.undo_button)
        layout.addWidget(self.close_button)
        self._undo: Callable[[], None] | None = None
        self._expire: Callable[[], None] | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.finish)
        self.undo_button.clicked.connect(self.undo)
        self.close_button.clicked.connect(self.finish)
        self.hide()

    def offer(self, text: str, undo: Callable[[], None],
              expire: Callable[[], None] | None = None, timeout_ms: int = UNDO_MS) -> None:
        """Show ``text`` with Undo; ``expire`` runs when the chance to undo is over."""
        self.finish()
        self._undo, self._expire = undo, expire
        self.text.setText(text)
        self.show()
        self._timer.start(timeout_ms)

    @property
    def pending(self) -> bool:
        return self._undo is not None

    def undo(self) -> None:
        undo = self._undo
        self._undo = self._expire = None
        self._timer.stop()
        self.hide()
        if undo is not None:
            undo()

    def finish(self) -> None:
        """The undo is no longer offered (timeout, dismissed, replaced, window closing)."""
        expire = self._expire
        self._undo = self._expire = None
        self._timer.stop()
        self.hide()
        if expire is not None:
            expire()
