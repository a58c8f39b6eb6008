"""The left pane: New chat, search across chats, and the list of chats.

Chats are grouped by date under headers (a "Pinned" section first), a family's branches are
nested under its chat, the open chat is selected. Rename happens in place (double-click, F2
or the menu; Enter saves, Escape cancels), Delete asks nothing: the window offers Undo. While
searching, the list shows each chat's hits under it; a hit opens its chat at the message.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.storage.models import ChatRecord, SearchHit
from ollm_desktop.ui.chat_list.chat_list_items import (
    CHAT_ID_ROLE,
    HEADER_ROLE,
    MESSAGE_ID_ROLE,
    ROW_ROLE,
    TITLE_ROLE,
    AnyIndex,
    ChatListDelegate,
    row_of,
)
from ollm_desktop.ui.chat_list.chat_list_rows import ListRow, chat_rows, hit_rows

__all__ = ["CHAT_ID_ROLE", "MESSAGE_ID_ROLE", "TITLE_ROLE", "ChatListPanel"]

EDITING = QAbstractItemView.State.EditingState


class ChatListWidget(QListWidget):
    """The list itself: the Delete key deletes the selected chat (before any window-wide
    shortcut on the same key, while the list has the focus)."""

    deletePressed = Signal()

    def event(self, e: QEvent) -> bool:
        if e.type() == QEvent.Type.ShortcutOverride and isinstance(e, QKeyEvent) and \
                e.key() == Qt.Key.Key_Delete and self.state() != EDITING:
            e.accept()
            return True
        return super().event(e)

    def keyPressEvent(self, e: QKeyEvent) -> None:
        if e.key() == Qt.Key.Key_Delete and self.state() != EDITING:
            self.deletePressed.emit()
            return
        super().keyPressEvent(e)


class ChatListPanel(QWidget):
    """Shows chats (or search hits); asks the window to open, rename, pin or delete one."""

    newChatRequested = Signal()
    openRequested = Signal(str)  # chat id
    renameRequested = Signal(str, str)  # chat id, new title
    relabelRequested = Signal(str, str)  # a branch's id, its new label
    deleteRequested = Signal(str)
    pinRequested = Signal(str, bool)  # chat id, pinned
    messageRequested = Signal(str, str)  # chat id, message id (a search hit)

    def __init__(self, list_chats: Callable[[], list[ChatRecord]],
                 search: Callable[[str], list[SearchHit]],
                 current_id: Callable[[], str | None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._list_chats, self._search, self._current_id = list_chats, search, current_id
        self._rows: list[ListRow] | None = None
        self._stale = False  # a refresh waited for the title editor to close
        self._target: QListWidgetItem | None = None  # the row a context menu is open on
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 4, 8)
        self.new_chat_button = QPushButton(self.tr("New chat"))
        self.search_edit = QLineEdit()
        self.search_edit.setPlaceholderText(self.tr("Search all chats…"))
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.setAccessibleName(self.tr("Search chats"))
        self.list = ChatListWidget()
        self.list.setObjectName("chatList")
        self.list.setAccessibleName(self.tr("Chats"))
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setUniformItemSizes(False)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.delegate = ChatListDelegate(self._commit, self.list)
        self.list.setItemDelegate(self.delegate)
        layout.addWidget(self.new_chat_button)
        layout.addWidget(self.search_edit)
        layout.addWidget(self.list, 1)
        self._build_actions()
        self.new_chat_button.clicked.connect(self.newChatRequested)
        self.list.itemActivated.connect(self.item_activated)
        self.list.itemClicked.connect(self.item_activated)
        self.list.customContextMenuRequested.connect(self._menu)
        self.list.deletePressed.connect(self.delete_action.trigger)
        self.delegate.closeEditor.connect(self._editor_closed)
        self.search_edit.textChanged.connect(lambda _text: self.refresh())

    def _build_actions(self) -> None:
        def action(name: str, text: str, slot: Callable[[], None]) -> QAction:
            made = QAction(text, self)
            made.setObjectName(name)
            made.triggered.connect(slot)
            return made

        self.pin_action = action("chatListPinAction", self.tr("Pin to top"), self._pin)
        self.rename_action = action("chatListRenameAction", self.tr("Rename") + "\tF2",
                                    self._rename)
        self.delete_action = action("chatListDeleteAction", self.tr("Delete") + "\tDel",
                                    self._delete)

    # ---------------------------------------------------------------- rows
    def refresh(self) -> None:
        """Rebuild the rows if what they show changed; always select the open chat."""
        if self.list.state() == EDITING:
            self._stale = True  # never pull the row from under the user's typing
            return
        text = self.search_edit.text()
        rows = hit_rows(self._search(text), text) if text.strip() else \
            chat_rows(self._list_chats())
        if rows != self._rows:
            self._rebuild(rows)
        self._select_current()

    def _rebuild(self, rows: list[ListRow]) -> None:
        self._rows = rows
        self._target = None
        place = self.list.verticalScrollBar().value()
        self.list.blockSignals(True)
        self.list.clear()
        for row in rows:
            item = QListWidgetItem(row.text)
            item.setData(ROW_ROLE, row)
            if row.kind == "header":
                item.setData(HEADER_ROLE, True)
                item.setFlags(Qt.ItemFlag.NoItemFlags)
                item.setData(Qt.ItemDataRole.AccessibleTextRole, row.text)
            else:
                item.setData(CHAT_ID_ROLE, row.chat_id)
                item.setData(TITLE_ROLE, row.title)
                item.setToolTip(row.tooltip)
                flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                if row.kind == "hit":
                    item.setData(MESSAGE_ID_ROLE, row.message_id)
                else:
                    flags |= Qt.ItemFlag.ItemIsEditable
                if row.kind == "chat" and self.search_edit.text().strip():
                    font = item.font()
                    font.setBold(True)  # a chat's heading over its hits
                    item.setFont(font)
                item.setFlags(flags)
                if row.branch:
                    item.setData(Qt.ItemDataRole.AccessibleTextRole,
                                 self.tr("Branch: {0}").format(row.text))
            self.list.addItem(item)
        self.list.verticalScrollBar().setValue(place)  # a title or pin changed: stay put
        self.list.blockSignals(False)

    def _select_current(self) -> None:
        if self.search_edit.text().strip():
            return  # the hits keep whatever the user picked
        current = self._current_id()
        item = self._chat_item(current) if current else None
        self.list.blockSignals(True)
        if item is None:
            self.list.clearSelection()
        elif self.list.currentItem() is not item or not item.isSelected():
            self.list.setCurrentItem(item)
            item.setSelected(True)
        self.list.blockSignals(False)

    def _chat_item(self, chat_id: str) -> QListWidgetItem | None:
        for position in range(self.list.count()):
            item = self.list.item(position)
            row = item.data(ROW_ROLE)
            if isinstance(row, ListRow) and row.kind == "chat" and row.chat_id == chat_id:
                return item
        return None

    def chat_ids(self) -> list[str]:
        """The chats in the order shown (not hits, not headers)."""
        return [r.chat_id for r in self._rows or [] if r.kind == "chat"]

    def neighbour_of(self, chat_id: str) -> str | None:
        """The chat shown after ``chat_id`` (before it when it is the last): what opens when
        the open chat is deleted."""
        ids = self.chat_ids()
        if chat_id not in ids:
            return None
        at = ids.index(chat_id)
        rest = ids[at + 1:] + ids[:at][::-1]
        return rest[0] if rest else None

    def title_of(self, chat_id: str) -> str:
        item = self._chat_item(chat_id)
        return str(item.data(TITLE_ROLE)) if item is not None else ""

    # ------------------------------------------------------------- actions
    def item_activated(self, item: QListWidgetItem) -> None:
        chat_id, message_id = item.data(CHAT_ID_ROLE), item.data(MESSAGE_ID_ROLE)
        if chat_id and message_id:
            self.messageRequested.emit(chat_id, message_id)  # also in the open chat
        elif chat_id and chat_id != self._current_id():
            self.openRequested.emit(chat_id)

    def _target_item(self) -> QListWidgetItem | None:
        item = self._target or self.list.currentItem()
        return item if item is not None and item.data(CHAT_ID_ROLE) else None

    def _pinned(self, chat_id: str) -> bool:
        """Whether the chat's family is pinned (also while the list shows search hits)."""
        rows = self._rows if not self.search_edit.text().strip() else \
            chat_rows(self._list_chats())
        return any(r.pinned for r in rows or [] if r.kind == "chat" and r.chat_id == chat_id)

    def _menu(self, pos: QPoint) -> None:
        item = self.list.itemAt(pos)
        if item is None or not item.data(CHAT_ID_ROLE):
            return
        self._target = item
        pinned = self._pinned(item.data(CHAT_ID_ROLE))
        self.pin_action.setText(self.tr("Unpin") if pinned else self.tr("Pin to top"))
        menu = QMenu(self)
        for action in (self.pin_action, self.rename_action):
            menu.addAction(action)
        menu.addSeparator()
        menu.addAction(self.delete_action)
        # popup, not exec: a nested event loop would stall a streaming reply while it is open.
        # The menu is deleted after its action has run: only then is the row forgotten.
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.destroyed.connect(self._forget_target)
        menu.popup(self.list.viewport().mapToGlobal(pos))

    def _forget_target(self) -> None:
        self._target = None

    def _pin(self) -> None:
        item = self._target_item()
        if item is not None:
            chat_id = item.data(CHAT_ID_ROLE)
            self.pinRequested.emit(chat_id, not self._pinned(chat_id))

    def _rename(self) -> None:
        item = self._target_item()
        if item is not None and item.data(MESSAGE_ID_ROLE):  # a hit: rename its chat
            item = self._chat_item(item.data(CHAT_ID_ROLE))
        if item is not None:
            self.list.setCurrentItem(item)
            self.list.editItem(item)

    def _delete(self) -> None:
        item = self._target_item()
        if item is not None:
            self.deleteRequested.emit(item.data(CHAT_ID_ROLE))

    # ------------------------------------------------------------- editing
    def _commit(self, index: AnyIndex, text: str) -> None:
        """A new name from the in-place editor; sent once the editor has closed."""
        row = row_of(index)
        if row is None or row.kind != "chat":
            return
        item = self.list.item(index.row())
        if item is not None:
            item.setText(text)  # at once; the list is rebuilt when the rename is stored
        self._rows = None  # (also when it is refused: the old name comes back)
        signal = self.relabelRequested if row.branch else self.renameRequested
        QTimer.singleShot(0, lambda: signal.emit(row.chat_id, text))

    def _editor_closed(self, _editor: QObject, _hint: object = None) -> None:
        if self._stale:
            self._stale = False
            QTimer.singleShot(0, self.refresh)
