"""Edit and resend, Fork from here, Regenerate on the row, and the versions of a message.

``actionEditMessage`` puts one of the user's messages into the input with a bar saying what
Send will do (a new branch from that point; the original stays); ``actionForkChat`` opens a new
chat with the history, checkpoints and pins up to a message. Both are in the Conversation
menu, the row's menu and its hover buttons, with a shortcut. A message with other versions
(an earlier reply, an edit) shows "‹ 2/3 ›"; ``branchSelector``, one widget over the row under
the mouse (or the selected one, or the newest visible one), pages through them: each version
is a chat of the family, so the whole state switches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QWidget,
)

from ollm_desktop.controller import Alternatives
from ollm_desktop.engine.models import Message
from ollm_desktop.ui.conversation.conversation_model import ConversationRow
from ollm_desktop.ui.conversation.roles import KIND_MESSAGE
from ollm_desktop.ui.conversation.row_header import branch_rect

if TYPE_CHECKING:
    from ollm_desktop.ui.conversation.host import BranchActionsHost

EDIT_KEY = "Ctrl+E"
FORK_KEY = "Ctrl+Shift+F"


def _tr(text: str) -> str:
    return QCoreApplication.translate("BranchActions", text)


class EditBar(QFrame):
    """Above the input while a message is being edited: what Send does, and Cancel."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("editBar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.text = QLabel(_tr("Editing your message. Send makes a new branch from that point; "
                               "the original stays as it was (‹ › on the message switches)."))
        self.text.setWordWrap(True)
        self.cancel_button = QPushButton(_tr("Cancel edit"))
        self.cancel_button.setObjectName("editCancel")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 4, 6, 4)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.cancel_button)
        self.hide()


