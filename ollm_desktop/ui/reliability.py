"""Status-bar reliability light: a coloured dot, the level, and the score's breakdown."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from ollm_desktop.engine.models import Reliability
from ollm_desktop.ui.theme import status_color


class StatusDot(QWidget):
    """A filled circle; colour set by the owner (a widget, not an emoji: fonts vary)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.color = status_color("idle")
        self.setFixedSize(12, 12)

    def set_color(self, color: QColor) -> None:
        self.color = QColor(color)
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(12, 12)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        outline = self.palette().color(QPalette.ColorRole.WindowText)
        outline.setAlpha(70)
        painter.setPen(outline)
        painter.setBrush(self.color)
        painter.drawEllipse(self.rect().adjusted(1, 1, -1, -1))
        painter.end()


class ReliabilityIndicator(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("reliabilityIndicator")
        self.setAccessibleName(self.tr("Reliability"))
        self.reliability: Reliability | None = None
        self.level = "idle"
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 0, 6, 0)
        layout.setSpacing(6)
        self.dot = StatusDot()
        self.label = QLabel(self.tr("Reliability: —"))
        self.label.setObjectName("reliabilityText")
        layout.addWidget(self.dot, 0, Qt.AlignmentFlag.AlignVCenter)
        layout.addWidget(self.label)
        self.setToolTip(self.tr("Reliability is shown once a chat is open."))

    def level_text(self, level: str) -> str:
        return {"high": self.tr("High"), "medium": self.tr("Medium"), "low": self.tr("Low"),
                "critical": self.tr("Critical")}.get(level, level)

    def set_reliability(self, r: Reliability, compressions: int = 1) -> None:
        """The seed's score and levels once compression has touched the chat.

        Before the first compression (and with nothing left out to fit) nothing has degraded
        the conversation: the model's size factor is shown as neutral information, so red
        only ever means "compression has degraded this conversation".
        """
        self.reliability = r
        fresh = compressions == 0 and r.context_confidence >= 1.0
        self.level = "fresh" if fresh else r.level
        self.dot.set_color(status_color("idle" if fresh else r.level))
        if fresh:
            text = self.tr("Not compressed · model factor {0:.2f}").format(r.model_factor)
        else:
            text = self.tr("Reliability: {0} ({1}%)").format(self.level_text(r.level),
                                                             round(r.score * 100))
        self.label.setText(text)
        self.setAccessibleDescription(text)
        tooltip = self._fresh_tooltip(r) if fresh else self._tooltip(r)
        for widget in (self, self.dot, self.label):
            widget.setToolTip(tooltip)

    def _fresh_tooltip(self, r: Reliability) -> str:
        head = escape(self.tr("Nothing has been compressed yet"))
        body = escape(self.tr(
            "Every message is sent word for word. The model's size factor ({0:.2f}) sets how "
            "well it keeps a conversation once older messages are summarised; from the first "
            "compression on, the reliability score shows how much that has degraded this "
            "chat.").format(r.model_factor))
        return f"<b>{head}</b><br>{body}"

    def _tooltip(self, r: Reliability) -> str:
        rows = [
            (self.tr("Model size factor"), f"{r.model_factor:.2f}"),
            (self.tr("Compression penalty"), f"×{r.compression_penalty:.2f}"),
            (self.tr("Context confidence"), f"×{r.context_confidence:.2f}"),
        ]
        table = "".join(f"<tr><td>{escape(a)}</td><td align='right'>&nbsp;&nbsp;{escape(b)}"
                        f"</td></tr>" for a, b in rows)
        head = escape(self.tr("Reliability {0}: {1}%").format(
            self.level_text(r.level).lower(), round(r.score * 100)))
        html = f"<b>{head}</b><br>{escape(r.explanation)}<table>{table}</table>"
        if r.recommendations:
            items = "".join(f"<li>{escape(item)}</li>" for item in r.recommendations)
            html += f"<b>{escape(self.tr('Recommendations'))}</b><ul>{items}</ul>"
        return html
