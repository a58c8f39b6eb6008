"""Preferences: edits a copy of Settings; OK stays disabled while pydantic rejects the input."""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QSize
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.controller import ContextSnapshot, Settings
from ollm_desktop.host_check import host_problem
from ollm_desktop.ui.preferences.connections_editor import ConnectionsEditor, Tester
from ollm_desktop.ui.preferences.preference_pages import PagedForm
from ollm_desktop.ui.preferences.recall_preferences import RecallBox
from ollm_desktop.ui.text.context_size_text import (
    context_size_label,
    parse_context_size,
    tier_explanation,
)
from ollm_desktop.ui.theme import status_text_color

CONTEXT_SIZES = (2048, 4096, 8192, 16384, 32768, 65536, 131072)
# Go duration ("10m", "1h30m", "-1m") or plain seconds ("300", "-1", "0"), as Ollama accepts.
_KEEP_ALIVE = re.compile(r"^-?(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$|^-?\d+$")


def _placeholder(combo: QComboBox, text: str) -> None:
    edit = combo.lineEdit()
    if edit is not None:
        edit.setPlaceholderText(text)


def chat_context_text(snap: ContextSnapshot, settings: Settings, origin: str = "") -> str:
    """The open chat's own context size and where it comes from (it can differ from the
    default for new chats, which is what the Preferences field edits). ``origin``: where it
    was last set and to what ("chat settings:4096", "preferences:2048"), remembered with the
    chat; it counts while the size is still that one (not lowered since, say)."""
    if snap.chat is None:
        return ""
    size, trained = snap.chat.context_size, snap.trained_context
    where, _, at = origin.partition(":")
    origin = where if at == str(size) else ""
    if trained and size > trained:
        origin = f"beyond the {trained:,} {snap.model or 'its model'} was trained for"
    elif origin == "chat settings":
        origin = "set in this chat's settings (Chat settings…)"
    elif origin == "preferences":
        origin = "applied to this chat from Preferences"
    elif trained and size == trained and settings.context_size > trained:
        origin = f"lowered to what {snap.model or 'its model'} was trained for"
    elif size == settings.context_size:
        origin = "the default for new chats"
    else:
        origin = "the default for new chats when this chat was created"
    return f"This chat: {context_size_label(size)} — {origin}"


