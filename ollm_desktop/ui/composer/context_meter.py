"""Status-bar meter: how full the context is, the tier, and where the tokens go (tooltip)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QWidget

from ollm_desktop.engine.models import ContextUsage
from ollm_desktop.ui.text.context_size_text import format_context_size
from ollm_desktop.ui.theme import status_color

WARN_PERCENT = 0.80  # of the usable context
WARN_TRIGGER_SHARE = 0.85  # recent tokens this close to the compaction trigger
NOTE_WIDTH = 360


def usage_level(usage: ContextUsage) -> str:
    """"over" when something no longer fits, "warn" near the trigger or 80 %, else "ok"."""
    if usage.over_budget or usage.percent >= 1.0 or usage.dropped_messages:
        return "over"
    near_trigger = usage.trigger > 0 and usage.recent >= WARN_TRIGGER_SHARE * usage.trigger
    if usage.percent >= WARN_PERCENT or near_trigger:
        return "warn"
    return "ok"


class ContextMeter(QWidget):
    """Shows a ContextUsage; holds no state beyond the last usage it was given."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("contextMeter")
        self.setAccessibleName(self.tr("Context usage"))
        self.usage: ContextUsage | None = None
        self.level = "idle"
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 0, 6, 0)
        layout.setSpacing(8)
        self.note_label = QLabel()
        self.note_label.setObjectName("contextNote")
        self.note_label.setAccessibleName(self.tr("Context warning"))
        font = self.note_label.font()
        font.setBold(True)
        self.note_label.setFont(font)
        self.note_label.hide()
        self.tier_label = QLabel()
        self.tier_label.setObjectName("contextTier")
        self.tier_label.setAccessibleName(self.tr("Context size"))
        self.bar = QProgressBar()
        self.bar.setObjectName("contextBar")
        self.bar.setAccessibleName(self.tr("Context fill"))
        self.bar.setRange(0, 1000)
        self.bar.setTextVisible(False)
        self.bar.setFixedSize(110, 10)
        self.text_label = QLabel(self.tr("In use: —"))
        self.text_label.setObjectName("contextText")
        self.text_label.setAccessibleName(self.tr("Context tokens"))
        layout.addWidget(self.note_label)
        layout.addWidget(self.tier_label)
        layout.addWidget(self.bar, 0, Qt.AlignmentFlag.AlignVCenter)
        layout.addWidget(self.text_label)
        self._set_level("idle")

    def set_usage(self, usage: ContextUsage) -> None:
        self.usage = usage
        percent = round(usage.percent * 100)
        parts = [self.tr("In use: {0} / {1}").format(f"{usage.total:,}", f"{usage.usable:,}"),
                 f"{percent}%"]
        if usage.compaction_count == 1:
            parts.append(self.tr("1 compression"))
        elif usage.compaction_count > 1:
            parts.append(self.tr("{0} compressions").format(usage.compaction_count))
        self.text_label.setText(" · ".join(parts))
        # Plain words in the bar; the tier (which sets the checkpoints' sizes) in the tooltip.
        self.tier_label.setText(self.tr("Context: {0} tokens").format(
            f"{usage.context_size:,}"))
        self.bar.setValue(max(0, min(1000, round(usage.percent * 1000))))
        self._set_level(usage_level(usage))
        if usage.note:
            metrics = self.note_label.fontMetrics()
            self.note_label.setText(metrics.elidedText(
                "⚠ " + usage.note, Qt.TextElideMode.ElideRight, NOTE_WIDTH))
            self.note_label.setToolTip(usage.note)
            self.note_label.show()
        else:
            self.note_label.clear()
            self.note_label.hide()
        tooltip = self._tooltip(usage)
        for widget in (self, self.bar, self.text_label, self.tier_label):
            widget.setToolTip(tooltip)
        self.setAccessibleDescription(self.text_label.text())

    def _set_level(self, level: str) -> None:
        self.level = level
        color = status_color(level)
        palette = self.bar.palette()
        palette.setColor(QPalette.ColorRole.Highlight, color)
        self.bar.setPalette(palette)
        self.note_label.setStyleSheet(f"color: {color.name()};" if level == "over" else "")

    def _tooltip(self, usage: ContextUsage) -> str:
        rows = [
            (self.tr("System prompt"), usage.system),
            (self.tr("Goal"), usage.goal),
            (self.tr("Checkpoints ({0})").format(usage.checkpoint_count), usage.checkpoints),
            (self.tr("Preserved (pinned, user)"), usage.preserved),
            (self.tr("Pinned (all)"), usage.pinned),
            (self.tr("Recent messages"), usage.recent),
            (self.tr("Available for recent"), usage.available),
            (self.tr("Compaction trigger"), usage.trigger),
        ]
        body = "".join(
            f"<tr><td>{escape(name)}</td><td align='right'>&nbsp;&nbsp;{value:,}</td></tr>"
            for name, value in rows)
        head = escape(self.tr("Context: {0} tokens, {1} usable (the rest is kept for the "
                              "reply)").format(f"{usage.context_size:,}", f"{usage.usable:,}"))
        tier = escape(self.tr(
            "At {0}, older messages are summarised into {1}: small contexts keep one summary "
            "that is rewritten, larger ones keep several and shorten the oldest.").format(
            format_context_size(usage.context_size),
            self.tr("one summary") if usage.tier <= 2 else self.tr("several summaries")))
        total = escape(self.tr("Sent to the model: {0} tokens ({1}%)").format(
            f"{usage.total:,}", round(usage.percent * 100)))
        extra = ""
        if usage.dropped_messages:
            extra += "<br>" + escape(self.tr("{0} messages left out to fit").format(
                usage.dropped_messages))
        if usage.note:
            extra += f"<br><b>{escape(usage.note)}</b>"
        return f"<b>{head}</b><br>{total}<table>{body}</table>{extra}<br><i>{tier}</i>"
