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
        self.compressions = 1
        # The facts panel's own figures: facts the user stated (typed or in a message) that
        # are current, and how many of them the next request sends.
        self.stated_facts: tuple[int, int] | None = None
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
        self.reliability, self.compressions = r, compressions
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

    def set_stated_facts(self, stated: int, sent: int) -> None:
        """The facts panel's count of the user's facts, for the tooltip's line about them."""
        if self.stated_facts != (stated, sent):
            self.stated_facts = (stated, sent)
            if self.reliability is not None:
                self.set_reliability(self.reliability, self.compressions)

    def _facts_line(self) -> str:
        if self.stated_facts is None or not self.stated_facts[0]:
            return ""
        stated, sent = self.stated_facts
        return "<br>" + escape(self.tr(
            "You stated {0} facts in this chat (the Facts panel lists them); the next message "
            "sends {1} of them.").format(f"{stated:,}", f"{sent:,}"))

    def _model_line(self, r: Reliability) -> str:
        if not r.model_known:
            return self.tr("The model's size is unknown, so it is not counted in the score.")
        return self.tr("{0} ({1}). The model's size is not part of this figure.").format(
            r.model_note, r.model_size)

    def _fresh_tooltip(self, r: Reliability) -> str:
        head = escape(self.tr("Nothing has been compressed yet"))
        body = escape(self.tr(
            "Every message is sent word for word. From the first compression on, the level "
            "says how much of what you said the checkpoints kept."))
        return (f"<b>{head}</b><br>{body}{self._facts_line()}<br>"
                f"{escape(self._model_line(r))}")

    def _tooltip(self, r: Reliability) -> str:
        rows = [
            (self.tr("Compression penalty (facts lost)"), f"×{r.compression_penalty:.2f}"),
            (self.tr("Context confidence"), f"×{r.context_confidence:.2f}"),
            (self.tr("This chat"), f"{round(r.chat_score * 100)}%"),
        ]  # one figure: the one beside the dot (the model's size is a line of its own)
        table = "".join(f"<tr><td>{escape(a)}</td><td align='right'>&nbsp;&nbsp;{escape(b)}"
                        f"</td></tr>" for a, b in rows)
        head = escape(self.tr("Reliability {0}: {1}%").format(
            self.level_text(r.level).lower(), round(r.chat_score * 100)))
        facts = self._facts_line()
        if r.user_facts:
            facts += "<br>" + escape(self.tr(
                "The summaries kept {0} of the {1} names, paths and numbers of your summarised "
                "messages word for word.").format(f"{r.user_facts_kept:,}", f"{r.user_facts:,}"))
        lost = escape(self.tr("Compressions that lost something you said: {0} of {1}.").format(
            r.costly_compressions, self.compressions))
        # The engine's own explanation names its combined score: a second figure, left out.
        html = (f"<b>{head}</b>{facts}<br>{escape(self._model_line(r))}"
                f"<table>{table}</table><small>{lost}</small>")
        if r.recommendations:
            items = "".join(f"<li>{escape(item)}</li>" for item in r.recommendations)
            html += f"<br><b>{escape(self.tr('Recommendations'))}</b><ul>{items}</ul>"
        return html
