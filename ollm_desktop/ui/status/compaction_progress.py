"""A slim strip above the input while a compaction runs; hidden when idle."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QProgressBar, QWidget

LINGER_MS = 4000  # how long a finish message stays before the strip hides


class CompactionProgress(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compactionProgress")
        self.setAccessibleName(self.tr("Compaction progress"))
        self.linger_ms = LINGER_MS
        self.stage = ""
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        self.label = QLabel()
        self.label.setObjectName("compactionLabel")
        self.label.setWordWrap(True)
        self.bar = QProgressBar()
        self.bar.setObjectName("compactionBar")
        self.bar.setAccessibleName(self.tr("Compaction progress bar"))
        self.bar.setRange(0, 100)
        self.bar.setTextVisible(False)
        self.bar.setFixedWidth(180)
        self.bar.setMaximumHeight(12)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.bar)
        self._hide_timer = QTimer(self)
        self._hide_timer.setSingleShot(True)
        self._hide_timer.timeout.connect(self.hide)
        self.hide()

    def stage_label(self, stage: str) -> str:
        """The engine's stage names in words a user understands."""
        labels = {
            "identification": self.tr("Finding older messages to compress…"),
            "preparation": self.tr("Preparing the summary request…"),
            "summarization": self.tr("Summarising older messages…"),
            "checkpoint creation": self.tr("Creating a checkpoint…"),
            "checkpoint": self.tr("Creating a checkpoint…"),
            "context update": self.tr("Updating the context…"),
            "validation": self.tr("Checking the result…"),
        }
        return labels.get(stage.strip().lower(), stage.strip().capitalize() + "…")

    def start(self) -> None:
        self._hide_timer.stop()
        self.stage = ""
        self.bar.show()
        self.bar.setValue(0)
        self.label.setText(self.tr("Compacting the conversation…"))
        self.show()

    def set_progress(self, stage: str, percent: float) -> None:
        if self.isHidden() or self._hide_timer.isActive():
            self.start()
        self.stage = stage
        value = max(0, min(100, round(percent)))
        self.bar.setValue(value)
        self.label.setText(f"{self.stage_label(stage)} {value}%")
        self.setAccessibleDescription(self.label.text())

    def finish(self, message: str = "") -> None:
        """Show ``message`` for a moment, then hide; hide at once when there is nothing to say."""
        if not message:
            self._hide_timer.stop()
            self.hide()
            return
        self.bar.hide()
        self.label.setText(message)
        self.setAccessibleDescription(message)
        self.show()
        self._hide_timer.start(self.linger_ms)
