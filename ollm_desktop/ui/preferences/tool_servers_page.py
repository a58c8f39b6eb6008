"""Preferences ▸ Tools: the MCP servers the chats may use (``toolServersEditor``).

A list of servers with a form for the selected one: a local program (stdio: command,
arguments, folder, environment) or a remote server (Streamable HTTP, or SSE: address and
headers), and a switch that offers only the tools the server marks read-only. "Import" reads
the ``mcpServers`` files of Claude Desktop, Cursor, LM Studio and oterm where those apps keep
them on this system, or a file the user picks. "Test" starts the server on its own, lists its
tools and stops it, in a task: the window never waits.

Secrets: every value of the environment and the headers except a bare ``${VAR}`` reference is
a secret. Typed values are kept here until OK, then go to the keyring through the controller
(never to settings.json). Once entered (typed and the row left, or imported), a secret shows as
``PENDING`` and is never displayed again; one already in the keyring shows as ``KEPT`` and
stays there unless the user types a new one.
"""

from __future__ import annotations

import asyncio
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.backend.mcp_config import McpServer, found_files, load
from ollm_desktop.ui.preferences.server_list import add_remove_buttons, server_list

KEPT = "(kept in the keyring)"
PENDING = "(to the keyring on OK)"
_REFERENCE = re.compile(r"^\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}$")
TRANSPORTS = (("stdio", "Local program (stdio)"), ("http", "Streamable HTTP"), ("sse", "SSE"))
# typed secret values by server: {"env": {...}, "headers": {...}}
Typed = dict[str, dict[str, str]]
ToolTester = Callable[[McpServer, Typed, dict[str, list[str]]], "asyncio.Task[Any]"]


def _lines(values: dict[str, str], secret: list[str], separator: str) -> str:
    shown = [f"{k}{separator}{v}" for k, v in values.items()]
    shown += [f"{k}{separator}{KEPT}" for k in secret if k not in values]
    return "\n".join(shown)


def _parse(text: str, separator: str) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in text.splitlines():
        key, found, value = line.partition(separator)
        if found and key.strip():
            values[key.strip()] = value.strip()
    return values


