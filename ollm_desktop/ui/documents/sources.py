"""A reply's sources: the passages of attached documents its request carried, listed on its
row ("Sources: [guide.pdf, p. 12], [notes.md, lines 40–72]") and on demand in the
``sourcesPanel`` (``actionShowSources``: the row's hover button and menu), whose items open
the reader at the passage. Read from the replies' records (``RecallRecord.sources``) when a
chat opens and kept in step as replies finish."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.controller import ReplyInfo
from ollm_desktop.engine.models import Message
from ollm_desktop.storage.documents.models import DocumentSource

if TYPE_CHECKING:
    from ollm_desktop.ui.conversation.conversation_model import ConversationRow
    from ollm_desktop.ui.documents.host import SourcesHost

SHOWN = 2  # sources named on the row; the rest as "+N"


def sources_label(sources: list[DocumentSource]) -> str:
    names = ", ".join(s.source for s in sources[:SHOWN])
    more = f" +{len(sources) - SHOWN}" if len(sources) > SHOWN else ""
    return f"Sources: {names}{more}"


class SourcesPanel(QDialog):
    def __init__(self, sources: list[DocumentSource], open_source: Callable[[DocumentSource],
                                                                            object],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sourcesPanel")
        self.setWindowTitle(self.tr("Sources of this reply"))
        self._sources, self._open = sources, open_source
        heading = QLabel(self.tr("The request of this reply carried {0} of the attached "
                                 "documents:").format(
            self.tr("1 passage") if len(sources) == 1
            else self.tr("{0} passages").format(len(sources))))
        heading.setWordWrap(True)
        self.items = QListWidget()
        self.items.setObjectName("sourceItems")
        for index, source in enumerate(sources):
            text = source.source + (f" · {source.section}" if source.section else "")
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, index)
            item.setToolTip(self.tr("Double-click to read it in the document"))
            self.items.addItem(item)
        if self.items.count():
            self.items.setCurrentRow(0)
        self.items.itemActivated.connect(lambda _item: self.open_current())
        self.open_button = QPushButton(self.tr("Open in the document"))
        self.open_button.setObjectName("sourceOpenButton")
        self.open_button.clicked.connect(self.open_current)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.open_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(self.items, 1)
        layout.addWidget(buttons)

    def open_current(self) -> object:
        item = self.items.currentItem()
        if item is None:
            return None
        return self._open(self._sources[int(item.data(Qt.ItemDataRole.UserRole))])


class ReplySources(QObject):
    def __init__(self, content: SourcesHost,
                 open_source: Callable[[DocumentSource], object]) -> None:
        super().__init__(content.window)
        self._content = content
        self._open_source = open_source
        self.sources: dict[str, list[DocumentSource]] = {}
        self.panel: SourcesPanel | None = None
        view, c = content.conversation_view, content.controller
        self.action = QAction(self.tr("Show &sources…"), view)
        self.action.setObjectName("actionShowSources")
        self.action.setIconText(self.tr("Sources"))
        tip = self.tr("The passages of the attached documents this reply's request carried")
        self.action.setToolTip(tip)
        self.action.setStatusTip(tip)
        self.action.triggered.connect(self.show_current)
        view.message_actions.append((self.action, self._has_sources))
        delegate = view.message_delegate
        earlier = delegate.row_notes  # recall's, installed before: both are said
        delegate.row_notes = lambda row: [*(earlier(row) if earlier else []),
                                          *self._notes(row)]
        c.chatOpened.connect(lambda _chat: self.reload())
        c.historyReset.connect(self.reload)
        c.replyFinished.connect(self._reply_finished)
        self.reload()

    def reload(self) -> None:
        controller = self._content.controller
        records = controller.recall_records() if controller.chat is not None else {}
        self.sources = {key: r.sources for key, r in records.items() if r.sources}
        self._content.conversation_view.viewport().update()

    def _reply_finished(self, message: Message, info: ReplyInfo) -> None:
        if info.recalled is not None and info.recalled.sources:
            self.sources[message.id] = info.recalled.sources
            self._content.conversation_view.viewport().update()

    def _notes(self, row: ConversationRow) -> list[str]:
        found = self.sources.get(row.key) if row.message is not None else None
        return [sources_label(found)] if found else []

    def _has_sources(self, row: ConversationRow) -> bool:
        return row.message is not None and row.key in self.sources

    def show_current(self) -> SourcesPanel | None:
        content = self._content
        message_id = content.conversation_view.current_message_id()
        found = self.sources.get(message_id or "")
        if not found:
            return None
        if self.panel is not None:
            self.panel.close()
        self.panel = SourcesPanel(found, self._open_source, content.window)
        self.panel.show()
        return self.panel
