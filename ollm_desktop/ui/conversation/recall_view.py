"""Recall in the window (issue 23): a reply's row says what its request recalled
("Recalled 2 earlier messages") and shows it on demand (``actionShowRecalled``: the row's
hover button and menu open the ``recallPanel``, whose items jump to their messages); a
message's menu keeps it out of recall (``actionExcludeFromRecall``, checkable). What each
reply recalled and which messages are excluded are read from the controller when a chat
opens and kept in step as replies finish.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction

from ollm_desktop.controller import ReplyInfo
from ollm_desktop.engine.models import Message
from ollm_desktop.storage.models import RecallRecord
from ollm_desktop.ui.conversation.recall_panel import RecallPanel, recalled_label

if TYPE_CHECKING:
    from ollm_desktop.ui.conversation.conversation_model import ConversationRow
    from ollm_desktop.ui.conversation.host import ConversationHost


def _tr(text: str) -> str:
    return QCoreApplication.translate("RecallView", text)


class RecallView(QObject):
    def __init__(self, content: ConversationHost) -> None:
        super().__init__(content.window)
        self._content = content
        self.records: dict[str, RecallRecord] = {}
        self.excluded: set[str] = set()
        self.panel: RecallPanel | None = None
        view, c = content.conversation_view, content.controller
        self.show_action = QAction(_tr("Show what was &recalled…"), view)
        self.show_action.setObjectName("actionShowRecalled")
        self.show_action.setIconText(_tr("Recalled"))
        tip = _tr("The earlier messages this reply's request recalled, and where they are")
        self.show_action.setToolTip(tip)
        self.show_action.setStatusTip(tip)
        self.show_action.triggered.connect(self.show_current)
        self.exclude_action = QAction(_tr("E&xclude from recall"), view)
        self.exclude_action.setObjectName("actionExcludeFromRecall")
        self.exclude_action.setCheckable(True)
        tip = _tr("Never bring this message (and its exchange) back into a request")
        self.exclude_action.setToolTip(tip)
        self.exclude_action.setStatusTip(tip)
        self.exclude_action.triggered.connect(self.toggle_current)
        view.message_actions.append((self.show_action, self._has_record))
        view.menu_actions.append((self.exclude_action, self._prepare_exclude))
        view.message_delegate.row_notes = self._notes
        c.chatOpened.connect(lambda _chat: self.reload())
        c.historyReset.connect(self.reload)
        c.replyFinished.connect(self._reply_finished)
        self.reload()

    # ------------------------------------------------------------ state
    def reload(self) -> None:
        controller = self._content.controller
        if controller.chat is None:
            self.records, self.excluded = {}, set()
        else:
            self.records = controller.recall_records()
            self.excluded = controller.recall_excluded()
        self._content.conversation_view.viewport().update()

    def _reply_finished(self, message: Message, info: ReplyInfo) -> None:
        if info.recalled is not None:
            self.records[message.id] = info.recalled
            self._content.conversation_view.viewport().update()

    def _notes(self, row: ConversationRow) -> list[str]:
        record = self.records.get(row.key) if row.message is not None else None
        notes = [recalled_label(record)] if record is not None and record.items else []
        if row.message is not None and row.key in self.excluded:
            notes.append(_tr("kept out of recall"))
        return notes

    def _has_record(self, row: ConversationRow) -> bool:
        record = self.records.get(row.key) if row.message is not None else None
        return record is not None and bool(record.items)  # not only documents' passages

    def _prepare_exclude(self, row: ConversationRow) -> bool:
        """The menu is being built for ``row``: the check shows its state."""
        if row.message is None or row.streaming:
            return False
        self.exclude_action.setChecked(row.key in self.excluded)
        return True

    # ---------------------------------------------------------- actions
    def show_current(self) -> RecallPanel | None:
        """The panel for the current reply (opened by the user; non-modal)."""
        content = self._content
        message_id = content.conversation_view.current_message_id()
        record = self.records.get(message_id or "")
        if record is None:
            return None
        if self.panel is not None:
            self.panel.close()
        self.panel = RecallPanel(record, content.controller.message, self.jump, content.window)
        self.panel.show()
        return self.panel

    def jump(self, message_id: str) -> bool:
        return self._content.conversation_view.scroll_to_message(message_id)

    def toggle_current(self, excluded: bool) -> bool:
        message_id = self._content.conversation_view.current_message_id()
        if message_id is None:
            return False
        if not self._content.controller.set_recall_excluded(message_id, excluded):
            return False
        self.excluded = self._content.controller.recall_excluded()
        self._content.conversation_view.viewport().update()
        return True


def install(content: ConversationHost) -> None:
    RecallView(content)  # parented to the window, which keeps it
