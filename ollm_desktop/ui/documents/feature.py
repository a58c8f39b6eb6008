"""Attached documents' wiring: the composer's ``attachDocumentButton`` (and File-dialog
filter), document files dropped on the conversation or dropped or pasted into the message box,
the rows above it (Open, Read again, Remove with Undo in the window's undo bar), a reply's
sources and the reader.

A file changed on disk is noticed when a chat opens and when the window is brought forward;
its row then offers Read again. Nothing here reads a file: the controller's tasks do, off the
event loop, and the rows follow ``documentsChanged``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QDropEvent, QKeySequence
from PySide6.QtWidgets import QFileDialog, QPushButton

from ollm_desktop.storage.documents.models import DocumentSource
from ollm_desktop.storage.documents.reading import CODE, HTML, MARKDOWN, TEXT
from ollm_desktop.ui.composer.message_input import IMAGE_SUFFIXES
from ollm_desktop.ui.documents.reader import DocumentReader
from ollm_desktop.ui.documents.rows import DocumentsPanel
from ollm_desktop.ui.documents.sources import ReplySources
from ollm_desktop.ui.window_parts import insert_before

if TYPE_CHECKING:
    from ollm_desktop.ui.documents.host import DocumentsHost

SHORTCUT = "Ctrl+Shift+D"
SUFFIXES = sorted({".pdf", ".docx", *MARKDOWN, *HTML, *(TEXT - {""}), *CODE})
FILTER = "Documents ({});;All files (*)".format(" ".join(f"*{s}" for s in SUFFIXES))


class DocumentDrops(QObject):
    """Takes the files dropped on the conversation that are not pictures (those go to the
    image attachments)."""

    def __init__(self, feature: DocumentsFeature) -> None:
        super().__init__()
        self._feature = feature

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if not isinstance(event, QDropEvent) or kind not in (
                QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop):
            return False
        data = event.mimeData()
        files = [url.toLocalFile() for url in data.urls() if url.isLocalFile()]
        files = [f for f in files if Path(f).suffix.lower() not in IMAGE_SUFFIXES]
        if not files:
            return False
        event.acceptProposedAction()
        if kind == QEvent.Type.Drop:
            self._feature.attach(files)
        return True


class DocumentsFeature(QObject):
    def __init__(self, content: DocumentsHost) -> None:
        super().__init__(content.window)
        self.setObjectName("documentsFeature")
        self.content = content
        controller = self.controller = content.controller
        self.readers: list[DocumentReader] = []
        self.button = QPushButton(self.tr("Attach document…"))
        self.button.setObjectName("attachDocumentButton")
        self.button.setAccessibleName(self.tr("Attach document"))
        self.button.setToolTip(self.tr("Attach a PDF, DOCX, HTML, Markdown, text or code file "
                                       "to this chat; the passages a message needs go with "
                                       "it, with their sources ({0})").format(SHORTCUT))
        self.button.clicked.connect(self.choose_files)
        self.action = QAction(self.tr("Attach &document…"), content.window)
        self.action.setObjectName("actionAttachDocument")
        self.action.setShortcut(QKeySequence(SHORTCUT))
        self.action.setStatusTip(self.button.toolTip())
        self.action.triggered.connect(self.choose_files)
        content.window.addAction(self.action)
        menu = content.menus.get("conversation")
        if menu is not None and menu.actions():
            menu.insertAction(menu.actions()[0], self.action)
        self.panel = DocumentsPanel({"open": lambda key: self.open_document(key),
                                     "remove": self.remove,
                                     "reread": controller.reread_document})
        insert_before(content.stop_button, self.button)
        insert_before(content.conversation_view, self.panel)
        self.drops = DocumentDrops(self)
        content.conversation_view.viewport().installEventFilter(self.drops)
        content.conversation_view.viewport().setAcceptDrops(True)
        content.message_input.documentFilesDropped.connect(self.attach)  # dropped or pasted
        self.sources = ReplySources(content, self.open_source)
        controller.documentsChanged.connect(self.refresh)
        controller.chatOpened.connect(lambda _chat: self.refresh())
        content.window.installEventFilter(self)
        self.refresh()

    # ----------------------------------------------------------------- rows
    def refresh(self) -> None:
        self.panel.show_rows(self.controller.document_rows())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.WindowActivate and self.panel.rows:
            self.controller.check_documents()  # a file edited meanwhile is noticed
        return False

    # -------------------------------------------------------------- actions
    def choose_files(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self.content.window,
                                                self.tr("Attach documents"), "", FILTER)
        self.attach(paths)

    def attach(self, paths: list[str]) -> None:
        if paths:
            self.controller.attach_documents(list(paths))

    def remove(self, key: str) -> None:
        row = self.panel.rows.get(key)
        name = row.row.name if row is not None else self.tr("The document")
        if self.controller.remove_document(key):
            self.content.undo_bar.offer(self.tr("{0} removed from this chat.").format(name),
                                        self._undo_remove)

    def _undo_remove(self) -> None:
        self.controller.undo_remove_document()

    def open_document(self, key: str, ordinal: int | None = None,
                      name: str | None = None) -> DocumentReader:
        if name is None:
            row = self.panel.rows.get(key)
            name = row.row.name if row is not None else key[:12]
        reader = DocumentReader(name, self.controller.document_passages(key), ordinal,
                                self.content.window)
        self.readers = [r for r in self.readers if r.isVisible()] + [reader]
        reader.show()
        return reader

    def open_source(self, source: DocumentSource) -> DocumentReader:
        return self.open_document(source.document_id, source.ordinal, source.name)


def install(content: DocumentsHost) -> DocumentsFeature:
    return DocumentsFeature(content)
