"""Menu actions that ask the user first (a dialog, a file chooser), then call the controller.

Each opens its dialog only because the user chose the action; none runs on its own while
async work streams.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pydantic
import PySide6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QFileDialog,
    QInputDialog,
    QMainWindow,
    QMessageBox,
    QWidget,
)

from ollm_desktop import __version__
from ollm_desktop.controller import ChatController
from ollm_desktop.paths import AppPaths
from ollm_desktop.storage import set_aside
from ollm_desktop.storage.models import ChatRecord, StartupNotice
from ollm_desktop.storage.schema import StorageError
from ollm_desktop.ui.dialogs import short_dialogs as dialogs
from ollm_desktop.ui.preferences import installed_models
from ollm_desktop.ui.preferences.dialog import PreferencesDialog
from ollm_desktop.ui.side_panel.snapshot_browser import SnapshotBrowser
from ollm_desktop.ui.theme import apply_theme

START_OLLAMA_TEXT = ("Start Ollama automatically whenever ollm-desktop opens and it is not "
                     "running? (It is stopped again when you quit. You can change this in "
                     "Preferences.)")
APPLY_SIZE_TEXT = ("Apply the new context size to the open chat now? (The model reloads; "
                   "otherwise it applies to new chats.)")


def confirm(parent: QWidget, title: str, text: str) -> bool:
    return QMessageBox.question(parent, title, text) == QMessageBox.StandardButton.Yes


def preferences(parent: QWidget, controller: ChatController, models: list[str]) -> None:
    current = controller.settings
    chat = controller.chat
    origin = controller.context_origin(chat.id) if chat is not None else ""
    dialog = PreferencesDialog(current, models, parent, controller.snapshot, origin,
                               tester=controller.test_connection,
                               tool_tester=controller.test_tool_server)
    installed_models.add_to(dialog, controller)  # download and delete models there
    if not dialog.exec():
        return
    new = dialog.result_settings()
    for connection_id, key in dialog.api_keys().items():  # to the keyring, never settings.json
        if not controller.set_api_key(connection_id, key):
            new.connections = [c.model_copy(update={"has_key": False}) if c.id == connection_id
                               else c for c in new.connections]
    for name, (typed, kept) in dialog.tool_servers_box.secrets().items():  # to the keyring too
        if any(typed.values()) or any(kept.values()):
            problem = controller.save_tool_server_secrets(name, typed, kept)
            if problem:
                controller.error.emit("tools", problem)
    app = QApplication.instance()
    if new.theme != current.theme and isinstance(app, QApplication):
        apply_theme(app, new.theme)
    if new.context_size != current.context_size:
        apply_now = controller.chat is not None and confirm(
            parent, parent.tr("Context size"), parent.tr(APPLY_SIZE_TEXT))
        controller.set_context_size(new.context_size, apply_now=apply_now)
        if apply_now and chat is not None:
            controller.remember_context_origin(chat.id, f"preferences:{new.context_size}")
    controller.apply_settings(new)


def start_ollama(parent: QWidget, controller: ChatController) -> None:
    """Start Ollama; the first time, ask whether to do so on every start (remembered)."""
    remember = None
    if controller.settings.start_ollama == "ask":
        remember = confirm(parent, parent.tr("Start Ollama"), parent.tr(START_OLLAMA_TEXT))
    controller.start_ollama(remember)


def ask_export_path(parent: QWidget, controller: ChatController, kind: str) -> Path | None:
    """Where to export the open chat as Markdown or JSON (None: no chat, or cancelled)."""
    chat = controller.chat
    if chat is None:
        return None
    suffix, caption = ((".json", parent.tr("Export as JSON")) if kind == "json"
                       else (".md", parent.tr("Export as Markdown")))
    name = chat.title.replace("/", "-")[:60] or "chat"
    path, _ = QFileDialog.getSaveFileName(parent, caption, str(Path.home() / f"{name}{suffix}"))
    return Path(path) if path else None


def export_in_background(parent: QWidget, controller: ChatController, kind: str,
                         show_error: Callable[[str, str], None],
                         status: Callable[[str], None]) -> None:
    """Ask where (before any async work starts), then render and write on a thread; say
    how it went when it has."""
    path = ask_export_path(parent, controller, kind)
    if path is None:
        return

    def done(task: asyncio.Task[Any]) -> None:
        if task.cancelled():
            return
        if isinstance(exc := task.exception(), OSError):
            show_error("export", parent.tr("Could not write the file: {0}").format(exc))
        elif exc is None:
            status(parent.tr("Saved {0}").format(path))

    controller.export_in_background(path, kind).add_done_callback(done)


def import_chat(parent: QWidget, controller: ChatController) -> None:
    path, _ = QFileDialog.getOpenFileName(parent, parent.tr("Import chat"), str(Path.home()),
                                          parent.tr("Chat exports (*.json)"))
    if path:
        controller.import_json(Path(path))


def compact_now(parent: QWidget, controller: ChatController) -> None:
    focus = dialogs.ask_compact_focus(parent)
    if focus is not None:
        controller.compact(focus)


def snapshot_browser(parent: QWidget, controller: ChatController,
                     browser: SnapshotBrowser | None) -> SnapshotBrowser:
    """Snapshots… as a window of its own: made once, then refreshed and brought forward."""
    if browser is None:
        browser = SnapshotBrowser(controller, parent)
        browser.restoreRequested.connect(controller.restore_snapshot)
        browser.deleteRequested.connect(controller.delete_snapshot)
        browser.createRequested.connect(controller.create_snapshot)
    browser.refresh()
    browser.show()
    browser.raise_()
    return browser


def create_snapshot(parent: QWidget, controller: ChatController) -> None:
    label = dialogs.ask_snapshot_label(parent)
    if label is not None:
        controller.create_snapshot(label)


def about(parent: QWidget, paths: AppPaths) -> None:
    versions = {"ollm-desktop": __version__, "PySide6": PySide6.__version__,
                "pydantic": pydantic.VERSION}
    folders = {parent.tr("Data"): str(paths.data_dir), parent.tr("Config"): str(paths.config_dir),
               parent.tr("Logs"): str(paths.log_dir)}
    dialogs.show_about(parent, versions, folders)


def show_notices(window: QMainWindow, notices: list[StartupNotice]) -> list[QMessageBox]:
    """Startup notices: information in the status bar, warnings in a modeless box (the window
    stays usable while it is up; nothing waits for it)."""
    boxes = []
    for notice in notices:
        if notice.level == "info":
            window.statusBar().showMessage(notice.text, 10000)
            continue
        text = notice.text
        if notice.backup_path and notice.backup_path not in text:
            text += f"\n\n{window.tr('Backup:')} {notice.backup_path}"
        if notice.backup_path:
            text += "\n\n" + window.tr("File ▸ Recover chats from a damaged database… shows "
                                        "what it still holds.")
        box = QMessageBox(QMessageBox.Icon.Warning, "ollm-desktop", text,
                          QMessageBox.StandardButton.Ok, window)
        box.setObjectName("startupNotice")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setWindowModality(Qt.WindowModality.NonModal)
        box.show()
        boxes.append(box)
    return boxes


def has_set_aside(paths: AppPaths) -> bool:
    """Whether File ▸ Open set-aside database has a file to open (enables the action)."""
    return set_aside.has_set_aside(paths)


def open_set_aside(window: QMainWindow, controller: ChatController,
                   paths: AppPaths) -> list[ChatRecord]:
    """File ▸ Open set-aside database: pick a set-aside file, see the chats it still holds,
    import the ticked ones as new chats. Returns the chats imported."""
    from ollm_desktop.ui.dialogs.set_aside_dialog import SetAsideDialog

    files = set_aside.files(paths)
    if not files:
        window.statusBar().showMessage(
            window.tr("No damaged database was kept in {0}.").format(paths.backup_dir), 8000)
        return []
    path: Path | None = files[0]
    if len(files) > 1:
        path = _choose_set_aside(window, files)
    if path is None:
        return []
    problem = None
    chats: list[set_aside.ReadableChat] = []
    QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        chats = set_aside.readable_chats(path)
    except (StorageError, OSError) as exc:
        problem = str(exc)
    finally:
        QApplication.restoreOverrideCursor()
    present = {chat.id for chat in controller.list_chats()}
    dialog = SetAsideDialog(path, chats, present, problem, window)
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return []
        chosen = dialog.selected()
    finally:
        dialog.deleteLater()
    imported = []
    with tempfile.TemporaryDirectory(prefix="ollm-import-") as folder:
        for document in set_aside.export_for_import(chosen, Path(folder)):
            chat = controller.import_json(document)
            if chat is not None:
                imported.append(chat)
    window.statusBar().showMessage(
        window.tr("Imported {0} chat(s) from {1}.").format(len(imported), path.name), 10000)
    return imported


def _choose_set_aside(window: QMainWindow, files: list[Path]) -> Path | None:
    labels = []
    for path in files:
        when = datetime.fromtimestamp(path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
        labels.append(f"{path.name} ({when})")
    label, ok = QInputDialog.getItem(window, window.tr("Recover chats from a damaged database"),
                                     window.tr("Damaged database kept aside:"), labels, 0, False)
    return files[labels.index(label)] if ok and label in labels else None
