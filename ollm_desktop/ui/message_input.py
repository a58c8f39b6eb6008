"""The message box. The send key is a preference (``Settings.send_key``):

- "enter" (the default, as in most chat apps): Enter sends, Shift+Enter is a new line;
- "ctrl-enter": Enter is a new line.

Ctrl+Enter sends in both, Esc stops. While an input method is composing (a preedit is shown)
Enter belongs to the input method: it commits the composition and never sends.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QInputMethodEvent, QKeyEvent
from PySide6.QtWidgets import QPlainTextEdit, QWidget

SEND_KEYS = ("enter", "ctrl-enter")


def placeholder(send_key: str) -> str:
    if send_key == "ctrl-enter":
        return QCoreApplication.translate(
            "MainWindow", "Message the model… (Ctrl+Enter to send, Esc to stop)")
    return QCoreApplication.translate(
        "MainWindow", "Message the model… (Enter to send, Shift+Enter for a new line, "
        "Esc to stop)")


class MessageInput(QPlainTextEdit):
    submitted = Signal()
    escaped = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._send_key = "enter"
        self._composing = False

    @property
    def send_key(self) -> str:
        return self._send_key

    def set_send_key(self, send_key: str) -> None:
        """"enter" or "ctrl-enter" (anything else: "enter"); the placeholder says which."""
        self._send_key = send_key if send_key in SEND_KEYS else "enter"
        self.setPlaceholderText(placeholder(self._send_key))

    def inputMethodEvent(self, event: QInputMethodEvent) -> None:
        self._composing = bool(event.preeditString())
        super().inputMethodEvent(event)

    def focusOutEvent(self, event) -> None:
        self._composing = False  # a composition does not survive losing focus
        super().focusOutEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key == Qt.Key.Key_Escape and not self._composing:
            self.escaped.emit()
            return
        if key not in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            super().keyPressEvent(event)
            return
        if self._composing:  # the input method's to commit: neither a send nor a new line
            event.accept()
            return
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if modifiers == Qt.KeyboardModifier.ControlModifier or (
                modifiers == Qt.KeyboardModifier.NoModifier and self._send_key == "enter"):
            self.submitted.emit()
        elif modifiers in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier):
            self.insertPlainText("\n")  # a new paragraph, not Qt's Shift+Enter line separator
            self.ensureCursorVisible()
        else:
            super().keyPressEvent(event)
