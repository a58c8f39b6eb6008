"""The open chat's documents as rows at the top of the conversation (``documentRow``): name,
size, pages, passages and index status, a progress bar while a file is read, Open, Read again
(when the file changed on disk) and Remove. Rows are kept and updated in place: a progress
tick changes one bar, never the layout."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.controller import DocumentRow


def size_text(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / 1024 / 1024:.1f} MB"
    return f"{max(1, round(size / 1024))} KB"


def _count(number: int, one: str, many: str) -> str:
    return f"{number:,} {one if number == 1 else many}"


class DocumentRowWidget(QFrame):
    def __init__(self, row: DocumentRow, actions: dict[str, Callable[[str], object]],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("documentRow")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.key = row.key
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 3, 6, 3)
        text = QVBoxLayout()
        text.setSpacing(0)
        self.name = QLabel()
        self.name.setObjectName("documentName")
        bold = self.name.font()
        bold.setBold(True)
        self.name.setFont(bold)
        self.details = QLabel()
        self.details.setObjectName("documentDetails")
        self.details.setStyleSheet("color: palette(placeholder-text);")
        text.addWidget(self.name)
        text.addWidget(self.details)
        layout.addLayout(text, 1)
        self.progress = QProgressBar()
        self.progress.setObjectName("documentProgress")
        self.progress.setRange(0, 100)
        self.progress.setMaximumWidth(160)
        layout.addWidget(self.progress)
        self.buttons: dict[str, QToolButton] = {}
        for kind, label, tip in (
                ("open", self.tr("Open"), self.tr("Read the document's text")),
                ("reread", self.tr("Read again"),
                 self.tr("The file changed since it was attached: read it again")),
                ("remove", "×", self.tr("Remove the document from this chat"))):
            button = QToolButton()
            button.setObjectName(f"document{kind.capitalize()}Button")
            button.setText(label)
            button.setToolTip(tip)
            button.setAccessibleName(tip)
            button.setAutoRaise(True)
            button.clicked.connect(lambda _=False, kind=kind: actions[kind](self.key))
            layout.addWidget(button)
            self.buttons[kind] = button
        self.update_from(row)

    def update_from(self, row: DocumentRow) -> None:
        self.row = row
        self.name.setText(row.name)
        self.name.setToolTip(row.path or row.name)
        reading = row.status == "reading"
        parts = [size_text(row.size)]
        if not reading:
            parts += [_count(row.pages, self.tr("page"), self.tr("pages")),
                      _count(row.passages, self.tr("passage"), self.tr("passages"))]
        parts.append({
            "reading": self.tr("reading and indexing… {0} %").format(round(row.progress * 100)),
            "ready": self.tr("indexed"),
            "changed": self.tr("changed on disk since it was attached"),
            "missing": self.tr("the file is gone: the stored copy is used"),
            "text only": self.tr("imported as text"),
        }[row.status])
        self.details.setText(" · ".join(parts))
        self.progress.setVisible(reading)
        self.progress.setValue(round(row.progress * 100))
        self.buttons["open"].setVisible(not reading)
        self.buttons["remove"].setVisible(not reading)
        self.buttons["reread"].setVisible(row.status == "changed")


class DocumentsPanel(QWidget):
    """The rows; hidden when the chat has no document."""

    def __init__(self, actions: dict[str, Callable[[str], object]],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("documentsPanel")
        self.setAccessibleName(self.tr("Attached documents"))
        self._actions = actions
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 2)
        self._layout.setSpacing(2)
        self.rows: dict[str, DocumentRowWidget] = {}
        self.hide()

    def show_rows(self, rows: list[DocumentRow]) -> None:
        wanted = [row.key for row in rows]
        if wanted == list(self.rows):
            for row in rows:
                self.rows[row.key].update_from(row)
        else:
            for widget in self.rows.values():
                widget.hide()
                widget.deleteLater()
            self.rows = {}
            for row in rows:
                widget = DocumentRowWidget(row, self._actions)
                self._layout.addWidget(widget)
                widget.show()  # a child added to a shown panel is not shown by itself
                self.rows[row.key] = widget
        self.setVisible(bool(rows))
