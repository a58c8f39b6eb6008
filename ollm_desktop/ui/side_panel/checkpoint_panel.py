"""Side panel for one compressed group: its checkpoint (Summary) and originals (History)."""

from __future__ import annotations

import re
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QTextBlockFormat, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTabWidget,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.engine.extractive import NOTE, OLD_HEADERS
from ollm_desktop.engine.fact_keeping import measured_steps
from ollm_desktop.engine.models import CompressedGroup, Message
from ollm_desktop.ui.conversation.conversation_model import ConversationModel
from ollm_desktop.ui.conversation.conversation_view import ConversationView
from ollm_desktop.ui.conversation.roles import PRESERVED, SUMMARIZED
from ollm_desktop.ui.text.markdown import (
    SafeTextDocument,
    escape_markdown,
    markdown_fragment,
    style_code_blocks,
)
from ollm_desktop.ui.text.row_labels import counted, format_count, shortened_note

_HEADING = re.compile(r"^(#{1,6})(\s)")
_FENCE = re.compile(r"^\s*(```|~~~)")


def checkpoint_display_text(summary: str) -> str:
    """The checkpoint as the narrow panel shows it: its headings below the panel's own
    (level 4 and smaller), and an older extractive heading as the small note it now is."""
    lines, fenced = [], False
    for line in summary.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        elif line.strip() in OLD_HEADERS:
            line = NOTE
        elif not fenced:
            line = _HEADING.sub(lambda m: "#" * min(6, len(m.group(1)) + 2) + m.group(2), line)
        lines.append(line)
    return "\n".join(lines)


