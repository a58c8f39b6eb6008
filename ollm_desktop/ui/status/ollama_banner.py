"""Banner above the conversation for server problems (Ollama's or another server's):
unreachable, model missing, other errors. Pulling and starting are offered only where the
server has them."""

from __future__ import annotations

import re
from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.ui.theme import status_color, tinted


def _human_bytes(n: int) -> str:
    value = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"


RETRY_QUESTION = re.compile(r"\s*Retry\?\s*$")
_CODE = re.compile(r"`([^`\n]+)`")


def inline_code_html(text: str) -> str:
    """Escaped text whose `backticks` read as code, never as raw backticks."""
    return _CODE.sub(lambda m: f"<code>{m.group(1)}</code>", escape(text))


class OllamaBanner(QFrame):
    retryRequested = Signal()
    startOllamaRequested = Signal()
    pullRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ollamaBanner")
        self.setAccessibleName(self.tr("Ollama status"))
        self.mode = "hidden"  # hidden | unreachable | model_missing | error
        self.model = ""
        outer = QVBoxLayout(self)
        outer.setContentsMargins(12, 8, 8, 8)
        outer.setSpacing(6)
        row = QHBoxLayout()
        row.setSpacing(8)
        self.icon_label = QLabel("⚠")
        font = self.icon_label.font()
        font.setPointSizeF(font.pointSizeF() * 1.4)
        self.icon_label.setFont(font)
        self.icon_label.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.message_label = QLabel()
        self.message_label.setObjectName("bannerMessage")
        self.message_label.setWordWrap(True)
        self.message_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.message_label.setTextFormat(Qt.TextFormat.RichText)
        self.message_label.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse)
        self.retry_button = QPushButton(self.tr("Retry"))
        self.retry_button.setObjectName("bannerRetryButton")
        self.retry_button.setAccessibleName(self.tr("Retry connecting to Ollama"))
        self.start_button = QPushButton(self.tr("Start Ollama"))
        self.start_button.setObjectName("bannerStartButton")
        self.start_button.setAccessibleName(self.tr("Start Ollama"))
        self.pull_button = QPushButton()
        self.pull_button.setObjectName("bannerPullButton")
        self.dismiss_button = QToolButton()
        self.dismiss_button.setObjectName("bannerDismissButton")
        self.dismiss_button.setText("✕")
        self.dismiss_button.setAutoRaise(True)
        self.dismiss_button.setToolTip(self.tr("Dismiss"))
        self.dismiss_button.setAccessibleName(self.tr("Dismiss"))
        row.addWidget(self.icon_label, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.message_label, 1, Qt.AlignmentFlag.AlignTop)
        for button in (self.pull_button, self.start_button, self.retry_button):
            row.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.dismiss_button, 0, Qt.AlignmentFlag.AlignTop)
        outer.addLayout(row)
        progress_row = QHBoxLayout()
        self.pull_status = QLabel()
        self.pull_status.setObjectName("bannerPullStatus")
        self.pull_bar = QProgressBar()
        self.pull_bar.setObjectName("bannerPullProgress")
        self.pull_bar.setAccessibleName(self.tr("Download progress"))
        self.pull_bar.setMaximumHeight(14)
        progress_row.addWidget(self.pull_status)
        progress_row.addWidget(self.pull_bar, 1)
        outer.addLayout(progress_row)

        self.retry_button.clicked.connect(self.retryRequested)
        self.start_button.clicked.connect(self.startOllamaRequested)
        self.pull_button.clicked.connect(self._pull_clicked)
        self.dismiss_button.clicked.connect(self.hide_banner)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self._style("warn")
        self.hide_banner()

    # ------------------------------------------------------------------ modes
    def hide_banner(self) -> None:
        self.mode = "hidden"
        self.hide()

    def show_unreachable(self, host: str, can_start: bool, server: str = "Ollama") -> None:
        self._reset("unreachable", "over")
        hint = (escape(self.tr("Run {0} in a terminal or open the Ollama app, then press "
                               "Retry.")).format("<code>ollama serve</code>")
                if server == "Ollama" else
                escape(self.tr("Check the address in Preferences and that the server runs, "
                               "then press Retry.")))
        self.message_label.setText("<b>{}</b><br>{}".format(
            escape(self.tr("{0} is not reachable at {1}.").format(server, host)), hint))
        self.retry_button.show()
        self.start_button.setVisible(can_start)
        self.start_button.setEnabled(True)
        self.show()

    def show_model_missing(self, model: str, can_pull: bool = True,
                           server: str = "Ollama") -> None:
        self._reset("model_missing", "warn")
        self.model = model
        if not can_pull:  # a server that cannot download: choose one it serves
            self.message_label.setText("<b>{}</b><br>{}".format(
                escape(self.tr("{0} does not serve the model {1}.").format(server, model)),
                escape(self.tr("Choose one of its models in the model list."))))
            self.show()
            return
        self.message_label.setText("<b>{}</b><br>{}".format(
            escape(self.tr("The model {0} is not installed.").format(model)),
            escape(self.tr("Download it with Ollama (this can take a while), or choose "
                           "another model."))))
        self.pull_button.setText(self.tr("Pull {0}").format(model))
        self.pull_button.setAccessibleName(self.tr("Pull {0}").format(model))
        self.pull_button.setEnabled(True)
        self.pull_button.show()
        self.show()

    def show_error(self, text: str, retry: bool = False) -> None:
        self._reset("error", "over")
        if retry:  # the button asks it: "… complete. Retry?" would ask twice
            text = RETRY_QUESTION.sub("", text)
        self.message_label.setText(inline_code_html(text))
        self.retry_button.setVisible(retry)
        self.show()

    def set_pull_progress(self, status: str, completed: int | None, total: int | None) -> None:
        """Fed by /api/pull lines; "success" completes the bar."""
        self.pull_status.show()
        self.pull_bar.show()
        self.pull_button.setEnabled(False)
        if status == "success":
            self.pull_bar.setRange(0, 100)
            self.pull_bar.setValue(100)
            self.pull_status.setText(self.tr("Downloaded {0}.").format(self.model or ""))
            return
        if total:
            self.pull_bar.setRange(0, 1000)
            self.pull_bar.setValue(round(1000 * min(completed or 0, total) / total))
            self.pull_status.setText(f"{status} · {_human_bytes(completed or 0)} / "
                                     f"{_human_bytes(total)}")
        else:
            self.pull_bar.setRange(0, 0)  # busy indicator until sizes are known
            self.pull_status.setText(status)

    # --------------------------------------------------------------- helpers
    def _pull_clicked(self) -> None:
        if self.model:
            self.pull_button.setEnabled(False)
            self.set_pull_progress(self.tr("Starting download…"), None, None)
            self.pullRequested.emit(self.model)

    def _reset(self, mode: str, level: str) -> None:
        self.mode = mode
        self._style(level)
        for widget in (self.retry_button, self.start_button, self.pull_button,
                       self.pull_status, self.pull_bar):
            widget.hide()
        self.pull_bar.setRange(0, 100)
        self.pull_bar.setValue(0)
        self.pull_status.clear()
        self.icon_label.setText("⚠")

    def _style(self, level: str) -> None:
        self.setStyleSheet(
            f"#ollamaBanner {{ background-color: {tinted(level)};"
            f" border: 1px solid {status_color(level).name()}; border-radius: 6px; }}")
