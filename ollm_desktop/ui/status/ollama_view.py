"""The model selector and the server banner, kept in step with the server's status (Ollama's
or another server's: what it cannot do, pull or start, is not offered)."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QComboBox, QWidget

from ollm_desktop.backend.models import ModelInfo
from ollm_desktop.controller import ChatController, OllamaStatus
from ollm_desktop.ui.status.ollama_banner import OllamaBanner

# Problems a second try can solve; Retry is then a button, never "Retry?" in the text.
RETRYABLE = frozenset({"unauthorized", "stream_cut", "timeout", "unreachable", "http"})


class OllamaView(QObject):
    def __init__(self, controller: ChatController, banner: OllamaBanner, selector: QComboBox,
                 parent: QWidget) -> None:
        super().__init__(parent)
        self.controller, self.banner, self.selector = controller, banner, selector
        self._status = OllamaStatus(reachable=False, host=controller.host)
        selector.activated.connect(self._model_chosen)
        controller.ollamaStatus.connect(self._status_changed)
        controller.modelsChanged.connect(self._models_changed)

    def _status_changed(self, status: OllamaStatus) -> None:
        self._status = status
        if not status.reachable and status.error and status.error_kind not in (
                None, "unreachable", "timeout"):
            self.banner.show_error(status.error, retry=True)  # a refused key, a wrong API
        elif not status.reachable:
            self.banner.show_unreachable(status.host, status.can_start, status.server)
        elif status.model_missing and self.controller.model:
            self.banner.show_model_missing(self.controller.model, status.can_pull,
                                           status.server)
        else:
            self.banner.hide_banner()

    def _models_changed(self, models: tuple[ModelInfo, ...]) -> None:
        names = [m.name for m in models]
        current = self.controller.model
        selector = self.selector
        selector.blockSignals(True)
        selector.clear()
        selector.addItems(names)
        if current and current not in names:
            selector.addItem(self.tr("{0} (not installed)").format(current), current)
        if current:
            index = selector.findText(current)
            if index < 0:
                index = selector.findData(current)
            selector.setCurrentIndex(index)
        selector.blockSignals(False)

    def _model_chosen(self, index: int) -> None:
        name = self.selector.itemData(index) or self.selector.itemText(index)
        self.controller.set_model(name)
        if self._status.reachable and name in self._status.models:
            self.banner.hide_banner()

    def show_error(self, kind: str, text: str) -> None:
        status = self._status
        if kind == "model_not_found" and self.controller.model:
            self.banner.show_model_missing(self.controller.model, status.can_pull,
                                           status.server)
        elif kind == "unreachable":
            self.banner.show_unreachable(self.controller.host,
                                         self.controller.can_start_ollama(), status.server)
        else:
            self.banner.show_error(text, retry=kind in RETRYABLE)
