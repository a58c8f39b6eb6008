"""Preferences ▸ Recall: whether new chats recall earlier messages, and the embedding model
that adds meaning search (Ollama's all-minilm, nomic-embed-text, embeddinggemma...)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QGroupBox, QWidget

from ollm_desktop.controller import Settings

SUGGESTED = ("all-minilm", "nomic-embed-text", "embeddinggemma")


class RecallBox(QGroupBox):
    changed = Signal()

    def __init__(self, settings: Settings, models: Sequence[str],
                 parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Recall"), parent)
        self.setObjectName("recallPreferences")
        self.default_check = QCheckBox(self.tr("New chats recall earlier messages they ask "
                                               "about"))
        self.default_check.setObjectName("recallDefaultCheckBox")
        self.default_check.setChecked(settings.recall_new_chats)
        self.default_check.setToolTip(self.tr(
            "Each chat has its own switch in Chat settings; this is where new chats start."))
        self.model_combo = QComboBox()
        self.model_combo.setObjectName("embeddingModelCombo")
        self.model_combo.setEditable(True)
        self.model_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        names = [m for m in models if m]
        self.model_combo.addItems(["", *dict.fromkeys([*names, *SUGGESTED])])
        self.model_combo.setCurrentText(settings.embedding_model or "")
        edit = self.model_combo.lineEdit()
        if edit is not None:
            edit.setPlaceholderText(self.tr("None: search by words only"))
        self.model_combo.setAccessibleName(self.tr("Embedding model"))
        self.model_combo.setToolTip(self.tr(
            "A model of the chat's server that turns text into vectors (ollama pull "
            "all-minilm): recall then also finds earlier messages that say the same in other "
            "words. Rounds are embedded in the background."))
        form = QFormLayout(self)
        form.addRow(self.default_check)
        form.addRow(self.tr("Embedding model:"), self.model_combo)
        self.default_check.toggled.connect(self.changed)
        self.model_combo.currentTextChanged.connect(self.changed)

    def values(self) -> dict[str, Any]:
        return {"recall_new_chats": self.default_check.isChecked(),
                "embedding_model": self.model_combo.currentText().strip() or None}
