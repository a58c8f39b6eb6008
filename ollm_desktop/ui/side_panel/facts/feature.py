"""The facts panel in the window: a "Facts" tab beside the goal (``actionFacts`` in the
Conversation menu), refreshed from the controller while it is in view; each change offers its
Undo in the window's undo bar, and that undo belongs to the chat it was made in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import QAction

from ollm_desktop.storage.models import ChatRecord
from ollm_desktop.ui.side_panel import docks
from ollm_desktop.ui.side_panel.facts.panel import FactActions, FactsPanel

if TYPE_CHECKING:
    from ollm_desktop.ui.side_panel.host import FactsHost


def _tr(text: str) -> str:
    return QCoreApplication.translate("FactsFeature", text)


class FactsFeature(QObject):
    def __init__(self, content: FactsHost) -> None:
        super().__init__(content.window)
        self._content = content
        window, c = content.window, content.controller
        self.panel = FactsPanel(FactActions(self.add, self.edit, self.forget, self.pin,
                                            content.conversation_view.scroll_to_message), window)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.panel)
        window.tabifyDockWidget(content.goal_panel, self.panel)
        self.panel.hide()
        self.action = QAction(_tr("&Facts"), window)
        self.action.setObjectName("actionFacts")
        tip = _tr("What the app remembers of this chat: add, edit, forget or pin a fact")
        self.action.setToolTip(tip)
        self.action.setStatusTip(tip)
        docks.follow(self.action, self.panel)
        window.addAction(self.action)
        content.menus["conversation"].addAction(self.action)  # after Goal
        self._offered_in: str | None = None  # the chat whose change the bar offers to undo
        self.panel.visibilityChanged.connect(lambda shown: self.refresh() if shown else None)
        c.contextChanged.connect(lambda _snapshot: self.refresh())
        c.chatOpened.connect(self._chat_opened)

    def refresh(self) -> None:
        if self.panel.isVisible():  # a tab behind another is refreshed when brought forward
            self.panel.set_view(self._content.controller.facts_view())

    # ------------------------------------------------------------ changes
    def add(self, text: str) -> bool:
        if not self._offer(self._content.controller.add_fact(text)):
            return False
        self.panel.select_last()  # the new one: facts are listed as they were stated
        return True

    def edit(self, fact_id: str, value: str) -> bool:
        return self._offer(self._content.controller.edit_fact(fact_id, value))

    def forget(self, fact_id: str) -> bool:
        return self._offer(self._content.controller.forget_fact(fact_id))

    def pin(self, fact_id: str, pinned: bool) -> bool:
        return self._offer(self._content.controller.set_fact_pinned(fact_id, pinned))

    def _offer(self, said: str | None) -> bool:
        """The change's Undo in the bar; False when it was refused (the reason is shown)."""
        chat = self._content.controller.chat
        if said is None or chat is None:
            return False
        if said:  # empty: nothing changed
            self._offered_in = chat.id
            self._content.undo_bar.offer(said, lambda: self._undo(said), self._expired)
        return True

    def _undo(self, said: str) -> None:
        self._offered_in = None
        controller = self._content.controller
        if not controller.undo_fact_change() and controller.can_undo_fact_change():
            self._offer(said)  # refused for now (a reply streams): offered again

    def _expired(self) -> None:
        self._offered_in = None

    def _chat_opened(self, chat: ChatRecord) -> None:
        if self._offered_in is not None and chat.id != self._offered_in:
            self._content.undo_bar.finish()  # the undo belongs to the chat it was made in


def install(content: FactsHost) -> FactsFeature:
    return FactsFeature(content)
