"""Preferences in pages (issue 32): a list of page names on the left, one page at a time on
the right, instead of one dense form of about 25 fields. ``PagedForm.show_page(name)`` opens
one (an invalid field's page opens with its message)."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidget,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.ui.theme import SPACE


class PagedForm(QWidget):
    def __init__(self, pages: list[tuple[str, str, list[QWidget]]],
                 parent: QWidget | None = None) -> None:
        """``pages``: (name, title, the page's boxes from top to bottom)."""
        super().__init__(parent)
        self.setObjectName("preferencesPages")
        self.list = QListWidget()
        self.list.setObjectName("preferencesPageList")
        self.list.setAccessibleName(self.tr("Preference pages"))
        self.list.setFixedWidth(190)
        self.stack = QStackedWidget()
        self.names: list[str] = []
        for name, title, boxes in pages:
            page = QWidget()
            page.setObjectName(f"preferencesPage_{name}")
            column = QVBoxLayout(page)
            column.setContentsMargins(SPACE.s, 0, SPACE.s, 0)
            for box in boxes:
                column.addWidget(box)
            column.addStretch(1)
            scroll = QScrollArea()  # a long page scrolls; the dialog keeps its size
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QScrollArea.Shape.NoFrame)
            scroll.setWidget(page)
            self.stack.addWidget(scroll)
            self.list.addItem(title)
            self.list.item(self.list.count() - 1).setSizeHint(QSize(0, 34))
            self.names.append(name)
        self.list.currentRowChanged.connect(self.stack.setCurrentIndex)
        self.list.setCurrentRow(0)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.list)
        row.addWidget(self.stack, 1)

    def show_page(self, name: str) -> None:
        self.list.setCurrentRow(self.names.index(name))

    def page_of(self, widget: QWidget) -> str | None:
        for index, name in enumerate(self.names):
            page = self.stack.widget(index)
            if page is not None and page.isAncestorOf(widget):
                return name
        return None
