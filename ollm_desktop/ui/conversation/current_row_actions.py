"""The message actions of the Conversation menu are enabled only while there is a message for
them to act on.

Delete message, Pin / unpin, Show recalled and Show sources act on the conversation's current
row. Without one (a chat just opened, a marker selected, the row deleted) the menu offered
them and a click did nothing at all, which reads as a broken app. Each is now enabled exactly
when its own test passes for the current row. The rows' hover buttons still work on any row:
pressing one makes its row current before the click triggers the action. Not bound: the
actions that have a target without a row (Regenerate: the newest reply; Edit and resend and
Fork: the newest message).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtGui import QAction

from ollm_desktop.ui.conversation.conversation_model import ConversationRow
from ollm_desktop.ui.conversation.roles import KIND_MESSAGE

if TYPE_CHECKING:
    from ollm_desktop.ui.conversation.conversation_view import ConversationView
    from ollm_desktop.ui.conversation.host import CurrentRowActionsHost

Applies = Callable[[ConversationRow], bool]
# Row actions that act on the newest message when no row is current.
WITHOUT_A_ROW = frozenset({"actionRegenerate", "actionEditMessage", "actionForkChat"})


def is_message(row: ConversationRow) -> bool:
    return row.kind == KIND_MESSAGE and row.message is not None


def _on_a_message(applies: Applies) -> Applies:
    return lambda row: is_message(row) and applies(row)


class CurrentRowActions(QObject):
    """Keeps each bound action's enabled state in step with the view's current row."""

    def __init__(self, view: ConversationView) -> None:
        super().__init__(view)
        self._view = view
        self._bound: list[tuple[QAction, Applies]] = []
        self._tips: dict[QAction, str] = {}
        self._why = QCoreApplication.translate(
            "CurrentRowActions", "Click a message in the conversation first")
        selection = view.selectionModel()
        if selection is not None:
            selection.currentChanged.connect(self.refresh)
        model = view.conversation_model
        if model is not None:  # rows come and go, and a streaming row changes
            for signal in (model.modelReset, model.rowsInserted, model.rowsRemoved,
                           model.dataChanged, model.layoutChanged):
                signal.connect(self.refresh)

    def bind(self, action: QAction, applies: Applies) -> None:
        self._bound.append((action, applies))
        self._tips[action] = action.toolTip()  # shown again while enabled
        self.refresh()

    def current_row(self) -> ConversationRow | None:
        model, index = self._view.conversation_model, self._view.currentIndex()
        if model is None or not index.isValid() or index.row() >= len(model.rows):
            return None
        return model.rows[index.row()]

    def refresh(self, *_: object) -> None:
        row = self.current_row()
        for action, applies in self._bound:
            enabled = row is not None and applies(row)
            action.setEnabled(enabled)
            action.setToolTip(self._tips[action] if enabled else self._why)  # says why


def install(content: CurrentRowActionsHost) -> CurrentRowActions:
    """Binds Pin / unpin and the row actions that need a row (installed after the features
    that add row actions)."""
    view = content.conversation_view
    keeper = CurrentRowActions(view)
    keeper.bind(content.action_toggle_pin, is_message)
    for action, applies in view.message_actions:
        if action.objectName() not in WITHOUT_A_ROW:
            keeper.bind(action, _on_a_message(applies))
    return keeper

