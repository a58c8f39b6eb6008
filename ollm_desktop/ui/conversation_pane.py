"""The conversation list and the message input: built by the window's light shell for its
first picture of the stored chat, then adopted as they are by the full window content (so
text typed meanwhile, the scroll position and the rows' cached sizes carry over)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from ollm_desktop.ui.composer.message_input import MessageInput
from ollm_desktop.ui.conversation.conversation_model import ConversationModel
from ollm_desktop.ui.conversation.conversation_view import ConversationView


def _tr(text: str) -> str:
    return QCoreApplication.translate("MainWindow", text)


@dataclass
class ConversationPane:
    model: ConversationModel
    view: ConversationView
    input: MessageInput


def build_pane(send_key: str = "enter") -> ConversationPane:
    """``send_key``: the preference, read before the full settings load (the first picture
    must send as the window will)."""
    model = ConversationModel()
    view = ConversationView()
    view.setModel(model)
    box = MessageInput()
    box.setObjectName("messageInput")
    box.setAccessibleName(_tr("Message"))
    box.set_send_key(send_key)
    box.setMaximumHeight(110)
    return ConversationPane(model, view, box)
