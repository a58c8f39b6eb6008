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
        """The same score as the status bar: called with every snapshot while shown."""
        times = (self.tr("once") if compactions == 1
                 else self.tr("{0} times").format(compactions))
        head = self.tr("Your model ({0}) has compressed this conversation {1}. Reliability is "
                       "now {2}%: small models may lose context accuracy after several "
                       "compressions.").format(model, times, round(reliability.score * 100))
        advice = "; ".join(reliability.recommendations or RECOMMENDATIONS)
        self.text.setText(f"<b>{escape(head)}</b><br>{escape(advice)}.")
        self.setToolTip(reliability.explanation)

    def dismiss(self) -> None:
        self.hide()
        self.dismissed.emit()
