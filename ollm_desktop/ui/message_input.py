"""The message box: Ctrl+Enter sends, Esc stops, plain Enter is a new line."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QPlainTextEdit


class MessageInput(QPlainTextEdit):
    """Ctrl+Enter sends, Esc stops; plain Enter inserts a new line."""

    submitted = Signal()
    escaped = Signal()

    def keyPressEvent(self, event) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and \
                event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.submitted.emit()
            return
        if key == Qt.Key.Key_Escape:
            self.escaped.emit()
            return
        super().keyPressEvent(event)
