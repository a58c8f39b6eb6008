"""A tool's result is shown once: in its call's row, inside the reply that asked for it.

The store keeps each result as a message of its own (role ``tool``), so the conversation had a
row for it too, under a "Tool" header, repeating what the call's row already shows (cut, with
"Show all"). Such rows are hidden in the view (``QListView.setRowHidden``: the model keeps
them, so search, recall and the store are unchanged). A result whose call is not in the chat
(an import, a reply deleted) keeps its own row: otherwise it would not be seen at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex

if TYPE_CHECKING:
    from ollm_desktop.ui.conversation.conversation_model import ConversationModel
    from ollm_desktop.ui.conversation.conversation_view import ConversationView

AnyIndex = QModelIndex | QPersistentModelIndex


class ToolResultRows(QObject):
    """Hides the rows of results whose call shows them; follows the model's changes."""

    def __init__(self, view: ConversationView, model: ConversationModel) -> None:
        super().__init__(view)
        self._view, self._model = view, model
        self._calls: set[str] = set()  # the ids of the calls the chat's replies asked
        model.modelReset.connect(self.refresh)
        model.rowsInserted.connect(self._inserted)
        model.dataChanged.connect(self._changed)  # a reply's calls are set when it ends
        model.rowsRemoved.connect(self.refresh)  # rows shift: hidden flags are by row
        self.refresh()

    def refresh(self, *_: object) -> None:
        self._calls = set()
        self._inserted(QModelIndex(), 0, len(self._model.rows) - 1)

    def _inserted(self, _parent: AnyIndex, first: int, last: int) -> None:
        rows = self._model.rows[first:last + 1]
        for row in rows:
            for call in getattr(row.message, "tool_calls", None) or ():
                self._calls.add(call.id)
        for offset, row in enumerate(rows):
            message = row.message
            hidden = message is not None and message.role == "tool" and \
                message.tool_call_id in self._calls
            if hidden != self._view.isRowHidden(first + offset):
                self._view.setRowHidden(first + offset, hidden)

    def _changed(self, top: AnyIndex, bottom: AnyIndex, *_: object) -> None:
        known = len(self._calls)
        for row in self._model.rows[top.row():bottom.row() + 1]:
            for call in getattr(row.message, "tool_calls", None) or ():
                self._calls.add(call.id)
        if len(self._calls) != known:  # results stored before their reply's calls were
            self._inserted(QModelIndex(), top.row(), len(self._model.rows) - 1)

    def hidden_results(self) -> list[str]:
        """The ids of the result messages hidden now."""
        return [row.key for i, row in enumerate(self._model.rows) if self._view.isRowHidden(i)]
