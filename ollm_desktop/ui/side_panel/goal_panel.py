"""Dock showing the chat's goal (what the model is working towards); the description is editable."""

from __future__ import annotations

from functools import cache
from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.engine.models import GoalState

STATUS_ICONS = {"completed": "✓", "in-progress": "◐", "pending": "○"}


@cache
def lock_symbol() -> str:
    """🔒 where a font can draw it (emoji fonts are optional on Linux), else a text tag."""
    if QFontMetrics(QFont()).inFontUcs4(0x1F512) or any(
            "emoji" in family.lower() for family in QFontDatabase.families()):
        return "🔒"
    return "[locked]"


class GoalPanel(QDockWidget):
    goalEdited = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(self.tr("Goal"), parent)
        self.setObjectName("goalPanel")
        self.setAccessibleName(self.tr("Goal"))
        self.goal = GoalState()
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(8, 6, 8, 8)
        layout.setSpacing(6)

        self.empty_label = QLabel(self.tr(
            "No goal yet. Type what this chat is for; the model may also propose one as the "
            "chat goes on."))
        self.empty_label.setObjectName("goalEmpty")
        self.empty_label.setWordWrap(True)
        self.status_label = QLabel()
        self.status_label.setObjectName("goalStatus")
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("goalEditor")
        self.editor.setAccessibleName(self.tr("Goal description"))
        self.editor.setPlaceholderText(self.tr("What are you working towards?"))
        self.editor.setMaximumHeight(90)
        self.save_button = QPushButton(self.tr("Save goal"))
        self.save_button.setObjectName("goalSaveButton")
        self.save_button.setAccessibleName(self.tr("Save goal"))
        self.save_button.setEnabled(False)
        save_row = QHBoxLayout()
        save_row.addWidget(self.status_label, 1)
        save_row.addWidget(self.save_button)

        layout.addWidget(self.empty_label)
        layout.addWidget(self.editor)
        layout.addLayout(save_row)
        self.sections: dict[str, tuple[QLabel, QLabel]] = {}
        for key, title in (("checkpoints", self.tr("Checkpoints")),
                           ("decisions", self.tr("Decisions")),
                           ("artifacts", self.tr("Files")),
                           ("next_steps", self.tr("Next steps"))):
            heading = QLabel(f"<b>{escape(title)}</b>")
            content = QLabel()
            content.setObjectName(f"goal_{key}")
            content.setAccessibleName(title)
            content.setWordWrap(True)
            content.setTextFormat(Qt.TextFormat.RichText)
            content.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            layout.addWidget(heading)
            layout.addWidget(content)
            self.sections[key] = (heading, content)
        layout.addStretch(1)

        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(body)
        self.setWidget(scroll)
        self.setMinimumWidth(240)

        self.editor.textChanged.connect(self._text_changed)
        self.save_button.clicked.connect(self._save)
        self.set_goal(GoalState())

    def set_goal(self, goal: GoalState) -> None:
        """Keeps an unsaved edit in the editor rather than overwriting the user's typing."""
        dirty = self.editor.toPlainText().strip() != self.goal.description.strip()
        self.goal = goal
        if not dirty:
            self.editor.blockSignals(True)
            self.editor.setPlainText(goal.description)
            self.editor.blockSignals(False)
        empty = not (goal.description or goal.checkpoints or goal.decisions or goal.artifacts
                     or goal.next_steps)
        self.empty_label.setVisible(empty)
        status = {"active": self.tr("Active"), "paused": self.tr("Paused"),
                  "completed": self.tr("Completed")}.get(goal.status, goal.status)
        priority = {"high": self.tr("high priority"), "medium": self.tr("medium priority"),
                    "low": self.tr("low priority")}.get(goal.priority, goal.priority)
        self.status_label.setText("" if empty else f"{status} · {priority}")
        self._fill("checkpoints", [
            f"{STATUS_ICONS.get(c.status, '○')} {escape(c.description)}"
            for c in goal.checkpoints])
        self._fill("decisions", [
            f"{lock_symbol() if d.locked else '•'} {escape(d.description)}"
            for d in goal.decisions])
        self._fill("artifacts", [
            f"{escape(a.action)}: <code>{escape(a.path)}</code>" for a in goal.artifacts])
        self._fill("next_steps", [f"→ {escape(step)}" for step in goal.next_steps])
        self._text_changed()

    def _fill(self, key: str, lines: list[str]) -> None:
        heading, content = self.sections[key]
        content.setText("<br>".join(lines))
        heading.setVisible(bool(lines))
        content.setVisible(bool(lines))

    def _text_changed(self) -> None:
        text = self.editor.toPlainText().strip()
        self.save_button.setEnabled(text != self.goal.description.strip())

    def _save(self) -> None:
        self.goalEdited.emit(self.editor.toPlainText().strip())
        self.save_button.setEnabled(False)