class GroupPanel(QWidget):
    undoRequested = Signal()
    closed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("groupPanel")
        self.setAccessibleName(self.tr("Compressed group"))
        self.group: CompressedGroup | None = None
        # (number, count) of a group among the markers the conversation shows: the title
        # counts what the user sees, not the compaction that made the group.
        self.numbering: Callable[[str], tuple[int, int] | None] = lambda _group_id: None

        self.title = QLabel(self.tr("Compressed group"))
        self.title.setObjectName("groupTitle")
        title_font = QFont(self.title.font())
        title_font.setPointSizeF(max(9.0, title_font.pointSizeF() * 1.2))
        title_font.setWeight(QFont.Weight.DemiBold)
        self.title.setFont(title_font)
        self.subtitle = QLabel()
        self.subtitle.setObjectName("groupSubtitle")
        self.subtitle.setEnabled(False)  # muted text from the palette
        self.subtitle.setTextFormat(Qt.TextFormat.PlainText)
        self.close_button = QToolButton()
        self.close_button.setObjectName("closeGroupButton")
        self.close_button.setText("✕")
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip(self.tr("Close"))
        self.close_button.setAccessibleName(self.tr("Close compressed group"))
        self.close_button.clicked.connect(self.closed)

        self.summary_view = QTextEdit()
        self.summary_view.setObjectName("groupSummary")
        self.summary_view.setAccessibleName(self.tr("Checkpoint summary"))
        self.summary_view.setReadOnly(True)
        self.summary_document = SafeTextDocument(self.summary_view)
        self.summary_document.setDocumentMargin(10)
        self.summary_view.setDocument(self.summary_document)

        self.history_model = ConversationModel(self)
        self.history_view = ConversationView()
        self.history_view.setObjectName("groupHistory")
        self.history_view.setAccessibleName(self.tr("Original messages"))
        self.history_view.set_read_only(True)
        self.history_view.setModel(self.history_model)

        self.tabs = QTabWidget()
        self.tabs.setObjectName("groupTabs")
        self.tabs.setAccessibleName(self.tr("Compressed group details"))
        self.tabs.addTab(self.summary_view, self.tr("Summary"))
        self.tabs.addTab(self.history_view, self.tr("History"))

        self.undo_button = QPushButton(self.tr("Undo this compaction"))
        self.undo_button.setObjectName("undoCompactionButton")
        self.undo_button.setAccessibleName(self.tr("Undo this compaction"))
        self.undo_button.setEnabled(False)
        self.undo_button.clicked.connect(self.undoRequested)
        self.undo_hint = QLabel()
        self.undo_hint.setWordWrap(True)
        self.undo_hint.setEnabled(False)

        header = QHBoxLayout()
        titles = QVBoxLayout()
        titles.setSpacing(2)
        titles.addWidget(self.title)
        titles.addWidget(self.subtitle)
        header.addLayout(titles, 1)
        header.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        footer = QHBoxLayout()
        footer.addWidget(self.undo_hint, 1)
        footer.addWidget(self.undo_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(header)
        layout.addWidget(self.tabs, 1)
        layout.addLayout(footer)

    def show_group(self, group: CompressedGroup, originals: list[Message],
                   is_newest: bool) -> None:
        self.group = group
        position = self.numbering(group.id)
        self.title.setText(self.tr("Checkpoint {0} of {1}").format(*position)
                           if position else self.tr("Checkpoint"))
        # The marker's own figures (conversation_model.marker_text): one source for each.
        self.subtitle.setText(self.tr("{0} → {1} tokens").format(
            format_count(group.original_tokens), format_count(group.current_tokens))
            + shortened_note(group.level))
        self._fill_summary(group)
        replaced = set(group.message_ids)
        visibility = {m.id: SUMMARIZED if m.id in replaced else PRESERVED for m in originals}
        self.history_model.set_history(originals, [], visibility)
        self.history_view.scrollToTop()  # read from the first message, not the last
        self.undo_button.setEnabled(is_newest)
        last = position is None or position[0] == position[1]
        if is_newest:
            self.undo_hint.setText("")
        elif last:
            self.undo_hint.setText(self.tr(
                "This chat does not hold the state before this compaction, so it cannot be "
                "undone here."))
        else:
            self.undo_hint.setText(self.tr("Only the newest compaction can be undone."))

    # ------------------------------------------------------------ summary
    def level_name(self, level: int) -> str:
        return {3: self.tr("detailed"), 2: self.tr("moderate"),
                1: self.tr("compact")}.get(level, "")

    def summary_markdown_parts(self, group: CompressedGroup) -> list[tuple[str, bool]]:
        """(markdown, is_model_text) parts; model text is parsed as its own fragment.

        Each figure has one source (the group's counts, the marker's wording); what the
        checkpoint's own text already says (its decisions, next steps, files) is not listed
        again after it."""
        e = escape_markdown
        ratio = group.ratio * 100
        facts = [
            f"**{e(self.tr('Detail'))}:** {e(self.level_name(group.level))}",
            f"**{e(self.tr('Tokens'))}:** {e(format_count(group.original_tokens))} → "
            f"{e(format_count(group.current_tokens))} "
            f"({e(self.tr('{0}% of the original').format(f'{ratio:.0f}'))})",
            f"**{e(self.tr('Messages'))}:** "
            + e(self.tr("{0} summarised, {1} kept verbatim").format(
                format_count(len(group.message_ids)), format_count(len(group.preserved_ids)))),
            f"**{e(self.tr('Created'))}:** "
            + e(group.created_at.astimezone().strftime("%Y-%m-%d %H:%M")),
        ]
        steps = measured_steps(group)
        if steps:
            facts.append(f"**{e(self.tr('Made by'))}:** " + e(counted(
                len(steps), self.tr("compression"), self.tr("compressions"))))
            stated = sum(s.user_facts or 0 for s in steps)
            kept = sum(s.user_facts_kept or 0 for s in steps)
            if stated:
                facts.append(f"**{e(self.tr('Your facts'))}:** " + e(self.tr(
                    "{0} of {1} still sent word for word").format(format_count(kept),
                                                                  format_count(stated))))
            lost = [fact for s in steps for fact in s.lost_facts]
            if lost:
                facts.append(f"**{e(self.tr('Not kept'))}:** " + e("; ".join(lost[:12])))
        elif group.merged_from:
            facts.append(f"**{e(self.tr('Merged from'))}:** " + e(counted(
                len(group.merged_from), self.tr("earlier checkpoint"),
                self.tr("earlier checkpoints"))))
        if group.focus:
            facts.append(f"**{e(self.tr('Focus'))}:** {e(group.focus)}")
        parts: list[tuple[str, bool]] = [("  \n".join(facts), False),
                                         (f"### {e(self.tr('Checkpoint'))}", False),
                                         (checkpoint_display_text(group.summary), True)]
        files = [f for f in group.files if f not in group.summary]
        if files:
            parts.append((f"### {e(self.tr('Files also named'))}\n\n"
                          + "\n".join(f"- {e(i)}" for i in files), False))
        if group.history:
            parts.append((f"### {e(self.tr('How this summary changed'))}\n\n"
                          + "\n".join(self.step_lines(group)), False))
        return parts

    def step_lines(self, group: CompressedGroup) -> list[str]:
        """One line per step; the last one made the current text, so its result is the
        group's current count (the same figure as the header, even after a recount)."""
        lines = []
        for number, step in enumerate(group.history, start=1):
            after = group.current_tokens if number == len(group.history) else step.tokens_after
            lines.append("- " + escape_markdown(self.tr(
                "{0} · read {1} → wrote {2} · {3}").format(
                self.step_name(step.kind),
                counted(step.tokens_before, self.tr("token"), self.tr("tokens")),
                counted(after, self.tr("token"), self.tr("tokens")),
                step.at.astimezone().strftime("%Y-%m-%d %H:%M"))))
        return lines

    def step_name(self, kind: str) -> str:
        return {"created": self.tr("Created"), "aged": self.tr("Aged"),
                "merged": self.tr("Merged"), "relabelled": self.tr("Relabelled")}.get(kind, kind)

    def _fill_summary(self, group: CompressedGroup) -> None:
        doc = self.summary_document
        doc.clear()
        cursor = QTextCursor(doc)
        for position, (text, _model_text) in enumerate(self.summary_markdown_parts(group)):
            if position:  # a fresh block: no list or code format leaks into the next part
                cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
            cursor.insertFragment(markdown_fragment(text))
        style_code_blocks(doc)
        self.summary_view.moveCursor(QTextCursor.MoveOperation.Start)
