"""Regenerate / Continue, and the rest of what the conversation rows need from the window
(and the input's send key, from the preferences).

``build_actions`` makes the two QActions (object names ``actionRegenerate`` and
``actionContinue`` are a contract); ``connect`` wires the rows: which reply is streaming now
(any other unfinished one shows as stopped, with Continue and Regenerate), the budget share
named on summarised messages of the user, search hits that open a chat at their message, and
group numbers as the markers show them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence

from ollm_desktop.controller import ContextSnapshot

if TYPE_CHECKING:
    from ollm_desktop.ui.conversation.host import ConversationHost, ReplyActionsHost

REGENERATE_KEY = "Ctrl+Shift+R"
CONTINUE_KEY = "Ctrl+Shift+C"


def _tr(text: str) -> str:
    return QCoreApplication.translate("ReplyActions", text)


def build_actions(content: ReplyActionsHost) -> tuple[QAction, QAction]:
    """(Regenerate, Continue), added to the window so their shortcuts work everywhere."""
    window, controller = content.window, content.controller
    made = []
    for name, text, key, slot, tip in (
            ("actionRegenerate", _tr("R&egenerate reply"), REGENERATE_KEY,
             controller.regenerate, _tr("Send the last request again for a new reply")),
            ("actionContinue", _tr("Con&tinue reply"), CONTINUE_KEY, controller.continue_reply,
             _tr("Let the model finish the stopped reply"))):
        action = QAction(text, window)
        action.setObjectName(name)
        action.setShortcut(QKeySequence(key))
        action.setStatusTip(tip)
        action.setToolTip(tip)
        action.triggered.connect(slot)
        window.addAction(action)
        made.append(action)
    return made[0], made[1]


def follow_send_key(content: ReplyActionsHost) -> None:
    """The preferred send key to the input (its placeholder) and the empty chat's hint."""
    key = content.controller.settings.send_key
    content.message_input.set_send_key(key)
    content.conversation_view.set_send_key(key)


def connect(content: ReplyActionsHost) -> None:
    """Which reply streams, the user's budget share, the row buttons' actions."""
    c, model, view = content.controller, content.conversation_model, content.conversation_view
    follow_send_key(content)
    view.set_reply_actions({"regenerate": content.action_regenerate,
                            "continue": content.action_continue})
    c.replyStarted.connect(model.set_streaming)
    c.replyFinished.connect(lambda *_: model.set_streaming(None))
    c.busyChanged.connect(lambda busy: None if busy else model.set_streaming(None))

    def share(snap: ContextSnapshot) -> None:
        model.set_user_share(snap.usage.user_share if snap.usage is not None else 0)

    c.contextChanged.connect(share)


def open_search_hit(content: ConversationHost, chat_id: str, message_id: str) -> None:
    """A search hit opens its chat at its message."""
    c = content.controller
    if c.chat is None or c.chat.id != chat_id:
        c.open_chat(chat_id)
    if c.chat is not None and c.chat.id == chat_id:
        content.conversation_view.scroll_to_message(message_id)
