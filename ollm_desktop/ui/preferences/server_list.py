"""The list of servers and its Add / Remove buttons, as Preferences' server editors show them
(the other model servers, the tool servers): one place names and sizes them."""

from __future__ import annotations

from PySide6.QtWidgets import QListWidget, QPushButton, QWidget


def server_list(parent: QWidget, name: str, accessible: str) -> QListWidget:
    listing = QListWidget(parent)
    listing.setObjectName(name)
    listing.setAccessibleName(accessible)
    return listing


def add_remove_buttons(parent: QWidget, add_name: str, remove_name: str
                       ) -> tuple[QPushButton, QPushButton]:
    add = QPushButton(parent.tr("Add"), parent)
    add.setObjectName(add_name)
    remove = QPushButton(parent.tr("Remove"), parent)
    remove.setObjectName(remove_name)
    return add, remove
