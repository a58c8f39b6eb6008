"""What one reply's request recalled, shown on demand: each recalled message (its turn, who
said it, its beginning) with a jump to it, and the exact text that went into the request.
Non-modal: opened by the user from the reply's row, it never blocks the chat."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.engine.models import Message
from ollm_desktop.storage.models import RecallRecord

Lookup = Callable[[str], Message | None]
Jump = Callable[[str], bool]


def recalled_label(record: RecallRecord) -> str:
    """ "Recalled 2 earlier messages": the reply's row and the panel's heading."""
    count = record.message_count
    if count == 1:
        return QCoreApplication.translate("RecallPanel", "Recalled 1 earlier message")
    return QCoreApplication.translate("RecallPanel", "Recalled {0} earlier messages").format(count)


class RecallPanel(QDialog):
    def __init__(self, record: RecallRecord, lookup: Lookup, jump: Jump,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("recallPanel")
        self.setWindowTitle(self.tr("What this reply's request recalled"))
        self._jump = jump
        turns = sorted({item.turn for item in record.items})
        heading = QLabel(self.tr("{0} (turn {1}), about {2} tokens, quoted after your message "
                                 "as earlier conversation. Never stored in the chat.").format(
            recalled_label(record), ", ".join(str(t) for t in turns), f"{record.tokens:,}"))
        heading.setObjectName("recallHeading")
        heading.setWordWrap(True)
        self.items = QListWidget()
        self.items.setObjectName("recalledItems")
        self.items.setAccessibleName(self.tr("Recalled messages"))
        for item in record.items:
            for message_id in item.message_ids:
                message = lookup(message_id)
                who = (self.tr("You") if message is not None and message.role == "user"
                       else self.tr("Assistant"))
                text = (" ".join(message.content.split())[:120] if message is not None
                        else self.tr("(no longer in this chat)"))
                partial = self.tr(" · its matching sentences") if item.partial else ""
                row = QListWidgetItem(self.tr("Turn {0} · {1}{2}: {3}").format(
                    item.turn, who, partial, text))
                row.setData(Qt.ItemDataRole.UserRole, message_id)
                row.setToolTip(self.tr("Double-click to go to this message"))
                self.items.addItem(row)
        if self.items.count():
            self.items.setCurrentRow(0)
        self.items.itemActivated.connect(lambda _item: self.jump())
        self.jump_button = QPushButton(self.tr("Go to message"))
        self.jump_button.setObjectName("recallJumpButton")
        self.jump_button.clicked.connect(self.jump)
        self.note = QLabel()
        self.note.setObjectName("recallNote")
        self.note.hide()
        self.text = QPlainTextEdit(record.text.strip())
        self.text.setObjectName("recalledText")
        self.text.setReadOnly(True)
        self.text.setAccessibleName(self.tr("The recalled text as sent"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(self.items, 1)
        layout.addWidget(self.jump_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.note)
        layout.addWidget(QLabel(self.tr("Sent with your message:")))
        layout.addWidget(self.text, 2)
        layout.addWidget(buttons)
        self.resize(620, 460)

    def jump(self) -> bool:
        """Show the selected item's message in the conversation (False: it is gone)."""
        item = self.items.currentItem()
        if item is None:
            return False
        if self._jump(str(item.data(Qt.ItemDataRole.UserRole))):
            self.note.hide()
            return True
        self.note.setText(self.tr("That message is no longer in this chat."))
        self.note.show()
        return False