class ToolServersBox(QGroupBox):
    changed = Signal()

    def __init__(self, servers: list[McpServer], tester: ToolTester | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Tool servers (MCP)"), parent)
        self.setObjectName("toolServersEditor")
        self._servers = list(servers)
        self._typed: dict[str, Typed] = {}  # by server name, until OK
        self._tester = tester
        self._loading = False
        self.list = server_list(self, "toolServerList", self.tr("Tool servers"))
        self.list.setMinimumHeight(110)
        self.add_button, self.remove_button = add_remove_buttons(
            self, "addToolServerButton", "removeToolServerButton")
        self.import_button = QToolButton()
        self.import_button.setObjectName("importToolServersButton")
        self.import_button.setText(self.tr("Import…"))
        self.import_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.import_menu = QMenu(self.import_button)
        self.import_menu.aboutToShow.connect(self.fill_import_menu)
        self.import_button.setMenu(self.import_menu)
        self.test_button = QPushButton(self.tr("Test: list its tools"))
        self.test_button.setObjectName("testToolServerButton")
        self.result = QLabel()
        self.result.setObjectName("toolServerTestResult")
        self.result.setWordWrap(True)
        self.result.setTextFormat(self.result.textFormat().PlainText)  # a server's text
        self.name_edit = QLineEdit()
        self.transport_combo = QComboBox()
        for value, text in TRANSPORTS:
            self.transport_combo.addItem(self.tr(text), value)
        self.command_edit = QLineEdit()
        self.command_edit.setPlaceholderText("npx")
        self.args_edit = QLineEdit()
        self.args_edit.setPlaceholderText("-y @modelcontextprotocol/server-filesystem ~/code")
        self.cwd_edit = QLineEdit()
        self.cwd_edit.setPlaceholderText(self.tr("The app's folder"))
        self.url_edit = QLineEdit()
        self.url_edit.setPlaceholderText("http://127.0.0.1:8000/mcp")
        self.env_edit = QPlainTextEdit()
        self.env_edit.setPlaceholderText("API_KEY=…   (one NAME=value a line; ${VAR} is read "
                                         "from your environment)")
        self.headers_edit = QPlainTextEdit()
        self.headers_edit.setPlaceholderText("Authorization: Bearer …")
        for edit in (self.env_edit, self.headers_edit):
            edit.setMaximumHeight(64)
        self.read_only_check = QCheckBox(self.tr("Only the tools it marks read-only"))
        for widget, name in ((self.name_edit, "toolServerName"),
                             (self.transport_combo, "toolServerTransport"),
                             (self.command_edit, "toolServerCommand"),
                             (self.args_edit, "toolServerArgs"),
                             (self.cwd_edit, "toolServerFolder"),
                             (self.url_edit, "toolServerUrl"),
                             (self.env_edit, "toolServerEnv"),
                             (self.headers_edit, "toolServerHeaders"),
                             (self.read_only_check, "toolServerReadOnly")):
            widget.setObjectName(name)
        buttons = QHBoxLayout()
        for button in (self.add_button, self.remove_button, self.import_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.test_button)
        self.form = QFormLayout()
        self.form.addRow(self.tr("Name:"), self.name_edit)
        self.form.addRow(self.tr("Kind:"), self.transport_combo)
        self.form.addRow(self.tr("Command:"), self.command_edit)
        self.form.addRow(self.tr("Arguments:"), self.args_edit)
        self.form.addRow(self.tr("Folder:"), self.cwd_edit)
        self.form.addRow(self.tr("Environment:"), self.env_edit)
        self.form.addRow(self.tr("Address:"), self.url_edit)
        self.form.addRow(self.tr("Headers:"), self.headers_edit)
        self.form.addRow("", self.read_only_check)
        note = QLabel(self.tr("Values of the environment and headers are kept in the system "
                              "keyring, never in the settings file. Each chat picks its "
                              "servers with its Tools button; every call asks you first."))
        note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.list)
        layout.addLayout(buttons)
        layout.addWidget(self.result)
        layout.addLayout(self.form)
        layout.addWidget(note)
        self.add_button.clicked.connect(self.add)
        self.remove_button.clicked.connect(self.remove)
        self.test_button.clicked.connect(self.test)
        self.list.currentRowChanged.connect(self._show)
        for line in (self.name_edit, self.command_edit, self.args_edit, self.cwd_edit,
                     self.url_edit):
            line.textEdited.connect(self._edited)
        for box in (self.env_edit, self.headers_edit):
            box.textChanged.connect(self._edited)
        self.transport_combo.currentIndexChanged.connect(self._edited)
        self.read_only_check.toggled.connect(self._edited)
        self._fill_list()
        self.list.setCurrentRow(0 if self._servers else -1)
        self._show(self.list.currentRow())

    # ------------------------------------------------------------ list
    def servers(self) -> list[McpServer]:
        return list(self._servers)

    def secrets(self) -> dict[str, tuple[Typed, dict[str, list[str]]]]:
        """Per server: the values typed here, and the names whose keyring value stays."""
        return {s.name: (self._typed.get(s.name, {"env": {}, "headers": {}}),
                         {"env": list(s.secret_env), "headers": list(s.secret_headers)})
                for s in self._servers}

    def problems(self) -> list[str]:
        names = [s.name for s in self._servers]
        out = [self.tr("Tool servers: two are named {0}.").format(n)
               for n in sorted({n for n in names if names.count(n) > 1})]
        for s in self._servers:
            if s.transport == "stdio" and not s.command:
                out.append(self.tr("Tool server {0}: give the command to run.").format(s.name))
            if s.transport != "stdio" and not s.url.startswith(("http://", "https://")):
                out.append(self.tr("Tool server {0}: give an http:// or https:// address.")
                           .format(s.name))
        return out

    def _label(self, server: McpServer) -> str:
        kind = dict(TRANSPORTS)[server.transport]
        extra = self.tr(", read-only tools") if server.read_only else ""
        source = self.tr(", from {0}").format(Path(server.source).name) if server.source else ""
        return f"{server.name}  —  {server.where or '…'}  ({kind}{extra}{source})"

    def _fill_list(self) -> None:
        row = self.list.currentRow()
        self._loading = True
        self.list.clear()
        self.list.addItems([self._label(s) for s in self._servers])
        self.list.setCurrentRow(min(row, len(self._servers) - 1))
        self._loading = False

    def add(self, server: McpServer | None = None) -> None:
        taken = {s.name for s in self._servers}
        base = server.name if server else "server"
        name, n = base, 2
        while name in taken:
            name, n = f"{base} ({n})", n + 1
        fresh = (server or McpServer(name=name, command="")).model_copy(update={"name": name})
        self._servers.append(fresh)
        self._fill_list()
        self.list.setCurrentRow(len(self._servers) - 1)
        self.changed.emit()

    def remove(self) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self._servers):
            gone = self._servers.pop(row)
            self._typed.pop(gone.name, None)
            self._fill_list()
            self._show(self.list.currentRow())
            self.changed.emit()

    # ------------------------------------------------------------ form
    def _show(self, row: int) -> None:
        has = 0 <= row < len(self._servers)
        for i in range(self.form.rowCount()):
            for role in (QFormLayout.ItemRole.LabelRole, QFormLayout.ItemRole.FieldRole):
                item = self.form.itemAt(i, role)
                widget = item.widget() if item is not None else None
                if widget is not None:
                    widget.setEnabled(has)
        self.remove_button.setEnabled(has)
        self.test_button.setEnabled(has and self._tester is not None)
        if not has:
            return
        s = self._servers[row]
        typed = self._typed.get(s.name, {"env": {}, "headers": {}})
        self._loading = True
        self.name_edit.setText(s.name)
        self.transport_combo.setCurrentIndex(self.transport_combo.findData(s.transport))
        self.command_edit.setText(s.command)
        self.args_edit.setText(shlex.join(s.args))
        self.cwd_edit.setText(s.cwd or "")
        self.url_edit.setText(s.url)
        hidden = {part: dict.fromkeys(values, PENDING) for part, values in typed.items()}
        self.env_edit.setPlainText(_lines({**s.env, **hidden["env"]}, s.secret_env, "="))
        self.headers_edit.setPlainText(_lines({**s.headers, **hidden["headers"]},
                                              s.secret_headers, ": "))
        self.read_only_check.setChecked(s.read_only)
        self._loading = False
        self._show_kind()

    def _show_kind(self) -> None:
        stdio = self.transport_combo.currentData() == "stdio"
        for widget in (self.command_edit, self.args_edit, self.cwd_edit, self.env_edit):
            self.form.setRowVisible(widget, stdio)
        for widget in (self.url_edit, self.headers_edit):
            self.form.setRowVisible(widget, not stdio)

    def _edited(self, *_args: object) -> None:
        row = self.list.currentRow()
        if self._loading or not 0 <= row < len(self._servers):
            return
        self._show_kind()
        old = self._servers[row]
        try:
            args = shlex.split(self.args_edit.text())
        except ValueError:  # an open quote while typing: taken as words for now
            args = self.args_edit.text().split()
        env = _parse(self.env_edit.toPlainText(), "=")
        headers = _parse(self.headers_edit.toPlainText(), ":")
        name = self.name_edit.text().strip() or old.name
        before = self._typed.get(old.name, {"env": {}, "headers": {}})
        typed = {part: {k: before[part].get(k, "") if v == PENDING else v
                        for k, v in values.items() if v != KEPT and not _REFERENCE.match(v)}
                 for part, values in (("env", env), ("headers", headers))}
        self._typed.pop(old.name, None)
        self._typed[name] = typed
        self._servers[row] = McpServer(
            name=name, transport=self.transport_combo.currentData(),
            command=self.command_edit.text().strip(), args=args,
            cwd=self.cwd_edit.text().strip() or None, url=self.url_edit.text().strip(),
            env={k: v for k, v in env.items() if _REFERENCE.match(v)},
            headers={k: v for k, v in headers.items() if _REFERENCE.match(v)},
            secret_env=sorted(k for k in env if not _REFERENCE.match(env[k])),
            secret_headers=sorted(k for k in headers if not _REFERENCE.match(headers[k])),
            enabled=old.enabled, read_only=self.read_only_check.isChecked(), source=old.source)
        item = self.list.item(row)
        if item is not None:
            item.setText(self._label(self._servers[row]))
        self.changed.emit()

    # ------------------------------------------------------------ import
    def fill_import_menu(self) -> None:
        self.import_menu.clear()
        for app, path in found_files():
            action = self.import_menu.addAction(self.tr("From {0} ({1})").format(app, path))
            action.triggered.connect(lambda _=False, p=path: self.import_file(p))
        if not self.import_menu.actions():
            none = self.import_menu.addAction(self.tr(
                "No Claude Desktop, Cursor, LM Studio or oterm file found"))
            none.setEnabled(False)
        self.import_menu.addSeparator()
        self.import_menu.addAction(self.tr("Choose a file…")).triggered.connect(self._pick)

    def _pick(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Import tool servers"),
                                              str(Path.home()),
                                              self.tr("MCP settings (*.json);;All files (*)"))
        if path:
            self.import_file(Path(path))

    def import_file(self, path: Path) -> int:
        """Add the file's servers (renamed when a name is taken); how many were added."""
        try:
            parsed = load(path)
        except ValueError as exc:
            self.result.setText(str(exc))
            return 0
        for server in parsed.servers:
            before = len(self._servers)
            self.add(server)
            added = self._servers[before]
            self._typed[added.name] = {part: dict(values) for part, values in
                                       parsed.secrets.get(server.name, {}).items()} or \
                {"env": {}, "headers": {}}
        text = self.tr("Imported {0} server(s) from {1}.").format(len(parsed.servers), path)
        if parsed.problems:
            text += " " + self.tr("Left out: ") + "; ".join(parsed.problems)
        self.result.setText(text)
        self._show(self.list.currentRow())
        return len(parsed.servers)

    # ------------------------------------------------------------ test
    def test(self) -> None:
        row = self.list.currentRow()
        if self._tester is None or not 0 <= row < len(self._servers):
            return
        server = self._servers[row]
        typed = self._typed.get(server.name, {"env": {}, "headers": {}})
        kept = {"env": list(server.secret_env), "headers": list(server.secret_headers)}
        self.result.setText(self.tr("Starting {0}…").format(server.name))
        self.test_button.setEnabled(False)
        task = self._tester(server, typed, kept)
        task.add_done_callback(lambda done: self._tested(server.name, done))

    def _tested(self, name: str, done: asyncio.Task[Any]) -> None:
        self.test_button.setEnabled(True)
        if done.cancelled():
            return
        error = done.exception()
        if error is not None:
            self.result.setText(self.tr("{0} did not start: {1}").format(name, error))
            return
        tools = done.result()
        names = ", ".join(t.name + (" (read-only)" if t.read_only else "") for t in tools)
        self.result.setText(self.tr("{0} offers {1} tool(s): {2}").format(
            name, len(tools), names or self.tr("none")))
