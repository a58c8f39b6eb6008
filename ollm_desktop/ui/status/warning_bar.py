"""The context-compression warning as a bar inside the window (seed 001's warning).

A message box, even one opened with ``open()``, is window-modal: while it is up the window
takes no clicks or shortcuts, so a send or Ctrl+N waits for the user to find the box. The bar
sits above the conversation, blocks nothing, and reads its figures from every new context
snapshot, so it always says what the status bar says.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from ollm_desktop.engine.models import Reliability
from ollm_desktop.engine.reliability import RECOMMENDATIONS
from ollm_desktop.ui.theme import status_color


class ReliabilityWarningBar(QFrame):
    """Shown once per chat when compression has degraded it; closed by the user."""

    dismissed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("reliabilityWarningBar")
        self.setAccessibleName(self.tr("Context compression warning"))
        self.setFrameShape(QFrame.Shape.StyledPanel)
        edge = status_color("critical").name()
        self.setStyleSheet(f"#reliabilityWarningBar {{ border: 1px solid {edge}; "
                           "border-radius: 4px; }")
        self.text = QLabel()
        self.text.setObjectName("reliabilityWarningText")
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.close_button = QPushButton(self.tr("Dismiss"))
        self.close_button.setObjectName("reliabilityWarningDismiss")
        self.close_button.setAccessibleName(self.tr("Dismiss the warning"))
        self.close_button.clicked.connect(self.dismiss)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.hide()

    def show_warning(self, reliability: Reliability, model: str, compactions: int) -> None:
        self.update_figures(reliability, model, compactions)
        self.show()

    def update_figures(self, reliability: Reliability, model: str, compactions: int) -> None:
        """The status bar's level and figure: called with every snapshot while shown."""
        r = reliability
        times = (self.tr("once") if compactions == 1
                 else self.tr("{0} times").format(compactions))
        level = {"high": self.tr("high"), "medium": self.tr("medium"), "low": self.tr("low"),
                 "critical": self.tr("critical")}.get(r.level, r.level)
        head = self.tr("This conversation with {0} has been compressed {1}. Reliability is "
                       "{2} ({3}%).").format(model, times, level, round(r.chat_score * 100))
        lines = [head]
        if r.costly_compressions:
            lines.append(self.tr("{0} of those compressions lost facts you stated ({1} of {2} "
                                 "are no longer sent word for word).").format(
                r.costly_compressions, f"{r.user_facts - r.user_facts_kept:,}",
                f"{r.user_facts:,}"))
        if r.reasons:
            lines.append(self.tr("Also: {0}.").format("; ".join(r.reasons)))
        if r.model_note:
            lines.append(r.model_note + ".")
        advice = "; ".join(r.recommendations or RECOMMENDATIONS)
        self.text.setText(f"<b>{escape(lines[0])}</b> {escape(' '.join(lines[1:]))}"
                          f"<br>{escape(advice)}.")
        self.setToolTip(r.explanation)

    def dismiss(self) -> None:
        self.hide()
        self.dismissed.emit()
