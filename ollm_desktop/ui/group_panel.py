"""Side panel for one compressed group: its checkpoint (Summary) and originals (History)."""

from __future__ import annotations

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

from ollm_desktop.engine.models import CompressedGroup, Message
from ollm_desktop.ui.conversation_model import ConversationModel, format_count
from ollm_desktop.ui.conversation_view import ConversationView
from ollm_desktop.ui.markdown import (
    SafeTextDocument,
    escape_markdown,
    markdown_fragment,
    style_code_blocks,
)
from ollm_desktop.ui.roles import PRESERVED, SUMMARIZED


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
        self.title.setText(self.tr("Compressed group {0} of {1}").format(*position)
                           if position else self.tr("Compressed group"))
        self.subtitle.setText(self.tr("{0} → {1} tokens · level {2}").format(
            format_count(group.original_tokens), format_count(group.current_tokens),
            group.level))
        self._fill_summary(group)
        replaced = set(group.message_ids)
        visibility = {m.id: SUMMARIZED if m.id in replaced else PRESERVED for m in originals}
        self.history_model.set_history(originals, [], visibility)
        self.history_view.scrollToTop()  # read from the first message, not the last
        self.undo_button.setEnabled(is_newest)
        self.undo_hint.setText("" if is_newest else self.tr(
            "Only the newest compaction can be undone."))

    # ------------------------------------------------------------ summary
    def level_name(self, level: int) -> str:
        return {3: self.tr("detailed"), 2: self.tr("moderate"),
                1: self.tr("compact")}.get(level, "")

    def summary_markdown_parts(self, group: CompressedGroup) -> list[tuple[str, bool]]:
        """(markdown, is_model_text) parts; model text is parsed as its own fragment."""
        e = escape_markdown
        ratio = group.ratio * 100
        facts = [
            f"**{e(self.tr('Level'))}:** {group.level} · {e(self.level_name(group.level))}",
            f"**{e(self.tr('Tokens'))}:** {e(format_count(group.original_tokens))} → "
            f"{e(format_count(group.current_tokens))} "
            f"({e(self.tr('{0}% of the original').format(f'{ratio:.0f}'))})",
            f"**{e(self.tr('Messages'))}:** "
            + e(self.tr("{0} summarised, {1} kept verbatim").format(
                len(group.message_ids), len(group.preserved_ids))),
            f"**{e(self.tr('Created'))}:** "
            + e(group.created_at.astimezone().strftime("%Y-%m-%d %H:%M")),
        ]
        if group.merged_from:
            facts.append(f"**{e(self.tr('Merged from'))}:** "
                         + e(self.tr("{0} groups").format(len(group.merged_from))))
        if group.focus:
            facts.append(f"**{e(self.tr('Focus'))}:** {e(group.focus)}")
        parts: list[tuple[str, bool]] = [("  \n".join(facts), False),
                                         (f"### {e(self.tr('Checkpoint'))}", False),
                                         (group.summary or "", True)]
        for title, items in ((self.tr("Key decisions"), group.key_decisions),
                             (self.tr("Files"), group.files),
                             (self.tr("Next steps"), group.next_steps)):
            if items:
                parts.append((f"### {e(title)}\n\n" + "\n".join(f"- {e(i)}" for i in items),
                              False))
        if group.history:
            lines = []
            for step in group.history:
                levels = (f"{step.from_level} → {step.to_level}" if step.from_level is not None
                          else str(step.to_level))
                lines.append("- " + e(self.tr("{0} · level {1} · {2} → {3} tokens · {4}").format(
                    self.step_name(step.kind), levels, format_count(step.tokens_before),
                    format_count(step.tokens_after),
                    step.at.astimezone().strftime("%Y-%m-%d %H:%M"))))
            parts.append((f"### {e(self.tr('Aging history'))}\n\n" + "\n".join(lines), False))
        return parts

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
