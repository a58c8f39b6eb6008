"""Installs the first-run screen into the built window: shown where the conversation goes
while there is no chat yet, fed by the controller's server status, models and pull progress;
a pull runs as the controller's task (Cancel cancels it, which closes the download stream)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QBoxLayout

from ollm_desktop.backend.models import ModelInfo
from ollm_desktop.controller import OllamaStatus, PullProgress
from ollm_desktop.ui.first_run.screen import FirstRunScreen

if TYPE_CHECKING:
    from ollm_desktop.ui.first_run.host import FirstRunHost


class FirstRun:
    """The screen's wiring; ``content.first_run`` keeps it (tests reach the screen there)."""

    def __init__(self, content: FirstRunHost) -> None:
        self.content = content
        c = content.controller
        self.screen = FirstRunScreen()
        self.task: asyncio.Task[Any] | None = None
        view = content.conversation_view
        centre = view.parentWidget()
        column = centre.layout() if centre is not None else None
        assert isinstance(column, QBoxLayout)  # the centre column the view sits in
        self.screen.setMaximumWidth(760)  # a readable line length, centred
        column.insertWidget(column.indexOf(view), self.screen, 1, Qt.AlignmentFlag.AlignHCenter)
        self.screen.set_models(tuple(c.models))
        c.ollamaStatus.connect(self._status)
        c.modelsChanged.connect(self._models)
        c.pullProgress.connect(self._progress)
        c.error.connect(self._error)
        c.messageAdded.connect(lambda _message: self.dismiss())
        self.screen.pullRequested.connect(self.pull)
        self.screen.cancelRequested.connect(self.cancel)
        self.screen.retryRequested.connect(c.refresh_ollama)
        self.screen.promptChosen.connect(self._prompt)
        self.screen.dismissed.connect(self.dismiss)
        self._set_shown(not c.listed_chats())

    def _set_shown(self, shown: bool) -> None:
        self.screen.setVisible(shown)
        self.content.conversation_view.setVisible(not shown)

    def dismiss(self) -> None:
        if not self.screen.isHidden():
            self._set_shown(False)

    def _status(self, status: OllamaStatus) -> None:
        self.screen.set_status(status)
        if status.reachable:  # an unreachable server keeps its banner (Retry, Start)
            self._quiet_banner()

    def _quiet_banner(self) -> None:
        """The screen already says there is no model and shows its download: the banner's
        "model not installed" and its second progress bar would say it twice."""
        c = self.content
        if not self.screen.isHidden() and not c.controller.models:
            c.banner.hide_banner()

    def _models(self, models: tuple[ModelInfo, ...]) -> None:
        self.screen.set_models(models)

    def _progress(self, progress: PullProgress) -> None:
        self.screen.pull_progress(progress)
        if self.screen.pulling is not None:
            self._quiet_banner()

    def _error(self, kind: str, text: str) -> None:
        model = self.screen.pulling
        if model is None:
            return
        if kind == "model_not_found":  # the backend's "not installed. Pull it?" misleads here
            text = self.screen.tr("the server's library has no model named {0}.").format(model)
        self.screen.pull_failed(text)

    def pull(self, model: str) -> None:
        c = self.content.controller
        self.screen.pull_started(model)
        self.task = c.pull_model(model)
        self.task.add_done_callback(lambda task: self._pull_ended(task, model))

    def _pull_ended(self, task: asyncio.Task[Any], model: str) -> None:
        self.task = None
        if task.cancelled():
            self.screen.pull_cancelled()
        elif self.screen.pulling is not None:  # no error was reported: it arrived
            self.screen.pull_finished()
            c = self.content.controller
            if c.model not in [m.name for m in c.models]:  # none, or one not installed
                c.set_model(model)
                c.refresh_ollama()  # the "not installed" banner named the model before it

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()

    def _prompt(self, text: str) -> None:
        self.content.message_input.setPlainText(text)
        self.content.message_input.setFocus()


def install(content: FirstRunHost) -> FirstRun:
    return FirstRun(content)
