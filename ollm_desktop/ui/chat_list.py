"""The left pane: New chat, search across chats, and the list of chats (rename, delete)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtWidgets import (
    QInputDialog,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.storage.models import ChatRecord, SearchHit

CHAT_ID_ROLE = Qt.ItemDataRole.UserRole + 1
MESSAGE_ID_ROLE = Qt.ItemDataRole.UserRole + 2  # a search hit: the message to show
TITLE_ROLE = Qt.ItemDataRole.UserRole + 3  # a search hit's chat title (for Rename)
DELETE_TEXT = ("Delete this chat, its history and its snapshots? This cannot be undone; export "
               "it first to keep a copy.")


class ChatListPanel(QWidget):
    """Shows chats (or search hits); asks the window to open, rename or delete one."""

    newChatRequested = Signal()
    openRequested = Signal(str)  # chat id
    renameRequested = Signal(str, str)  # chat id, new title
    deleteRequested = Signal(str)
    messageRequested = Signal(str, str)  # chat id, message id (a search hit)

    def __init__(self, list_chats: Callable[[], list[ChatRecord]],
                 search: Callable[[str], list[SearchHit]],
                 current_id: Callable[[], str | None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._list_chats, self._search, self._current_id = list_chats, search, current_id
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 4, 8)
        self.new_chat_button = QPushButton(self.tr("New chat"))
        self.search_edit = QLineEdit()
        self.search_edit.setPlaceholderText(self.tr("Search all chats…"))
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.setAccessibleName(self.tr("Search chats"))
        self.list = QListWidget()
        self.list.setObjectName("chatList")
        self.list.setAccessibleName(self.tr("Chats"))
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setUniformItemSizes(False)
        layout.addWidget(self.new_chat_button)
        layout.addWidget(self.search_edit)
        layout.addWidget(self.list, 1)
        self.new_chat_button.clicked.connect(self.newChatRequested)
        self.list.itemActivated.connect(self.item_activated)
        self.list.itemClicked.connect(self.item_activated)
        self.list.customContextMenuRequested.connect(self._menu)
        self.search_edit.textChanged.connect(self._search_changed)

    def refresh(self) -> None:
        if self.search_edit.text().strip():
            self._search_changed(self.search_edit.text())
            return
        current = self._current_id()
        self.list.blockSignals(True)
        self.list.clear()
        for chat in self._list_chats():
            item = QListWidgetItem(chat.title)
            item.setData(CHAT_ID_ROLE, chat.id)
            item.setToolTip(self.tr("{0} messages · {1}").format(
                chat.message_count, chat.updated_at.astimezone().strftime("%Y-%m-%d %H:%M")))
            self.list.addItem(item)
            if chat.id == current:
                item.setSelected(True)
                self.list.setCurrentItem(item)
        self.list.blockSignals(False)

    def _search_changed(self, text: str) -> None:
        if not text.strip():
            self.refresh()
            return
        self.list.clear()
        # Each chat once, as a heading, with its hits under it (newest chat first).
        chats: dict[str, list[SearchHit]] = {}
        for hit in self._search(text):
            chats.setdefault(hit.chat_id, []).append(hit)
        for hits in chats.values():
            heading = QListWidgetItem(hits[0].chat_title)
            heading.setData(CHAT_ID_ROLE, hits[0].chat_id)
            font = heading.font()
            font.setBold(True)
            heading.setFont(font)
            self.list.addItem(heading)
            for hit in hits:
                who = self.tr("You") if hit.role == "user" else self.tr("Assistant") \
                    if hit.role == "assistant" else hit.role.title()
                item = QListWidgetItem(f"    {who}: {hit.snippet}")
                item.setData(CHAT_ID_ROLE, hit.chat_id)
                item.setData(MESSAGE_ID_ROLE, hit.message_id)
                item.setData(TITLE_ROLE, hit.chat_title)
                item.setToolTip(f"{hit.chat_title}\n{hit.snippet}")
                self.list.addItem(item)

    def item_activated(self, item: QListWidgetItem) -> None:
        chat_id, message_id = item.data(CHAT_ID_ROLE), item.data(MESSAGE_ID_ROLE)
        if chat_id and message_id:
            self.messageRequested.emit(chat_id, message_id)  # also in the open chat
        elif chat_id and chat_id != self._current_id():
            self.openRequested.emit(chat_id)

    def _menu(self, pos: QPoint) -> None:
        item = self.list.itemAt(pos)
        if item is None:
            return
        chat_id = item.data(CHAT_ID_ROLE)
        menu = QMenu(self)
        rename = menu.addAction(self.tr("Rename…"))
        delete = menu.addAction(self.tr("Delete…"))
        chosen = menu.exec(self.list.viewport().mapToGlobal(pos))
        if chosen is rename:
            title, ok = QInputDialog.getText(self, self.tr("Rename chat"), self.tr("Name:"),
                                             text=item.data(TITLE_ROLE) or item.text())
            if ok and title.strip():
                self.renameRequested.emit(chat_id, title)
        elif chosen is delete and QMessageBox.question(
                self, self.tr("Delete chat"), self.tr(DELETE_TEXT)
        ) == QMessageBox.StandardButton.Yes:
            self.deleteRequested.emit(chat_id)