class BranchSelector(QFrame):
    """‹ 2/3 › over the row it belongs to: previous and next version of that message."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("branchSelector")
        self.setAccessibleName(_tr("Versions of this message"))
        self.previous = QToolButton()
        self.previous.setText("‹")
        self.previous.setObjectName("branchPrevious")
        self.previous.setToolTip(_tr("Previous version (its own branch of the chat)"))
        self.label = QLabel()
        self.label.setObjectName("branchLabel")
        self.next = QToolButton()
        self.next.setText("›")
        self.next.setObjectName("branchNext")
        self.next.setToolTip(_tr("Next version (its own branch of the chat)"))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(2, 0, 2, 0)
        layout.setSpacing(2)
        for button in (self.previous, self.next):
            button.setAutoRaise(True)
        for widget in (self.previous, self.label, self.next):
            layout.addWidget(widget)
        self.message_id: str | None = None
        self.hide()


class BranchActions(QObject):
    def __init__(self, content: BranchActionsHost) -> None:
        super().__init__(content.window)
        self.content = content
        self._alternatives: dict[str, Alternatives] = {}
        view, c = content.conversation_view, content.controller
        self.view, self.controller = view, c
        self.edit_action = self._action("actionEditMessage", _tr("&Edit and resend…"),
                                        _tr("Edit"), EDIT_KEY, self.edit,
                                        _tr("Put your message in the input: Send makes a new "
                                            "branch from there, the original stays"))
        self.fork_action = self._action("actionForkChat", _tr("&Fork from here"), _tr("Fork"),
                                        FORK_KEY, self.fork,
                                        _tr("A new chat with this chat's history, checkpoints "
                                            "and pins up to this message"))
        regenerate = content.action_regenerate
        regenerate.setIconText(_tr("Regenerate"))
        view.message_actions += [
            (self.edit_action, lambda row: row.message is not None
             and row.message.role == "user" and not row.streaming),
            (self.fork_action, lambda row: row.message is not None and not row.streaming),
            (regenerate, self._regenerable),
        ]
        view.message_delegate.row_actions = self._row_actions
        menu = content.menus["conversation"]
        after_reply = menu.actions()[2]  # after Regenerate, Continue and their separator
        menu.insertActions(after_reply, [self.edit_action, self.fork_action])
        self.edit_bar = EditBar()
        holder = content.message_input.parentWidget()
        layout = holder.layout() if holder is not None else None
        assert isinstance(layout, QBoxLayout)
        layout.insertWidget(layout.indexOf(content.message_input), self.edit_bar)
        self.edit_bar.cancel_button.clicked.connect(self.cancel_edit)
        self._draft = ""
        self._restore_draft = False
        self.selector = BranchSelector(view.viewport())
        self.selector.previous.clicked.connect(lambda: self.switch(-1))
        self.selector.next.clicked.connect(lambda: self.switch(+1))
        self._place_timer = QTimer(self)
        self._place_timer.setSingleShot(True)
        self._place_timer.setInterval(0)
        self._place_timer.timeout.connect(self.place)
        view.viewport().installEventFilter(self)
        view.verticalScrollBar().valueChanged.connect(self._place_timer.start)
        model = content.conversation_model
        for signal in (model.modelReset, model.rowsInserted, model.layoutChanged,
                       model.dataChanged):
            signal.connect(self._place_timer.start)
        c.historyReset.connect(self.refresh)
        c.chatsChanged.connect(self.refresh)
        c.replyFinished.connect(lambda *_: self.refresh())
        c.chatOpened.connect(self._chat_opened)
        c.messageAdded.connect(self._message_added)
        c.sendFailed.connect(self._edit_state_changed)
        c.historyReset.connect(self._drop_edit_if_gone)
        c.busyChanged.connect(lambda _busy: self._place_timer.start())

    def _action(self, name: str, text: str, short: str, key: str, slot: object,
                tip: str) -> QAction:
        action = QAction(text, self.content.window)
        action.setObjectName(name)
        action.setIconText(short)
        action.setShortcut(QKeySequence(key))
        action.setToolTip(tip)
        action.setStatusTip(tip)
        action.triggered.connect(slot)
        self.content.window.addAction(action)
        return action

    def _row_actions(self, row: ConversationRow) -> list[tuple[str, str]]:
        # Not by isEnabled: that follows the current row (current_row_actions), and a
        # row's own buttons act on it (pressing one makes it current first).
        return [(a.objectName(), a.iconText()) for a, applies in self.view.message_actions
                if applies(row)]

    def _regenerable(self, row: ConversationRow) -> bool:
        model = self.content.conversation_model
        return (row.message is not None and row.message.role == "assistant"
                and not row.actions and not row.streaming
                and model.row_of_message(row.message.id) == model.last_message_row())

    # ------------------------------------------------------------ targets
    def _target(self, *, user_only: bool) -> str | None:
        """The selected message, or the newest (the newest of the user's for an edit)."""
        current = self.view.current_message_id()
        message = self.controller.message(current) if current else None
        if message is not None and (message.role == "user" or not user_only):
            return message.id
        for candidate in reversed(self.controller.display_messages()):
            if candidate.role == "user" or not user_only:
                return candidate.id
        return None

    # ------------------------------------------------------------ edit
    def edit(self) -> None:
        target = self._target(user_only=True)
        if target is None:
            return
        text = self.controller.begin_edit(target)
        if text is None:
            return
        box = self.content.message_input
        if not self.edit_bar.isVisible():
            self._draft = box.toPlainText()
        box.setPlainText(text)
        box.selectAll()
        box.setFocus()
        self.edit_bar.show()

    def cancel_edit(self) -> None:
        self.controller.cancel_edit()
        self.edit_bar.hide()
        self.content.message_input.setPlainText(self._draft)
        self._draft = ""

    def _chat_opened(self, _chat: object) -> None:
        if self.controller.editing is not None:  # another chat opened mid-edit: dropped
            self.cancel_edit()
        elif self.edit_bar.isVisible():  # the edit was sent: the draft comes back after it
            self._restore_draft = True
        self.edit_bar.hide()
        self.refresh()

    def _drop_edit_if_gone(self) -> None:
        editing = self.controller.editing
        if editing is not None and self.controller.message(editing) is None:
            self.controller.cancel_edit()  # deleted while being edited; the text stays
            self._draft = ""
            self.edit_bar.hide()

    def _edit_state_changed(self, *_args: object) -> None:
        """The edit ended without this bar (the edited message was deleted, a send said
        why): the bar goes, the text stays in the input."""
        if self.controller.editing is None and self.edit_bar.isVisible():
            self.edit_bar.hide()

    def _message_added(self, message: Message) -> None:
        if self._restore_draft and message.role == "user":
            self._restore_draft = False
            draft, self._draft = self._draft, ""
            box = self.content.message_input
            if draft and not box.toPlainText().strip():
                box.setPlainText(draft)

    # ------------------------------------------------------------ fork
    def fork(self) -> None:
        target = self._target(user_only=False)
        if target is not None:
            self.controller.fork_chat(target)

    # ------------------------------------------------------------ versions
    def refresh(self, *, force: bool = False) -> None:
        found = self.controller.alternatives()
        self._alternatives = found
        labels = {message_id: a.label for message_id, a in found.items()}
        delegate = self.view.message_delegate
        if labels != delegate.alternatives:
            delegate.alternatives = labels
            self.view.viewport().update()
        self.place(force=force)

    def switch(self, step: int) -> None:
        message_id = self.selector.message_id
        if message_id is None:
            return
        shown = self.controller.switch_alternative(message_id, step)
        if shown is not None:
            self.view.scroll_to_message(shown)
        self.refresh(force=True)

    def _row_for_selector(self) -> int | None:
        model, delegate = self.content.conversation_model, self.view.message_delegate
        alternatives = delegate.alternatives
        if not alternatives:
            return None
        for key in (delegate.hover_key, self.view.current_message_id()):
            if key is not None and key in alternatives:
                return model.row_of_message(key)
        top = self.view.indexAt(self.view.viewport().rect().topLeft()).row()
        bottom = self.view.indexAt(self.view.viewport().rect().bottomLeft()).row()
        if top < 0:
            return None
        bottom = bottom if bottom >= 0 else len(model.rows) - 1
        for position in range(bottom, top - 1, -1):
            row = model.rows[position]
            if row.kind == KIND_MESSAGE and row.message and row.message.id in alternatives:
                return position
        return None

    def place(self, *, force: bool = False) -> None:
        """Put the selector on its row (or hide it) and let that row leave the chip out."""
        delegate, selector = self.view.message_delegate, self.selector
        if selector.isVisible() and selector.underMouse() and not force:
            return  # the mouse went from the row onto the selector: it stays put
        position = self._row_for_selector()
        row = self.content.conversation_model.rows[position] if position is not None else None
        rect = None
        if row is not None and row.message is not None and not self.controller.busy:
            index = self.content.conversation_model.index(position or 0)
            rect = branch_rect(delegate, row, self.view.visualRect(index))
        old = delegate.selector_row
        if rect is None or row is None or row.message is None:
            selector.hide()
            selector.message_id = delegate.selector_row = None
        else:
            found = self._alternatives.get(row.message.id)
            selector.message_id = delegate.selector_row = row.message.id
            selector.label.setText(found.label if found else "")
            selector.previous.setEnabled(bool(found and found.index > 0))
            selector.next.setEnabled(bool(found and found.index + 1 < found.count))
            selector.setGeometry(rect.adjusted(0, -2, 0, 2))
            selector.show()
            selector.raise_()
        if old != delegate.selector_row:
            self.view.viewport().update()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.MouseMove, QEvent.Type.Leave, QEvent.Type.Resize):
            self._place_timer.start()
        return False


def install(content: BranchActionsHost) -> BranchActions:
    return BranchActions(content)
