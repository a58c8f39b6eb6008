"""The chats a set-aside database still holds, to tick and import as new chats.

Opened only from the File menu (the user asked for it). Chats that are already in the list
(recovered at start, when the file was set aside) are shown but not ticked.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
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

from ollm_desktop.storage.set_aside import ReadableChat


def _size(path: Path) -> str:
    try:
        size = path.stat().st_size
    except OSError:
        return "?"
    return f"{size / 1_048_576:.1f} MB" if size >= 1_048_576 else f"{size / 1024:.0f} KB"


class SetAsideDialog(QDialog):
    def __init__(self, path: Path, chats: list[ReadableChat], present: set[str],
                 problem: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.path, self.chats = path, chats
        self.setObjectName("setAsideDialog")
        self.setAccessibleName(self.tr("Recover chats from a damaged database"))
        self.setWindowTitle(self.tr("Recover chats from a damaged database"))
        layout = QVBoxLayout(self)
        try:
            when = datetime.fromtimestamp(path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
        except OSError:
            when = "?"
        intro = self.tr("{0} ({1}, last written {2}) could not be used, so it was kept "
                        "unchanged beside a new database.").format(path.name, _size(path), when)
        if problem:
            intro += " " + self.tr("It cannot be opened: {0}").format(problem)
        elif not chats:
            intro += " " + self.tr("No chat in it can be read any more.")
        else:
            intro += " " + self.tr(
                "These chats can still be read from it. The ticked ones are imported as new "
                "chats, their titles ending in “(recovered)”; chats already in your list are "
                "not ticked.")
        label = QLabel(intro)
        label.setWordWrap(True)
        label.setObjectName("setAsideIntro")
        layout.addWidget(label)
        self.list = QListWidget()
        self.list.setObjectName("setAsideChats")
        self.list.setAccessibleName(self.tr("Readable chats"))
        for chat in chats:
            count = len(chat.state.messages)
            text = self.tr("{0} · {1} message(s) · {2}").format(
                chat.chat.title, count, chat.chat.updated_at.astimezone().strftime("%Y-%m-%d"))
            if chat.chat.id in present:
                text += " · " + self.tr("already in your chats")
            item = QListWidgetItem(text)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked if chat.chat.id in present or not count
                               else Qt.CheckState.Checked)
            self.list.addItem(item)
        self.list.setVisible(bool(chats))
        layout.addWidget(self.list)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.import_button = QPushButton(self.tr("&Import"))
        self.import_button.setObjectName("setAsideImport")
        buttons.addButton(self.import_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.folder_button = QPushButton(self.tr("Show in &folder"))
        self.folder_button.setObjectName("setAsideShowFolder")
        buttons.addButton(self.folder_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.folder_button.clicked.connect(self.show_folder)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.list.itemChanged.connect(self._update)
        layout.addWidget(buttons)
        self._update()
        self.resize(560, 420 if chats else self.sizeHint().height())

    def _update(self) -> None:
        self.import_button.setEnabled(bool(self.selected()))

    def selected(self) -> list[ReadableChat]:
        return [chat for row, chat in enumerate(self.chats)
                if self.list.item(row).checkState() == Qt.CheckState.Checked]

    def show_folder(self) -> bool:
        """The backup folder in the file manager (the file itself stays where it is)."""
        return QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.path.parent)))
