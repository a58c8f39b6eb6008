"""Qt-free chat session: owns the open chat's engine, store and backend.

Every operation returns a :class:`Change` (what the UI must refresh); long operations also
publish events while they run (reply chunks, compaction progress). The Qt adapter
(``ollm_desktop.controller``) turns both into signals; tests drive it with plain asyncio.
"""

from ollm_desktop.session.chat_session import ChatSession
from ollm_desktop.session.events import (
    Change,
    CompactionEnded,
    CompactionProgress,
    CompactionStarted,
    ContextSnapshot,
    ModelsChanged,
    OllamaStatus,
    Problem,
    PullProgress,
    ReplyChunk,
    ReplyFinished,
    ReplyInfo,
    ReplyStarted,
    SendFailed,
    SessionEvent,
    StatusChanged,
)
from ollm_desktop.session.settings import Settings, load_settings, save_settings

__all__ = [
    "Change", "ChatSession", "CompactionEnded", "CompactionProgress", "CompactionStarted",
    "ContextSnapshot", "ModelsChanged", "OllamaStatus", "Problem", "PullProgress", "ReplyChunk",
    "ReplyFinished", "ReplyInfo", "ReplyStarted", "SendFailed", "SessionEvent", "Settings",
    "StatusChanged", "load_settings", "save_settings",
]
