"""The first-run screen (``firstRunScreen``): what a new user needs before the first message.

It says whether the server answers (with Retry), lists the installed models, offers to
download a recommended small model when there is none (through the server's pull, with a
progress bar and Cancel), explains the context size in one sentence, and suggests first
prompts. It stands where the conversation will be, with the message input below it, and goes
away with the first message (or "Start chatting").
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.backend.models import ModelInfo
from ollm_desktop.controller import OllamaStatus, PullProgress
from ollm_desktop.ui.text.model_details import tooltip
from ollm_desktop.ui.text.model_rows import MODEL_ROLE, ModelRowDelegate
from ollm_desktop.ui.text.suggested_prompts import SUGGESTED_PROMPTS
from ollm_desktop.ui.theme import SPACE, TYPE, icon

# Small enough for most laptops (about 0.8 GB, 32K context), good enough to summarise.
RECOMMENDED_MODEL = "gemma3:1b"
RECOMMENDED_SIZE = "about 800 MB"
CONTEXT_SENTENCE = (
    "A model reads only a limited part of a chat at a time (its context size); when a chat "
    "grows longer, ollm-desktop summarises the oldest messages for it, so you can keep going "
    "and still see every message you wrote.")


def _megabytes(size: int | None) -> str:
    if not size:
        return ""
    return f"{size / 1e9:.1f} GB" if size >= 1e9 else f"{size / 1e6:.0f} MB"


class FirstRunScreen(QFrame):
    """The welcome page; the window's feature module feeds it the server's state."""

    pullRequested = Signal(str)  # a model name
    cancelRequested = Signal()
    retryRequested = Signal()
    promptChosen = Signal(str)  # a suggested prompt, for the input
    dismissed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("firstRunScreen")
        self.setAccessibleName(self.tr("Welcome"))
        self.pulling: str | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(SPACE.xxl, SPACE.xl, SPACE.xxl, SPACE.l)
        layout.setSpacing(SPACE.m)
        title = QLabel(self.tr("Welcome to ollm-desktop"))
        font = QFont(title.font())
        font.setPointSizeF(TYPE.points(font.pointSizeF(), "title"))
        font.setWeight(QFont.Weight.DemiBold)
        title.setFont(font)
        layout.addWidget(title)
        server_row = QHBoxLayout()
        self.server_label = QLabel(self.tr("Looking for the model server…"))
        self.server_label.setObjectName("firstRunServer")
        self.server_label.setWordWrap(True)
        self.retry_button = QPushButton(self.tr("Retry"))
        self.retry_button.setObjectName("firstRunRetry")
        self.retry_button.clicked.connect(self.retryRequested)
        self.retry_button.hide()
        server_row.addWidget(self.server_label, 1)
        server_row.addWidget(self.retry_button)
        layout.addLayout(server_row)
        self.models_list = QListWidget()
        self.models_list.setObjectName("firstRunModels")
        self.models_list.setAccessibleName(self.tr("Installed models"))
        self.models_list.setItemDelegate(ModelRowDelegate(self.models_list))
        self.models_list.hide()
        layout.addWidget(self.models_list)
        self._build_pull(layout)
        context = QLabel(self.tr(CONTEXT_SENTENCE))
        context.setObjectName("firstRunContext")
        context.setWordWrap(True)
        layout.addWidget(context)
        layout.addWidget(QLabel(self.tr("Try one of these to start:")))
        self.prompt_buttons = []
        for prompt in SUGGESTED_PROMPTS:
            button = QPushButton(self.tr(prompt))
            button.setObjectName("firstRunPrompt")
            button.setStyleSheet("text-align: left;")
            button.clicked.connect(lambda _=False, p=prompt: self.promptChosen.emit(p))
            self.prompt_buttons.append(button)
            layout.addWidget(button)
        start = QPushButton(self.tr("Start chatting"))
        start.setObjectName("firstRunStart")
        start.clicked.connect(self.dismissed)
        end = QHBoxLayout()
        end.addStretch(1)
        end.addWidget(start)
        layout.addLayout(end)
        layout.addStretch(1)

    def _build_pull(self, layout: QVBoxLayout) -> None:
        self.pull_box = QFrame()
        box = QVBoxLayout(self.pull_box)
        box.setContentsMargins(0, 0, 0, 0)
        self.offer_label = QLabel(self.tr(
            "No model is installed yet. Download {0} ({1}), a small model that runs on most "
            "computers?").format(RECOMMENDED_MODEL, RECOMMENDED_SIZE))
        self.offer_label.setWordWrap(True)
        box.addWidget(self.offer_label)
        row = QHBoxLayout()
        self.pull_button = QPushButton(icon("download"), self.tr("Download {0}").format(
            RECOMMENDED_MODEL))
        self.pull_button.setObjectName("firstRunPullButton")
        self.pull_button.clicked.connect(lambda: self.pullRequested.emit(RECOMMENDED_MODEL))
        self.progress = QProgressBar()
        self.progress.setObjectName("firstRunPullProgress")
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.cancel_button = QPushButton(self.tr("Cancel"))
        self.cancel_button.setObjectName("firstRunCancel")
        self.cancel_button.clicked.connect(self.cancelRequested)
        self.cancel_button.hide()
        row.addWidget(self.pull_button)
        row.addWidget(self.progress, 1)
        row.addWidget(self.cancel_button)
        box.addLayout(row)
        self.pull_status = QLabel()
        self.pull_status.setObjectName("firstRunPullStatus")
        self.pull_status.setWordWrap(True)
        self.pull_status.hide()
        self.pull_box.hide()
        layout.addWidget(self.pull_box)
        layout.addWidget(self.pull_status)  # outside the box: "ready" stays once it hides

    # ------------------------------------------------------------------ state
    def set_status(self, status: OllamaStatus) -> None:
        if status.reachable:
            self.server_label.setText(self.tr("{0} is running at {1}.").format(
                status.server, status.host))
            self.retry_button.hide()
        else:
            self.server_label.setText(self.tr(
                "{0} is not reachable at {1}. Start it (for Ollama: run “ollama serve” in a "
                "terminal), then press Retry.").format(status.server, status.host))
            self.retry_button.show()
        self.pull_button.setEnabled(status.reachable and status.can_pull)
        if status.reachable and not status.can_pull:
            self.offer_label.setText(self.tr(
                "No model is loaded. {0} cannot download models from here: load one in {0}, "
                "then press Retry.").format(status.server))

    def set_models(self, models: tuple[ModelInfo, ...] | list[ModelInfo]) -> None:
        self.models_list.clear()
        for model in models:  # drawn as the model picker draws them (size, context, tags)
            item = QListWidgetItem(model.name)
            item.setData(MODEL_ROLE, model)
            item.setToolTip(tooltip(model))
            self.models_list.addItem(item)
        self.models_list.setVisible(bool(models))
        if models:  # as tall as its rows, up to four of them (then it scrolls)
            rows = sum(self.models_list.sizeHintForRow(i) for i in range(min(4, len(models))))
            self.models_list.setFixedHeight(rows + 2 * self.models_list.frameWidth() + 2)
        self.pull_box.setVisible(not models or self.pulling is not None)

    def pull_started(self, model: str) -> None:
        self.pulling = model
        self.pull_button.hide()
        self.progress.setRange(0, 0)  # busy until the first sizes arrive
        self.progress.show()
        self.cancel_button.show()
        self._say(self.tr("Starting the download of {0}…").format(model))

    def pull_progress(self, progress: PullProgress) -> None:
        if self.pulling is None:
            return
        if progress.total and progress.completed is not None:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * progress.completed / progress.total))
            self._say(self.tr("Downloading {0}: {1} of {2}").format(
                self.pulling, _megabytes(progress.completed) or "0 MB",
                _megabytes(progress.total)))
        elif progress.status == "success":
            self.progress.setRange(0, 1000)
            self.progress.setValue(1000)

    def pull_finished(self) -> None:
        model, self.pulling = self.pulling, None
        self._idle()
        self.pull_box.hide()
        self._say(self.tr("{0} is ready. Type a message below to start.").format(model))

    def pull_failed(self, text: str) -> None:
        self.pulling = None
        self._idle()
        self.pull_button.setText(self.tr("Try again"))
        self._say(self.tr("The download failed: {0}").format(text))

    def pull_cancelled(self) -> None:
        self.pulling = None
        self._idle()
        self._say(self.tr("Download cancelled. Nothing was installed."))

    def _idle(self) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        self.pull_button.show()

    def _say(self, text: str) -> None:
        self.pull_status.setText(text)
        self.pull_status.show()
