"""The message box. The send key is a preference (``Settings.send_key``):

- "enter" (the default, as in most chat apps): Enter sends, Shift+Enter is a new line;
- "ctrl-enter": Enter is a new line.

Ctrl+Enter sends in both, Esc stops. While an input method is composing (a preedit is shown)
Enter belongs to the input method: it commits the composition and never sends.

Image files dropped on the box, and pictures pasted into it, are not inserted as text: they
are handed on (``imageFilesDropped``, ``imagePasted``) to be attached to the message.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QMimeData, Qt, Signal
from PySide6.QtGui import QImage, QInputMethodEvent, QKeyEvent
from PySide6.QtWidgets import QPlainTextEdit, QWidget

SEND_KEYS = ("enter", "ctrl-enter")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".gif", ".bmp")


def document_files(mime: QMimeData) -> list[str]:
    """Local files among dragged or pasted URLs that are not pictures (attached as
    documents)."""
    if not mime.hasUrls():
        return []
    return [url.toLocalFile() for url in mime.urls() if url.isLocalFile()
            and not url.toLocalFile().lower().endswith(IMAGE_SUFFIXES)]


def image_files(mime: QMimeData) -> list[str]:
    """Local image files among dragged or pasted URLs (by their name)."""
    if not mime.hasUrls():
        return []
    return [url.toLocalFile() for url in mime.urls()
            if url.isLocalFile() and url.toLocalFile().lower().endswith(IMAGE_SUFFIXES)]


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
    imageFilesDropped = Signal(list)  # paths of image files dropped or pasted on the box
    imagePasted = Signal(QImage)  # a picture pasted from the clipboard (not a file)
    documentFilesDropped = Signal(list)  # other local files dropped or pasted: documents

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

    # ------------------------------------------------------------ images
    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return bool(image_files(source)) or bool(document_files(source)) or \
            source.hasImage() or super().canInsertFromMimeData(source)

    def insertFromMimeData(self, source: QMimeData) -> None:
        """Drops and pastes: image files and pictures are attached, anything else is text."""
        files, documents = image_files(source), document_files(source)
        if files or documents:
            if files:
                self.imageFilesDropped.emit(files)
            if documents:
                self.documentFilesDropped.emit(documents)
        elif source.hasImage() and not source.text().strip():  # a spreadsheet's cells
            image = QImage(source.imageData())  # come with a picture of them: text wins
            if not image.isNull():
                self.imagePasted.emit(image)
        else:
            super().insertFromMimeData(source)
