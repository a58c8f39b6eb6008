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
    """The level of what compression did to this chat, with the model's size as its own
    line beside it (it is in the score, never in the level): seed 001's terms in the tooltip."""

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
        self.model_label = QLabel()
        self.model_label.setObjectName("reliabilityModel")
        self.model_label.setAccessibleName(self.tr("Model size and reliability"))
        self.model_label.setEnabled(False)  # muted: information, not an alarm
        self.model_label.hide()
        layout.addWidget(self.dot, 0, Qt.AlignmentFlag.AlignVCenter)
        layout.addWidget(self.label)
        layout.addWidget(self.model_label)
        self.setToolTip(self.tr("Reliability is shown once a chat is open."))

    def level_text(self, level: str) -> str:
        return {"high": self.tr("High"), "medium": self.tr("Medium"), "low": self.tr("Low"),
                "critical": self.tr("Critical")}.get(level, level)

    def set_reliability(self, r: Reliability, compressions: int = 1) -> None:
        """The level says what happened to this chat (its own figure beside it); before
        anything was compressed or left out there is nothing to rate."""
        self.reliability = r
        fresh = compressions == 0 and r.chat_score >= 1.0
        self.level = "fresh" if fresh else r.level
        self.dot.set_color(status_color("idle" if fresh else r.level))
        if fresh:
            text = self.tr("Not compressed")
        else:
            text = self.tr("Reliability: {0} ({1}%)").format(self.level_text(r.level),
                                                             round(r.chat_score * 100))
        self.label.setText(text)
        self.model_label.setText("· " + r.model_note if r.model_note else "")
        self.model_label.setVisible(bool(r.model_note))
        self.setAccessibleDescription(f"{text}. {r.model_note}" if r.model_note else text)
        tooltip = self._fresh_tooltip(r) if fresh else self._tooltip(r)
        for widget in (self, self.dot, self.label, self.model_label):
            widget.setToolTip(tooltip)

    def _model_line(self, r: Reliability) -> str:
        if not r.model_known:
            return self.tr("The model's size is unknown, so it is not counted in the score.")
        return self.tr("{0} ({1}: size factor {2:.2f}). The factor is part of the score, "
                       "never of the level.").format(r.model_note, r.model_size, r.model_factor)

    def _fresh_tooltip(self, r: Reliability) -> str:
        head = escape(self.tr("Nothing has been compressed yet"))
        body = escape(self.tr(
            "Every message is sent word for word. From the first compression on, the level "
            "says how much of what you said the checkpoints kept."))
        return f"<b>{head}</b><br>{body}<br>{escape(self._model_line(r))}"

    def _tooltip(self, r: Reliability) -> str:
        rows = [
            (self.tr("Compression penalty (facts lost)"), f"×{r.compression_penalty:.2f}"),
            (self.tr("Context confidence"), f"×{r.context_confidence:.2f}"),
            (self.tr("This chat (sets the level)"), f"{round(r.chat_score * 100)}%"),
            (self.tr("Model size factor"),
             f"×{r.model_factor:.2f}" if r.model_known else self.tr("unknown")),
            (self.tr("Score"), f"{round(r.score * 100)}%"),
        ]
        table = "".join(f"<tr><td>{escape(a)}</td><td align='right'>&nbsp;&nbsp;{escape(b)}"
                        f"</td></tr>" for a, b in rows)
        head = escape(self.tr("Reliability {0}: {1}%").format(
            self.level_text(r.level).lower(), round(r.chat_score * 100)))
        facts = ""
        if r.user_facts:
            facts = "<br>" + escape(self.tr(
                "The checkpoints kept {0} of the {1} facts you stated (names, paths, numbers) "
                "word for word.").format(f"{r.user_facts_kept:,}", f"{r.user_facts:,}"))
        html = (f"<b>{head}</b>{facts}<br>{escape(self._model_line(r))}"
                f"<table>{table}</table><small>{escape(r.explanation)}</small>")
        if r.recommendations:
            items = "".join(f"<li>{escape(item)}</li>" for item in r.recommendations)
            html += f"<br><b>{escape(self.tr('Recommendations'))}</b><ul>{items}</ul>"
        return html
