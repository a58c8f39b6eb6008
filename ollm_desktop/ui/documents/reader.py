"""A simple reader: a document's text, passage by passage under its source, with one passage
highlighted and scrolled to (a reply's source, or the row's Open). Plain text only: nothing
of the document is read as markup. Non-modal."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QColor, QShowEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.engine.passages import Passage, citation


class DocumentReader(QDialog):
    def __init__(self, name: str, passages: list[Passage], ordinal: int | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("documentReader")
        self.setWindowTitle(name)
        self.resize(720, 640)
        self.heading = QLabel()
        self.heading.setObjectName("documentReaderHeading")
        self.heading.setWordWrap(True)
        self.text = QPlainTextEdit()
        self.text.setObjectName("documentText")
        self.text.setReadOnly(True)
        self.text.setAccessibleName(self.tr("The document's text"))
        self._spans: dict[int, tuple[int, int]] = {}
        parts: list[str] = []
        at = 0
        for passage in passages:
            head = citation(name, passage) + (f" · {passage.section}" if passage.section else "")
            block = f"{head}\n{passage.text}\n\n"
            start = at + len(head) + 1
            self._spans[passage.ordinal] = (start, start + len(passage.text))
            parts.append(block)
            at += len(block)
        self.text.setPlainText("".join(parts))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)
        self._ordinal = ordinal
        self.show_passage(ordinal)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._ordinal is not None:  # scrolling needs the laid-out view
            QTimer.singleShot(0, lambda: self.show_passage(self._ordinal))

    def show_passage(self, ordinal: int | None) -> bool:
        """Highlight and scroll to the passage at ``ordinal`` (None: the start)."""
        self._ordinal = ordinal
        span = self._spans.get(ordinal) if ordinal is not None else None
        if span is None:
            self.heading.setText(self.tr("{0:,} passages").format(len(self._spans)))
            self.text.setExtraSelections([])
            return False
        cursor = QTextCursor(self.text.document())
        cursor.setPosition(span[0])
        cursor.setPosition(span[1], QTextCursor.MoveMode.KeepAnchor)
        self.text.setExtraSelections([_highlight(cursor)])
        place = QTextCursor(self.text.document())
        place.setPosition(span[0])
        self.text.setTextCursor(place)
        self.text.centerCursor()
        self.heading.setText(self.tr("The highlighted passage was sent with the reply."))
        return True

    def highlighted_text(self) -> str:
        selections = self.text.extraSelections()
        return selections[0].cursor.selectedText() if selections else ""


def _highlight(cursor: QTextCursor) -> QTextEdit.ExtraSelection:
    selection = QTextEdit.ExtraSelection()
    fmt = QTextCharFormat()
    fmt.setBackground(QColor(255, 230, 120))
    fmt.setForeground(QColor(20, 20, 20))
    selection.format = fmt
    selection.cursor = cursor
    return selection
