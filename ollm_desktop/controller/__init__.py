"""The Qt adapter between the window and the Qt-free chat session."""

from ollm_desktop.controller.chat_controller import ChatController, context_tier
from ollm_desktop.session import ContextSnapshot, OllamaStatus, ReplyInfo, Settings
from ollm_desktop.session.branches import Alternatives
from ollm_desktop.session.documents import DocumentRow
from ollm_desktop.session.events import PullProgress

__all__ = [
    "Alternatives", "ChatController", "ContextSnapshot", "DocumentRow", "OllamaStatus",
    "PullProgress", "ReplyInfo", "Settings", "context_tier",
]
