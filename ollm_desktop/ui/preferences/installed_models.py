"""Preferences ▸ Models and servers ▸ Installed models (``installedModels``): the server's
models with their size, context and capabilities; download one by name (progress, Cancel)
and delete one (confirmed inline, never by a modal box: a download may be running).

Both run as the controller's tasks (``pull_model``, ``delete_model``); a download goes on
when Preferences closes, and the status bar says when it is ready.
"""

from __future__ import annotations

import asyncio
from typing import Any

import shiboken6
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.backend.models import ModelInfo
from ollm_desktop.controller import ChatController, OllamaStatus, PullProgress
from ollm_desktop.ui.text.model_details import size_text, tooltip
from ollm_desktop.ui.text.model_rows import MODEL_ROLE, ModelRowDelegate
from ollm_desktop.ui.theme import SPACE

CANNOT_DELETE = "{0} cannot delete models from here: remove them on the server itself."
CANNOT_PULL = "{0} cannot download models from here: add them on the server itself."


class InstalledModelsBox(QGroupBox):
    def __init__(self, controller: ChatController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Installed models"))
        self.setObjectName("installedModels")
        self.controller = controller
        self.status = controller.server_status or OllamaStatus(reachable=False,
                                                               host=controller.host)
        self.pull_task: asyncio.Task[Any] | None = None
        self.delete_task: asyncio.Task[Any] | None = None
        self.pulling: str | None = None

        self.list = QListWidget()
        self.list.setObjectName("installedModelsList")
        self.list.setAccessibleName(self.tr("Installed models"))
        self.list.setItemDelegate(ModelRowDelegate(self.list))
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setMinimumHeight(160)
        self.delete_button = QPushButton(self.tr("Delete…"))
        self.delete_button.setObjectName("deleteModelButton")
        # The inline confirmation: a row under the list, never a modal box.
        self.confirm_row = QFrame()
        self.confirm_row.setObjectName("deleteModelConfirm")
        self.confirm_text = QLabel()
        self.confirm_text.setWordWrap(True)
        self.confirm_button = QPushButton(self.tr("Delete"))
        self.confirm_button.setObjectName("confirmDeleteModelButton")
        self.keep_button = QPushButton(self.tr("Keep it"))
        self.keep_button.setObjectName("keepModelButton")
        confirm = QHBoxLayout(self.confirm_row)
        confirm.setContentsMargins(0, 0, 0, 0)
        confirm.addWidget(self.confirm_text, 1)
        confirm.addWidget(self.keep_button)
        confirm.addWidget(self.confirm_button)
        self.confirm_row.hide()

        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("pullModelEdit")
        self.name_edit.setPlaceholderText(self.tr("A model's name, e.g. gemma3:1b"))
        self.name_edit.setAccessibleName(self.tr("Model to download"))
        self.pull_button = QPushButton(self.tr("Download"))
        self.pull_button.setObjectName("pullModelButton")
        self.progress = QProgressBar()
        self.progress.setObjectName("pullModelProgress")
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(8)
        self.progress_text = QLabel()
        self.progress_text.setObjectName("pullModelStatus")
        self.progress_text.setWordWrap(True)
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setObjectName("cancelPullButton")
        self.note = QLabel()  # what went wrong, or why an action is unavailable
        self.note.setObjectName("installedModelsNote")
        self.note.setWordWrap(True)

        column = QVBoxLayout(self)
        column.setSpacing(SPACE.s)
        column.addWidget(self.list)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.delete_button)
        column.addLayout(row)
        column.addWidget(self.confirm_row)
        pull = QHBoxLayout()
        pull.addWidget(self.name_edit, 1)
        pull.addWidget(self.pull_button)
        column.addLayout(pull)
        progress = QHBoxLayout()
        progress.addWidget(self.progress, 1)
        progress.addWidget(self.cancel_button)
        column.addLayout(progress)
        column.addWidget(self.progress_text)
        column.addWidget(self.note)

        self.list.itemSelectionChanged.connect(self._changed)
        ask = QAction(self.tr("Delete…"), self.list)  # the Delete key asks too
        ask.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        ask.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        ask.triggered.connect(self.ask_delete)
        self.list.addAction(ask)
        self.name_edit.textChanged.connect(lambda _text: self.update_actions())
        self.name_edit.installEventFilter(self)  # Enter downloads (and keeps the dialog)
        self.delete_button.clicked.connect(self.ask_delete)
        self.keep_button.clicked.connect(self.keep)
        self.confirm_button.clicked.connect(self.delete)
        self.pull_button.clicked.connect(self.pull)
        self.cancel_button.clicked.connect(self.cancel_pull)
        controller.modelsChanged.connect(self.set_models)
        controller.pullProgress.connect(self.pull_progress)
        controller.ollamaStatus.connect(self.set_status)
        controller.error.connect(self._error)
        self.set_models(tuple(controller.models))
        self._show_progress(False)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Enter in the name field downloads it; it never reaches the dialog's OK."""
        if watched is self.name_edit and isinstance(event, QKeyEvent) and \
                event.type() == QEvent.Type.KeyPress and \
                event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.pull()
            return True
        return super().eventFilter(watched, event)

    # ---------------------------------------------------------------- state
    def set_status(self, status: OllamaStatus) -> None:
        self.status = status
        self.update_actions()

    def set_models(self, models: tuple[ModelInfo, ...]) -> None:
        chosen = self.selected()
        self.list.clear()
        for model in models:
            item = QListWidgetItem(model.name)
            item.setData(MODEL_ROLE, model)
            item.setToolTip(tooltip(model))
            self.list.addItem(item)
            if chosen is not None and model.name == chosen.name:
                self.list.setCurrentItem(item)
        empty = self.tr("No models yet: download one below.")
        if not models:
            self.note.setText(empty)
        elif self.note.text() == empty:
            self.note.clear()
        self._changed()

    def selected(self) -> ModelInfo | None:
        items = self.list.selectedItems()  # not the current item: it is set without a click
        value = items[0].data(MODEL_ROLE) if items else None
        return value if isinstance(value, ModelInfo) else None

    def _changed(self) -> None:
        self.keep()
        self.update_actions()

    def update_actions(self) -> None:
        """Each action enabled only with something to act on; its tooltip says why not."""
        server = self.status.server
        chosen = self.selected()
        busy_deleting = self.delete_task is not None
        if not self.status.can_delete:
            why = self.tr(CANNOT_DELETE).format(server)
        elif chosen is None:
            why = self.tr("Choose a model in the list first.")
        elif busy_deleting:
            why = self.tr("A model is being deleted.")
        else:
            why = ""
        self.delete_button.setEnabled(not why)
        self.delete_button.setToolTip(why or self.tr("Delete {0} from the server").format(
            chosen.name if chosen else ""))
        if not self.status.can_pull:
            why = self.tr(CANNOT_PULL).format(server)
        elif self.pulling is not None:
            why = self.tr("{0} is downloading.").format(self.pulling)
        elif not self.name_edit.text().strip():
            why = self.tr("Type the name of a model first.")
        else:
            why = ""
        self.pull_button.setEnabled(not why)
        self.pull_button.setToolTip(why or self.tr("Download it to the server"))

    # --------------------------------------------------------------- delete
    def ask_delete(self) -> None:
        chosen = self.selected()
        if chosen is None or not self.delete_button.isEnabled():
            return
        size = size_text(chosen.size)
        in_use = chosen.name == self.controller.model
        self.confirm_text.setText(
            self.tr("Delete {0}{1} from the server? Downloading it again takes time.").format(
                chosen.name, f" ({size})" if size else "")
            + (" " + self.tr("This chat uses it: choose another model for it afterwards.")
               if in_use else ""))
        self.confirm_row.show()
        self.keep_button.setFocus()  # the safe choice is the default one

    def keep(self) -> None:
        self.confirm_row.hide()

    def delete(self) -> None:
        chosen = self.selected()
        if chosen is None or self.delete_task is not None:
            return
        self.confirm_row.hide()
        self.note.setText(self.tr("Deleting {0}…").format(chosen.name))
        self.delete_task = self.controller.delete_model(chosen.name)
        self.delete_task.add_done_callback(lambda task: self._deleted(task, chosen.name))
        self.update_actions()

    def _deleted(self, task: asyncio.Task[Any], name: str) -> None:
        if not shiboken6.isValid(self):
            return
        self.delete_task = None
        if not task.cancelled() and task.exception() is None and task.result():
            self.note.setText(self.tr("{0} was deleted.").format(name))
        self.update_actions()

    # ----------------------------------------------------------------- pull
    def pull(self) -> None:
        name = self.name_edit.text().strip()
        if not name or not self.pull_button.isEnabled():
            return
        self.pulling = name
        self.note.clear()
        self.progress.setRange(0, 0)  # busy until the first sized line
        self.progress_text.setText(self.tr("Starting the download of {0}…").format(name))
        self._show_progress(True)
        self.pull_task = self.controller.pull_model(name)
        self.pull_task.add_done_callback(lambda task: self._pulled(task, name))
        self.update_actions()

    def pull_progress(self, progress: PullProgress) -> None:
        if self.pulling is None or (progress.model and progress.model != self.pulling):
            return
        if progress.total:
            self.progress.setRange(0, 1000)
            self.progress.setValue(round(1000 * (progress.completed or 0) / progress.total))
            self.progress_text.setText(self.tr("{0}: {1} of {2}").format(
                self.pulling, size_text(progress.completed) or "0 MB",
                size_text(progress.total)))
        else:
            self.progress_text.setText(f"{self.pulling}: {progress.status}")

    def cancel_pull(self) -> None:
        if self.pull_task is not None:
            self.pull_task.cancel()

    def _pulled(self, task: asyncio.Task[Any], name: str) -> None:
        if not shiboken6.isValid(self):
            return
        self.pull_task, self.pulling = None, None
        self._show_progress(False)
        if task.cancelled():
            self.note.setText(self.tr("The download of {0} was cancelled.").format(name))
        elif task.exception() is None and task.result():
            self.note.setText(self.tr("{0} is ready.").format(name))
            self.name_edit.clear()
        self.update_actions()

    def _error(self, kind: str, text: str) -> None:
        """A failed download or delete is said here, beside what the user did."""
        if self.pulling is not None or self.delete_task is not None:
            if kind == "model_not_found" and self.pulling is not None:
                text = self.tr("The server's library has no model named {0}.").format(
                    self.pulling)
            self.note.setText(text)

    def _show_progress(self, shown: bool) -> None:
        for widget in (self.progress, self.cancel_button, self.progress_text):
            widget.setVisible(shown)


def add_to(dialog: QWidget, controller: ChatController) -> InstalledModelsBox | None:
    """Put the box at the top of the Preferences' "models" page: what the server has first."""
    pages = getattr(dialog, "pages", None)
    if pages is None or "models" not in pages.names:
        return None
    scroll = pages.stack.widget(pages.names.index("models"))
    page = scroll.widget() if isinstance(scroll, QScrollArea) else None
    column = page.layout() if page is not None else None
    if not isinstance(column, QVBoxLayout):
        return None
    box = InstalledModelsBox(controller, page)
    column.insertWidget(0, box)
    controller.refresh_ollama()  # what the server has now (and can do)
    return box
