"""Preferences ▸ Other servers: the connections besides Local Ollama (llama.cpp's server, LM
Studio, vLLM, any OpenAI-compatible server) and which one new chats use.

Each connection has a name, a URL (with or without ``/v1``), an optional API key (it goes to
the system keyring when the Preferences are accepted, never into settings.json), an optional CA
file for a private certificate authority, and, for a generic server that cannot say it, the
context size. Its kind is found by asking the server (Test, or the first use) and shown here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.backend import KIND_LABELS, LOCAL_OLLAMA_ID, BackendError, Connection
from ollm_desktop.backend.connection import LOCAL_OLLAMA_NAME, new_id
from ollm_desktop.host_check import host_problem
from ollm_desktop.ui.preferences.server_list import add_remove_buttons, server_list

# (url, key, CA file) -> a task whose result is the probe's answer or the BackendError.
Tester = Callable[[str, str | None, str | None], "asyncio.Task[Any]"]
UNKNOWN_KIND = "found when first used"


class ConnectionsEditor(QGroupBox):
    changed = Signal()

    def __init__(self, connections: list[Connection], default: str | None,
                 tester: Tester | None = None, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Other servers"), parent)
        self.setObjectName("connectionsEditor")
        self._rows: list[Connection] = [c for c in connections if c.id != LOCAL_OLLAMA_ID]
        self._keys: dict[str, str] = {}  # typed keys, by connection id (to the keyring on OK)
        self._tester = tester
        self._loading = False
        self.list = server_list(self, "connectionList", self.tr("Other servers"))
        self.list.setMaximumHeight(90)
        self.add_button, self.remove_button = add_remove_buttons(
            self, "addConnectionButton", "removeConnectionButton")
        self.name_edit = QLineEdit()
        self.url_edit = QLineEdit()
        self.url_edit.setPlaceholderText("http://127.0.0.1:8080/v1")
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.ca_edit = QLineEdit()
        self.ca_edit.setPlaceholderText(self.tr("Only for a private certificate authority"))
        self.ca_button = QPushButton(self.tr("Browse…"))
        self.window_spin = QSpinBox()
        self.window_spin.setRange(0, 4_194_304)
        self.window_spin.setSingleStep(1024)
        self.window_spin.setGroupSeparatorShown(True)
        self.window_spin.setSpecialValueText(self.tr("Asked of the server"))
        self.window_spin.setSuffix(self.tr(" tokens"))
        self.window_spin.setToolTip(self.tr(
            "A generic server cannot say its context size: enter it (no default is assumed)."))
        self.kind_label = QLabel()
        self.kind_label.setObjectName("connectionKind")
        self.kind_label.setWordWrap(True)
        self.test_button = QPushButton(self.tr("Test"))
        self.test_button.setObjectName("testConnectionButton")
        self.test_button.setEnabled(tester is not None)
        self.default_combo = QComboBox()
        self.default_combo.setObjectName("defaultConnection")
        for widget, name in ((self.name_edit, "connectionName"), (self.url_edit, "connectionUrl"),
                             (self.key_edit, "connectionKey"), (self.ca_edit, "connectionCa"),
                             (self.window_spin, "connectionWindow")):
            widget.setObjectName(name)

        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        ca_row = QHBoxLayout()
        ca_row.addWidget(self.ca_edit, 1)
        ca_row.addWidget(self.ca_button)
        kind_row = QHBoxLayout()
        kind_row.addWidget(self.kind_label, 1)
        kind_row.addWidget(self.test_button)
        self.form = QFormLayout()
        self.form.addRow(self.tr("Name:"), self.name_edit)
        self.form.addRow(self.tr("URL:"), self.url_edit)
        self.form.addRow(self.tr("API key:"), self.key_edit)
        self.form.addRow(self.tr("CA file:"), ca_row)
        self.form.addRow(self.tr("Context size:"), self.window_spin)
        self.form.addRow(self.tr("Kind:"), kind_row)
        default_row = QFormLayout()
        default_row.addRow(self.tr("New chats use:"), self.default_combo)
        layout = QVBoxLayout(self)
        layout.addWidget(self.list)
        layout.addLayout(buttons)
        layout.addLayout(self.form)
        layout.addLayout(default_row)

        self.add_button.clicked.connect(self.add)
        self.remove_button.clicked.connect(self.remove)
        self.list.currentRowChanged.connect(self._show)
        for edit in (self.name_edit, self.url_edit, self.key_edit, self.ca_edit):
            edit.textEdited.connect(self._edited)
        self.window_spin.valueChanged.connect(self._edited)
        self.ca_button.clicked.connect(self._browse)
        self.test_button.clicked.connect(self.test)
        self.default_combo.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self._refill(default)

    # ------------------------------------------------------------------ rows
    def _refill(self, default: str | None = None, select: int | None = None) -> None:
        chosen = default if default is not None else self.default_connection()
        self._loading = True
        self.list.clear()
        for row in self._rows:
            kind = KIND_LABELS[row.kind] if row.kind else self.tr(UNKNOWN_KIND)
            self.list.addItem(f"{row.name} — {row.url} ({kind})")
        self.default_combo.clear()
        self.default_combo.addItem(LOCAL_OLLAMA_NAME, None)
        for row in self._rows:
            self.default_combo.addItem(row.name, row.id)
        index = self.default_combo.findData(chosen)
        self.default_combo.setCurrentIndex(max(0, index))
        self._loading = False
        if self._rows:
            self.list.setCurrentRow(len(self._rows) - 1 if select is None else select)
        self._show(self.list.currentRow())

    def _show(self, row: int) -> None:
        has = 0 <= row < len(self._rows)
        for widget in (self.name_edit, self.url_edit, self.key_edit, self.ca_edit,
                       self.ca_button, self.window_spin, self.remove_button):
            widget.setEnabled(has)
        self.test_button.setEnabled(has and self._tester is not None)
        if not has:
            self.kind_label.setText(self.tr("Add a server to chat with it."))
            return
        connection = self._rows[row]
        self._loading = True
        self.name_edit.setText(connection.name)
        self.url_edit.setText(connection.url)
        self.key_edit.setText(self._keys.get(connection.id, ""))
        self.key_edit.setPlaceholderText(self.tr("Kept in the system keyring")
                                         if connection.has_key else self.tr("None"))
        self.ca_edit.setText(connection.ca_file or "")
        self.window_spin.setValue(connection.window or 0)
        self.kind_label.setText(KIND_LABELS[connection.kind] if connection.kind
                                else self.tr(UNKNOWN_KIND))
        self._loading = False

    def add(self) -> None:
        taken = {c.id for c in self._rows}
        name = self.tr("Server {0}").format(len(self._rows) + 1)
        self._rows.append(Connection(id=new_id(name, taken), name=name, url=""))
        self._refill(select=len(self._rows) - 1)
        self.url_edit.setFocus()
        self.changed.emit()

    def remove(self) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self._rows):
            removed = self._rows.pop(row)
            self._keys.pop(removed.id, None)
            self._refill()
            self.changed.emit()

    def _edited(self, *_args: object) -> None:
        row = self.list.currentRow()
        if self._loading or not 0 <= row < len(self._rows):
            return
        old = self._rows[row]
        url = self.url_edit.text().strip()
        key = self.key_edit.text().strip()
        if key:
            self._keys[old.id] = key
        else:
            self._keys.pop(old.id, None)
        moved = url != old.url or (self.ca_edit.text().strip() or None) != old.ca_file
        self._rows[row] = old.model_copy(update={
            "name": self.name_edit.text().strip() or old.name, "url": url,
            "ca_file": self.ca_edit.text().strip() or None,
            "window": self.window_spin.value() or None,
            "kind": None if moved else old.kind,  # another address: asked again
            "has_key": old.has_key or bool(key)})
        self.default_combo.setItemText(row + 1, self._rows[row].name)
        item = self.list.item(row)
        if item is not None:
            kind = self._rows[row].kind
            item.setText(f"{self._rows[row].name} — {url} "
                         f"({KIND_LABELS[kind] if kind else self.tr(UNKNOWN_KIND)})")
        self.changed.emit()

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("CA file"), self.ca_edit.text(),
                                              self.tr("Certificates (*.pem *.crt);;All (*)"))
        if path:
            self.ca_edit.setText(path)
            self._edited()

    # ------------------------------------------------------------------ test
    def test(self) -> asyncio.Task[Any] | None:
        """Ask the server what it is (the user pressed Test); the answer shows here."""
        row = self.list.currentRow()
        if self._tester is None or not 0 <= row < len(self._rows):
            return None
        connection = self._rows[row]
        self.kind_label.setText(self.tr("Asking {0}…").format(connection.url))
        task = self._tester(connection.url, self._keys.get(connection.id),
                            connection.ca_file)
        task.add_done_callback(lambda done: self._tested(connection.id, done))
        return task

    def _tested(self, connection_id: str, task: asyncio.Task[Any]) -> None:
        if task.cancelled():
            return
        answer = task.result()
        index = next((i for i, c in enumerate(self._rows) if c.id == connection_id), None)
        if index is None:
            return
        if isinstance(answer, BackendError):
            self.kind_label.setText(answer.message)
            return
        self._rows[index] = self._rows[index].model_copy(update={"kind": answer.kind})
        version = f" {answer.version}" if answer.version else ""
        self._refill(select=index)
        self.kind_label.setText(self.tr("{0}{1}: it answers.").format(KIND_LABELS[answer.kind],
                                                                       version))
        self.changed.emit()

    # ---------------------------------------------------------------- values
    def connections(self) -> list[Connection]:
        return list(self._rows)

    def default_connection(self) -> str | None:
        data = self.default_combo.currentData()
        return data if isinstance(data, str) else None

    def keys(self) -> dict[str, str]:
        """The API keys typed here, by connection id: the keyring keeps them on OK."""
        return {k: v for k, v in self._keys.items() if any(c.id == k for c in self._rows)}

    def problems(self) -> list[str]:
        found = []
        for row in self._rows:
            if not row.url:
                found.append(self.tr("{0}: enter the server's URL, e.g. "
                                     "http://127.0.0.1:8080/v1.").format(row.name))
            elif host_problem(row.url):
                found.append(self.tr("{0}: {1}.").format(row.name, host_problem(row.url)))
            if row.kind == "generic" and not row.window:
                found.append(self.tr("{0}: this server cannot say its context size; enter "
                                     "it.").format(row.name))
        return found
