"""The open chat's own settings: system prompt, model parameters, context size, keep_alive.

Each field shows the chat's value, or its default and where that comes from (Preferences, or
Ollama and the model file). Blank / "Default" means the default. OK applies the settings to
the open chat at once (the context is figured again); while a reply streams or a compaction
runs they cannot be applied, and the dialog stays open saying so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pydantic import ValidationError
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.controller import ChatController, ContextSnapshot, Settings
from ollm_desktop.engine.models import CONTEXT_SIZE_MAX, CONTEXT_SIZE_MIN
from ollm_desktop.storage.models import ChatRecord, ChatSettings
from ollm_desktop.ui.theme import status_text_color

Apply = Callable[[ChatSettings, int | None], bool]
OLLAMA_DEFAULT = "Ollama's default (or the model file's)"
BUSY = "Wait for the reply or the compaction to finish, then press OK again."


class ContextSizeSpin(QSpinBox):
    """num_ctx: the arrows step between powers of two; below the smallest size is "Default"."""

    def stepBy(self, steps: int) -> None:
        value = self.value()
        for _ in range(abs(steps)):
            if steps > 0:
                value = CONTEXT_SIZE_MIN if value < CONTEXT_SIZE_MIN else 1 << value.bit_length()
            else:
                lower = 1 << ((value - 1).bit_length() - 1) if value > 1 else 0
                value = lower if lower >= CONTEXT_SIZE_MIN else self.minimum()
        self.setValue(min(value, self.maximum()))


def _spin(name: str, low: float, high: float, step: float, decimals: int,
          default_text: str) -> QDoubleSpinBox:
    """A spin box whose lowest value (one step below ``low``) stands for "Default"."""
    spin = QDoubleSpinBox()
    spin.setObjectName(name)
    spin.setDecimals(decimals)
    spin.setRange(low - step, high)
    spin.setSingleStep(step)
    spin.setSpecialValueText(default_text)
    spin.setValue(spin.minimum())
    return spin


def _int_spin(name: str, low: int, high: int, default_text: str) -> QSpinBox:
    spin = QSpinBox()
    spin.setObjectName(name)
    spin.setRange(low - 1, high)
    spin.setGroupSeparatorShown(True)
    spin.setSpecialValueText(default_text)
    spin.setValue(spin.minimum())
    return spin


class ChatSettingsDialog(QDialog):
    def reply_limit_text(self, snapshot: ContextSnapshot) -> str:
        """No own limit still has one: the reply stops when the context is full (the request
        asks the server not to shift the window), so say how much room that is now."""
        usage = snapshot.usage
        if usage is None:
            return self.tr("Default: until the context is full")
        room = max(0, usage.context_size - usage.total)
        return self.tr("Default: until the context is full (about {0} tokens now)").format(
            f"{room:,}")

    def __init__(self, chat: ChatRecord, defaults: Settings, snapshot: ContextSnapshot,
                 apply: Apply, parent: QWidget | None = None,
                 servers: Sequence[tuple[str | None, str]] = (), recall_status: str = "") -> None:
        super().__init__(parent)
        self.setObjectName("chatSettingsDialog")
        self.setWindowTitle(self.tr("Chat settings — {0}").format(chat.title))
        self.setAccessibleName(self.tr("Chat settings"))
        self._chat, self._defaults, self._apply = chat, defaults, apply
        self._default_size = min(defaults.context_size, snapshot.trained_context or
                                 defaults.context_size)
        self._trained, self._model = snapshot.trained_context, snapshot.model or "the model"
        # The server's own window (llama.cpp's slot, vLLM's max_model_len...): the most a chat
        # may use there, whatever the Preferences allow.
        self._window = snapshot.server_window
        if self._window:
            self._default_size = min(self._default_size, self._window)
        own = chat.settings

        self.prompt_edit = QPlainTextEdit(own.system_prompt or "")
        self.prompt_edit.setObjectName("systemPromptEdit")
        self.prompt_edit.setAccessibleName(self.tr("System prompt"))
        self.prompt_edit.setPlaceholderText(
            self.tr("Blank: the default from Preferences —\n{0}").format(defaults.system_prompt)
            if defaults.system_prompt.strip() else
            self.tr("Blank: no system prompt (Preferences set none)"))
        self.prompt_edit.setMinimumHeight(96)
        self.prompt_edit.setMaximumHeight(180)
        self.temperature_spin = _spin("temperatureSpin", 0.0, 2.0, 0.05, 2, self.tr("Default"))
        self.top_p_spin = _spin("topPSpin", 0.0, 1.0, 0.05, 2, self.tr("Default"))
        self.seed_spin = _int_spin("seedSpin", 0, 2**31 - 1, self.tr("Default (random)"))
        self.num_predict_spin = _int_spin("numPredictSpin", 1, CONTEXT_SIZE_MAX,
                                          self.reply_limit_text(snapshot))
        self.num_predict_spin.setSuffix(self.tr(" tokens"))
        self.context_spin = ContextSizeSpin()
        self.context_spin.setObjectName("contextSizeSpin")
        self.context_spin.setGroupSeparatorShown(True)
        self.context_spin.setSuffix(self.tr(" tokens"))
        limit = (self._trained if self._trained and not defaults.allow_beyond_trained
                 else CONTEXT_SIZE_MAX)
        limit = min(limit, self._window) if self._window else limit
        self.context_spin.setRange(CONTEXT_SIZE_MIN - 1, max(CONTEXT_SIZE_MIN, limit))
        self.context_spin.setSpecialValueText(self.tr("Default ({0})").format(
            f"{self._default_size:,}"))
        self.keep_alive_edit = QLineEdit(own.keep_alive or "")
        self.keep_alive_edit.setObjectName("keepAliveEdit")
        self.keep_alive_edit.setPlaceholderText(
            self.tr("Blank: {0} (Preferences)").format(defaults.keep_alive or "Ollama's"))
        for real, number in ((self.temperature_spin, own.temperature),
                             (self.top_p_spin, own.top_p)):
            if number is not None:
                real.setValue(number)
        for whole, count in ((self.seed_spin, own.seed), (self.num_predict_spin, own.num_predict),
                             (self.context_spin, chat.context_size)):
            if count is not None:
                whole.setValue(count)
        for spin in self._spins():
            spin.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToNearestValue)

        self.origins: dict[str, QLabel] = {}
        form = QFormLayout()
        rows: list[tuple[str, str, QWidget, str]] = [
            ("temperature", self.tr("Temperature:"), self.temperature_spin,
             self.tr("Higher gives more varied replies, lower more focused ones (0 to 2).")),
            ("topP", self.tr("Top P:"), self.top_p_spin,
             self.tr("Choose only among the likeliest words that together reach this share.")),
            ("seed", self.tr("Seed:"), self.seed_spin,
             self.tr("The same seed and request give the same reply.")),
            ("numPredict", self.tr("Reply length limit:"), self.num_predict_spin,
             self.tr("The most tokens one reply may have (num_predict).")),
            ("contextSize", self.tr("Context size:"), self.context_spin,
             self.tr("Tokens the model reads per request; the arrows step by powers of two.")),
            ("keepAlive", self.tr("Keep model loaded:"), self.keep_alive_edit,
             self.tr("How long Ollama keeps the model in memory after a reply: 10m, 1h, 0 "
                     "(unload at once) or -1 (always).")),
        ]
        self.server_combo: QComboBox | None = None
        if len(servers) > 1:  # which server this chat talks to, where there is a choice
            self.server_combo = QComboBox()
            self.server_combo.setObjectName("serverCombo")
            for server_id, name in servers:
                self.server_combo.addItem(name, server_id)
            self.server_combo.setCurrentIndex(max(0, self.server_combo.findData(
                own.connection)))
            rows.insert(0, ("server", self.tr("Server:"), self.server_combo, self.tr(
                "Where this chat's messages go; after OK choose one of its models.")))
        for key, label, field, tip in rows:
            field.setAccessibleName(label.rstrip(":"))
            field.setToolTip(tip)
            origin = QLabel()
            origin.setObjectName(f"{key}Origin")
            origin.setWordWrap(True)
            origin.setEnabled(False)  # drawn muted: it explains, it is not a value
            self.origins[key] = origin
            cell = QGridLayout()
            cell.addWidget(field, 0, 0)
            cell.addWidget(origin, 1, 0)
            form.addRow(label, cell)
        prompt_origin = QLabel()
        prompt_origin.setObjectName("systemPromptOrigin")
        prompt_origin.setWordWrap(True)
        prompt_origin.setEnabled(False)
        self.origins["systemPrompt"] = prompt_origin

        # Recall (issue 23): on by default; the status says what it searches, or why it is off.
        self.recall_check = QCheckBox(self.tr("Recall earlier messages this chat asks about"))
        self.recall_check.setObjectName("recallCheckBox")
        self.recall_check.setChecked(own.recall_on)
        self.recall_check.setToolTip(self.tr(
            "Each message you send brings back, word for word, the earlier exchanges it asks "
            "about, in the room the context has left (never stored, never a compaction)."))
        self.recall_status = QLabel(recall_status)
        self.recall_status.setObjectName("recallStatusLabel")
        self.recall_status.setWordWrap(True)
        self.recall_status.setEnabled(False)
        self.recall_check.setEnabled("FTS5" not in recall_status)
        form.addRow(self.tr("Recall:"), self.recall_check)
        form.addRow("", self.recall_status)

        self.error_label = QLabel()
        self.error_label.setObjectName("chatSettingsError")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(f"color: {status_text_color('over').name()};")
        self.error_label.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.reset_button = self.buttons.addButton(self.tr("Use all defaults"),
                                                   QDialogButtonBox.ButtonRole.ResetRole)
        self.reset_button.setObjectName("resetDefaultsButton")
        self.reset_button.clicked.connect(self.reset_to_defaults)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        intro = QLabel(self.tr("Only “{0}” uses these. Blank or “Default” uses the default "
                               "named under the field.").format(chat.title))
        intro.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(QLabel(self.tr("System prompt:")))
        layout.addWidget(self.prompt_edit, 1)
        layout.addWidget(prompt_origin)
        layout.addLayout(form)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self.prompt_edit.textChanged.connect(self.describe)
        for spin in self._spins():
            spin.valueChanged.connect(self.describe)
        self.keep_alive_edit.textChanged.connect(self.describe)
        self.describe()
        self.resize(660, 600)

    # ------------------------------------------------------------ values
    def _number(self, spin: QDoubleSpinBox | QSpinBox) -> float | int | None:
        return None if spin.value() == spin.minimum() else spin.value()

    def values(self) -> tuple[ChatSettings, int | None]:
        """(the chat's settings, its context size or None for the default); ValueError with
        a readable reason when a value cannot be used."""
        seed, limit = self._number(self.seed_spin), self._number(self.num_predict_spin)
        size = self._number(self.context_spin)
        try:
            settings = ChatSettings(
                system_prompt=self.prompt_edit.toPlainText(),
                temperature=self._number(self.temperature_spin),
                top_p=self._number(self.top_p_spin),
                seed=None if seed is None else int(seed),
                num_predict=None if limit is None else int(limit),
                keep_alive=self.keep_alive_edit.text(), recall=self.recall_check.isChecked())
            if self.server_combo is not None:
                settings = settings.model_copy(
                    update={"connection": self.server_combo.currentData()})
        except ValidationError as exc:
            field = str(exc.errors()[0]["loc"][0])
            if field == "keep_alive":
                raise ValueError(self.tr("Keep model loaded: use a duration like 10m, 1h, 0 "
                                         "or -1 (forever), or leave it blank.")) from exc
            raise ValueError(self.tr("{0}: {1}").format(field, exc.errors()[0]["msg"])) from exc
        return settings, None if size is None else int(size)

    def reset_to_defaults(self) -> None:
        self.prompt_edit.clear()
        self.keep_alive_edit.clear()
        self.recall_check.setChecked(True)
        for real in (self.temperature_spin, self.top_p_spin):
            real.setValue(real.minimum())
        for whole in (self.seed_spin, self.num_predict_spin, self.context_spin):
            whole.setValue(whole.minimum())

    def _spins(self) -> list[QDoubleSpinBox | QSpinBox]:
        return [self.temperature_spin, self.top_p_spin, self.seed_spin, self.num_predict_spin,
                self.context_spin]

    def describe(self) -> None:
        """Say, under each field, where its value comes from."""
        d, o = self._defaults, self.origins
        mine = self.tr("Set for this chat.")
        if self.prompt_edit.toPlainText().strip():
            o["systemPrompt"].setText(self.tr("This chat's own prompt (sent first, counted in "
                                              "the context)."))
        else:
            o["systemPrompt"].setText(self.tr("The default from Preferences.")
                                      if d.system_prompt.strip() else
                                      self.tr("No system prompt: none is set in Preferences."))
        for key, spin in (("temperature", self.temperature_spin), ("topP", self.top_p_spin),
                          ("seed", self.seed_spin), ("numPredict", self.num_predict_spin)):
            o[key].setText(mine if self._number(spin) is not None else self.tr(OLLAMA_DEFAULT))
        size = self._number(self.context_spin)
        trained = self._trained
        note = (self.tr(" At most {0}, what {1} was trained for.").format(f"{trained:,}",
                                                                            self._model)
                if trained and not d.allow_beyond_trained else "")
        if self._window and (not note or not trained or self._window <= trained):
            note = self.tr(" At most {0}, the context the server serves {1} with.").format(
                f"{self._window:,}", self._model)
        if size is None:
            text = self.tr("The size a new chat gets: Preferences ({0}).").format(
                f"{d.context_size:,}")
            if self._default_size < d.context_size:
                text += self.tr(" Lowered to what {0} was trained for.").format(self._model)
            o["contextSize"].setText(text + note)
        elif size == self._chat.context_size:
            o["contextSize"].setText(self.tr("This chat's context now.") + note)
        else:
            o["contextSize"].setText(self.tr("New for this chat: figured again at once (the "
                                             "model reloads).") + note)
        o["keepAlive"].setText(mine if self.keep_alive_edit.text().strip() else self.tr(
            "The default from Preferences ({0}).").format(d.keep_alive or "Ollama's"))

    # ------------------------------------------------------------ OK
    def accept(self) -> None:
        try:
            settings, size = self.values()
        except ValueError as exc:
            self._error(str(exc))
            return
        if not self._apply(settings, size):
            self._error(self.tr(BUSY))
            return
        super().accept()

    def _error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.show()


def open_chat_settings(parent: QWidget, controller: ChatController) -> ChatSettingsDialog | None:
    """The settings button's slot: the dialog for the open chat (the user asked for it)."""
    chat = controller.chat
    if chat is None:
        return None
    def apply(settings: ChatSettings, size: int | None) -> bool:
        applied = controller.apply_chat_settings(settings, size)
        if applied and (size is None or size != chat.context_size):  # Preferences say where
            controller.remember_context_origin(
                chat.id, "" if size is None else f"chat settings:{size}")
        return applied

    dialog = ChatSettingsDialog(chat, controller.settings, controller.snapshot, apply, parent,
                                servers=controller.server_choices(),
                                recall_status=controller.recall_status())
    dialog.exec()
    dialog.deleteLater()
    return dialog


class ChatSettingsButton(QPushButton):
    """Next to the model selector; enabled while a chat is open."""

    def __init__(self, window: QWidget, controller: ChatController) -> None:
        super().__init__()
        self.setText(self.tr("Chat settings…"))
        self.setObjectName("chatSettingsButton")
        self.setAccessibleName(self.tr("Chat settings"))
        self.setToolTip(self.tr("This chat's system prompt, temperature, context size and "
                                "other model parameters"))
        self._controller = controller
        self.clicked.connect(lambda: open_chat_settings(window, controller))
        controller.chatOpened.connect(self.sync)
        controller.historyReset.connect(self.sync)
        self.sync()

    def sync(self, *_args: object) -> None:
        self.setEnabled(self._controller.chat is not None)
