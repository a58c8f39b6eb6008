"""The search hit the user opened: its message's matches are highlighted in the conversation.

The highlight is drawn into the row's document when the delegate builds it (the row's
``marks``); setting or clearing it gives the row a new layout revision, so the delegate's
document cache builds that one document again. It ends when the search changes or another
chat opens, and follows the row through history reloads of the same chat.
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QObject
from PySide6.QtGui import QColor, QTextCharFormat, QTextDocument, QTextFormat

from ollm_desktop.ui.conversation.conversation_model import ConversationModel, _revisions
from ollm_desktop.ui.text.markdown import SafeTextDocument

HIT_PROPERTY = int(QTextFormat.Property.UserProperty) + 41  # set on highlighted text (tests)
HIT_BACKGROUND = QColor(255, 213, 79)  # amber: readable on light and dark cards
HIT_TEXT = QColor(26, 26, 26)


def mark_matches(needle: str, doc: SafeTextDocument) -> SafeTextDocument:
    """Give every case-insensitive occurrence of ``needle`` in ``doc`` the hit format."""
    if not needle:
        return doc
    hit = QTextCharFormat()
    hit.setBackground(HIT_BACKGROUND)
    hit.setForeground(HIT_TEXT)
    hit.setProperty(HIT_PROPERTY, True)
    cursor = doc.find(needle, 0, QTextDocument.FindFlag(0))
    while not cursor.isNull():
        cursor.mergeCharFormat(hit)
        cursor = doc.find(needle, cursor, QTextDocument.FindFlag(0))
    return doc


class SearchHighlight(QObject):
    """At most one highlighted message (the opened hit) in the conversation model."""

    def __init__(self, model: ConversationModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("searchHighlight")
        self._model = model
        self._target: tuple[str, str] | None = None  # message id, the searched text
        model.modelReset.connect(self._follow)

    @property
    def target(self) -> tuple[str, str] | None:
        return self._target

    def show(self, message_id: str, needle: str) -> None:
        self.clear()
        if needle.strip():
            self._target = (message_id, needle.strip())
            self._mark(message_id, needle.strip())

    def clear(self) -> None:
        if self._target is not None:
            message_id, _needle = self._target
            self._target = None
            self._mark(message_id, None)

    def _follow(self) -> None:
        """The history was reloaded: its rows are new, the highlight goes on the new one."""
        if self._target is not None:
            self._mark(*self._target)

    def _mark(self, message_id: str, needle: str | None) -> None:
        model = self._model
        position = model.row_of_message(message_id)
        if position is None:
            return
        row = model.rows[position]
        row.marks = partial(mark_matches, needle) if needle else None
        row.layout_revision, row.revision = next(_revisions), next(_revisions)
        index = model.index(position)
        model.dataChanged.emit(index, index)