class PreferencesDialog(QDialog):
    def __init__(self, settings: Settings, models: list[str],
                 parent: QWidget | None = None, current: ContextSnapshot | None = None,
                 context_origin: str = "", tester: Tester | None = None) -> None:
        super().__init__(parent)
        current = current or ContextSnapshot()
        self.setObjectName("preferencesDialog")
        self.setAccessibleName(self.tr("Preferences"))
        self.setWindowTitle(self.tr("Preferences"))
        self._original = settings.model_copy(deep=True)
        self._result: Settings | None = self._original.model_copy(deep=True)
        self.errors: list[str] = []

        # --- Ollama
        self.host_edit = QLineEdit(settings.ollama_host or "")
        self.host_edit.setPlaceholderText(self.tr("http://127.0.0.1:11434 (default)"))
        self.start_combo = QComboBox()
        for value, label in (("ask", self.tr("Ask first")), ("always", self.tr("Always")),
                             ("never", self.tr("Never"))):
            self.start_combo.addItem(label, value)
        self.start_combo.setCurrentIndex(self.start_combo.findData(settings.start_ollama))
        self.timeout_spin = QDoubleSpinBox()
        self.timeout_spin.setRange(1.0, 600.0)
        self.timeout_spin.setDecimals(0)
        self.timeout_spin.setSuffix(self.tr(" s"))
        self.timeout_spin.setValue(settings.request_timeout)
        self.keep_alive_edit = QLineEdit(settings.keep_alive)
        self.keep_alive_edit.setPlaceholderText(self.tr("10m, 1h, 0 or -1 (forever)"))
        # llama.cpp's server, LM Studio, vLLM...: keys go to the keyring on OK (the caller).
        self.connections_editor = ConnectionsEditor(settings.connections,
                                                    settings.default_connection, tester)

        # --- Models
        names = list(dict.fromkeys(m for m in models if m))
        self.model_combo = QComboBox()
        self.model_combo.setEditable(True)
        self.model_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.model_combo.addItems(names)
        self.model_combo.setCurrentText(settings.default_model or "")
        in_use = current.model or ""
        _placeholder(self.model_combo, self.tr("None: the first installed model") if not in_use
                     else self.tr("None: now {0}").format(in_use))
        self.model_in_use = QLabel(self.tr("In use in this chat: {0}").format(in_use)
                                   if current.chat is not None and in_use else
                                   self.tr("In use: {0}").format(in_use) if in_use else "")
        self.model_in_use.setWordWrap(True)
        self.model_in_use.setVisible(bool(self.model_in_use.text()))
        self.summary_combo = QComboBox()
        self.summary_combo.setEditable(True)
        self.summary_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.summary_combo.addItems(["", *names])
        self.summary_combo.setCurrentText(settings.summarization_model or "")
        _placeholder(self.summary_combo, self.tr("Same as the chat model"))
        self.summary_combo.setToolTip(self.tr(  # why the chat's own model is the default
            "Another model here replaces the chat model in the server's memory at every "
            "summary: the server then reads the whole chat again at the next message. The "
            "chat model reuses what the server has just read."))

        # --- Context
        self.context_combo = QComboBox()
        self.context_combo.setEditable(True)
        self.context_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        for size in CONTEXT_SIZES:
            self.context_combo.addItem(context_size_label(size), size)
        index = self.context_combo.findData(settings.context_size)
        if index >= 0:
            self.context_combo.setCurrentIndex(index)
        else:
            self.context_combo.setCurrentText(str(settings.context_size))
        self.context_combo.setToolTip(self.tr(
            "How much of a chat the model reads at once, in new chats: pick a size or type a "
            "number of tokens. Larger sizes need more memory."))
        self.chat_context = QLabel(chat_context_text(current, settings, context_origin))
        self.chat_context.setWordWrap(True)
        self.chat_context.setVisible(bool(self.chat_context.text()))
        self.beyond_check = QCheckBox(self.tr("Allow contexts beyond what the model was "
                                              "trained for"))
        self.beyond_check.setChecked(settings.allow_beyond_trained)
        self.beyond_check.setToolTip(self.tr(
            "Off: a chat never sends more than the model's trained context length. On: past "
            "that length the model may lose track, and Ollama needs more memory and time."))
        self.trigger_spin = QSpinBox()
        self.trigger_spin.setRange(30, 95)
        self.trigger_spin.setSuffix("%")
        self.trigger_spin.setValue(round(settings.trigger_ratio * 100))
        self.trigger_spin.setToolTip(self.tr("Compact when recent messages fill this share of "
                                             "the available context."))
        self.preserve_spin = QSpinBox()
        self.preserve_spin.setRange(0, 262_144)
        self.preserve_spin.setSingleStep(256)
        self.preserve_spin.setGroupSeparatorShown(True)
        self.preserve_spin.setSuffix(self.tr(" tokens"))
        self.preserve_spin.setSpecialValueText(self.tr("Automatic"))
        self.preserve_spin.setValue(settings.preserve_recent_tokens)
        self.preserve_spin.setToolTip(self.tr(
            "The newest messages up to this many tokens are never compressed. Automatic "
            "scales it with the context size."))
        self.keep_turns_spin = QSpinBox()
        self.keep_turns_spin.setRange(0, 200)
        self.keep_turns_spin.setSpecialValueText(self.tr("Automatic"))
        self.keep_turns_spin.setSuffix(self.tr(" turns"))
        self.keep_turns_spin.setValue(settings.keep_recent_turns)
        self.keep_turns_spin.setToolTip(self.tr(
            "Your last N questions and their answers are sent word for word, never summarised. "
            "Automatic chooses by the context size."))
        self.summary_timeout_spin = self._seconds_spin(settings.summary_timeout_s, 3600)
        self.summary_timeout_spin.setToolTip(self.tr(
            "How long one summary may take before the model is given up on (slow CPUs and "
            "large models need minutes)."))
        self.compaction_timeout_spin = self._seconds_spin(settings.compaction_timeout_s, 7200)
        self.compaction_timeout_spin.setToolTip(self.tr(
            "How long one whole compaction may take, all its summaries included. After it, "
            "the chat is compacted without the model."))
        self.preserve_user_check = QCheckBox(self.tr("Keep my own messages word for word"))
        self.preserve_user_check.setChecked(settings.preserve_user_messages)
        self.retention_spin = QSpinBox()
        self.retention_spin.setRange(1, 1000)
        self.retention_spin.setValue(settings.snapshot_retention)
        self.retention_spin.setSuffix(self.tr(" automatic snapshots per chat"))

        # --- Appearance
        self.theme_combo = QComboBox()
        for value, label in (("system", self.tr("Follow the system")),
                             ("light", self.tr("Light")), ("dark", self.tr("Dark"))):
            self.theme_combo.addItem(label, value)
        self.theme_combo.setCurrentIndex(self.theme_combo.findData(settings.theme))
        self.send_combo = QComboBox()
        for value, label in (("enter", self.tr("Enter (Shift+Enter for a new line)")),
                             ("ctrl-enter", self.tr("Ctrl+Enter (Enter for a new line)"))):
            self.send_combo.addItem(label, value)
        self.send_combo.setCurrentIndex(self.send_combo.findData(settings.send_key))

        self.prompt_edit = QPlainTextEdit(settings.system_prompt)
        self.prompt_edit.setPlaceholderText(self.tr("Instructions sent at the start of every "
                                                    "chat (optional)"))
        self.prompt_edit.setMinimumHeight(80)

        self.error_label = QLabel()
        self.error_label.setObjectName("preferencesError")
        self.error_label.setAccessibleName(self.tr("Input problems"))
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(f"color: {status_text_color('over').name()};")
        self.error_label.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        self._labels: dict[str, str] = {}
        ollama = self._group(self.tr("Ollama"), [
            ("ollama_host", self.tr("Host:"), self.host_edit),
            ("start_ollama", self.tr("Start Ollama if needed:"), self.start_combo),
            ("request_timeout", self.tr("Connect timeout:"), self.timeout_spin),
            ("keep_alive", self.tr("Keep model loaded:"), self.keep_alive_edit),
        ])
        models_box = self._group(self.tr("Models"), [
            ("default_model", self.tr("Default model:"), self.model_combo),
            ("model_in_use", "", self.model_in_use),
            ("summarization_model", self.tr("Summarisation model:"), self.summary_combo),
        ])
        context = self._group(self.tr("Context"), [
            ("context_size", self.tr("Context size (new chats):"), self.context_combo),
            ("chat_context_size", "", self.chat_context),
            ("allow_beyond_trained", "", self.beyond_check),
            ("trigger_ratio", self.tr("Compact at:"), self.trigger_spin),
            ("keep_recent_turns", self.tr("Keep the last N turns verbatim:"),
             self.keep_turns_spin),
            ("preserve_user_messages", "", self.preserve_user_check),
            ("summary_timeout_s", self.tr("Summary time limit:"), self.summary_timeout_spin),
            ("compaction_timeout_s", self.tr("Compaction time limit:"),
             self.compaction_timeout_spin),
            ("snapshot_retention", self.tr("Keep:"), self.retention_spin),
        ])
        advanced = self._group(self.tr("Advanced"), [
            ("preserve_recent_tokens", self.tr("Never compress the newest:"),
             self.preserve_spin),
        ])
        advanced.setObjectName("advancedSection")  # the engine's own terms, explained here
        self.advanced_label = QLabel()
        self.advanced_label.setObjectName("advancedExplanation")
        self.advanced_label.setWordWrap(True)
        advanced.layout().addWidget(self.advanced_label)  # type: ignore[union-attr]
        self.context_combo.currentTextChanged.connect(self._explain_advanced)
        self._explain_advanced()
        appearance = self._group(self.tr("Appearance"), [
            ("theme", self.tr("Theme:"), self.theme_combo),
            ("send_key", self.tr("Send with:"), self.send_combo),
        ])
        prompt_box = QGroupBox(self.tr("System prompt"))
        prompt_layout = QVBoxLayout(prompt_box)
        prompt_layout.addWidget(self.prompt_edit)
        self.prompt_edit.setAccessibleName(self.tr("System prompt"))
        self._labels["system_prompt"] = self.tr("System prompt")

        for wide in (self.host_edit, self.model_combo, self.summary_combo):
            wide.setMinimumWidth(220)  # a URL or a model name must be readable
        self.recall_box = RecallBox(settings, names)  # issue 23: its own module
        self.pages = PagedForm([
            ("general", self.tr("General"), [appearance, prompt_box]),
            ("models", self.tr("Models and servers"),
             [ollama, self.connections_editor, models_box]),
            ("memory", self.tr("Memory"), [context, self.recall_box]),
            ("advanced", self.tr("Advanced"), [advanced]),
        ])
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages, 1)
        self.resize(self.sizeHint())  # pages scroll: their hint alone would be too narrow
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)

        for edit in (self.host_edit, self.keep_alive_edit, self.preserve_spin):
            edit.textChanged.connect(self.validate)
        for combo in (self.model_combo, self.summary_combo, self.context_combo):
            combo.currentTextChanged.connect(self.validate)
        for combo in (self.start_combo, self.theme_combo, self.send_combo):
            combo.currentIndexChanged.connect(self.validate)
        self.timeout_spin.valueChanged.connect(self.validate)
        self.trigger_spin.valueChanged.connect(self.validate)
        self.retention_spin.valueChanged.connect(self.validate)
        for spin in (self.keep_turns_spin, self.summary_timeout_spin,
                     self.compaction_timeout_spin):
            spin.valueChanged.connect(self.validate)
        self.preserve_spin.valueChanged.connect(self.validate)
        self.preserve_user_check.toggled.connect(self.validate)
        self.beyond_check.toggled.connect(self.validate)
        self.prompt_edit.textChanged.connect(self.validate)
        self.connections_editor.changed.connect(self.validate)
        self.recall_box.changed.connect(self.validate)
        self.validate()

    def _seconds_spin(self, value: float, maximum: int) -> QSpinBox:
        spin = QSpinBox()
        spin.setRange(1, maximum)
        spin.setSingleStep(30)
        spin.setGroupSeparatorShown(True)
        spin.setSuffix(self.tr(" seconds"))
        spin.setValue(round(value))
        return spin

    def sizeHint(self) -> QSize:
        return QSize(820, 560)

    def _explain_advanced(self, *_args: object) -> None:
        size = parse_context_size(self.context_combo.currentText()) or 0
        self.advanced_label.setText(self.tr(
            "Ollama calls the context size num_ctx. {0}").format(
            tier_explanation(size) if size else ""))

    def _group(self, title: str, rows: list[tuple[str, str, QWidget]]) -> QGroupBox:
        box = QGroupBox(title)
        form = QFormLayout(box)
        for field, label, widget in rows:
            name = label.rstrip(":") or widget.property("text") or field
            widget.setObjectName(f"pref_{field}")
            widget.setAccessibleName(name)
            self._labels[field] = name
            if label:
                form.addRow(label, widget)
            else:
                form.addRow(widget)
        return box

    # ------------------------------------------------------------ validation
    def _values(self) -> tuple[dict[str, Any], list[str]]:
        """Field values from the widgets, plus problems pydantic cannot see (parsing)."""
        problems: list[str] = []
        host = self.host_edit.text().strip()
        if host_problem(host):  # the same check as --host
            problems.append(self.tr("Host: use a URL like http://127.0.0.1:11434."))
        keep_alive = self.keep_alive_edit.text().strip()
        if not _KEEP_ALIVE.match(keep_alive):
            problems.append(self.tr("Keep model loaded: use a duration like 10m, 1h, 0 or -1."))
        size = parse_context_size(self.context_combo.currentText())
        if size is None:
            problems.append(self.tr("Context size: type a number of tokens, e.g. 8192."))
            size = self._original.context_size
        problems += self.connections_editor.problems()
        if self.compaction_timeout_spin.value() < self.summary_timeout_spin.value():
            problems.append(self.tr("Compaction time limit: a compaction includes its "
                                    "summaries, so allow at least the summary time limit."))
        values = {
            "ollama_host": host or None,
            "default_model": self.model_combo.currentText().strip() or None,
            "context_size": size,
            "trigger_ratio": self.trigger_spin.value() / 100,
            "preserve_recent_tokens": self.preserve_spin.value(),
            "keep_recent_turns": self.keep_turns_spin.value(),
            "summary_timeout_s": float(self.summary_timeout_spin.value()),
            "compaction_timeout_s": float(self.compaction_timeout_spin.value()),
            "preserve_user_messages": self.preserve_user_check.isChecked(),
            "allow_beyond_trained": self.beyond_check.isChecked(),
            "summarization_model": self.summary_combo.currentText().strip() or None,
            "keep_alive": keep_alive,
            "snapshot_retention": self.retention_spin.value(),
            "theme": self.theme_combo.currentData(),
            "send_key": self.send_combo.currentData(),
            "start_ollama": self.start_combo.currentData(),
            "request_timeout": float(self.timeout_spin.value()),
            "system_prompt": self.prompt_edit.toPlainText(),
            "connections": self.connections_editor.connections(),
            "default_connection": self.connections_editor.default_connection(),
            **self.recall_box.values(),
        }
        return values, problems

    def validate(self) -> bool:
        values, problems = self._values()
        try:
            candidate = Settings.model_validate({**self._original.model_dump(), **values})
        except ValidationError as exc:
            candidate = None
            for error in exc.errors():
                field = str(error["loc"][0]) if error["loc"] else ""
                problems.append(f"{self._labels.get(field, field)}: {error['msg']}")
        self.errors = problems
        self._result = candidate if not problems else None
        self.error_label.setText("\n".join(problems))
        self.error_label.setVisible(bool(problems))
        self.ok_button.setEnabled(not problems)
        return not problems

    def accept(self) -> None:
        if self.validate():
            super().accept()

    def api_keys(self) -> dict[str, str]:
        """API keys typed for other servers, by connection id (for the keyring, never the
        settings file)."""
        return self.connections_editor.keys()

    def result_settings(self) -> Settings:
        """A validated copy; the Settings passed in are never changed here."""
        if self._result is None:
            raise ValueError("; ".join(self.errors) or "invalid preferences")
        return self._result.model_copy(deep=True)
