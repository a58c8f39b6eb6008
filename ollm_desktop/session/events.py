"""What the session tells its adapter: change sets, one context snapshot, and stream events.

All frozen: a payload handed to the UI can never be mutated under it, and a test can compare
them by value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Literal

from pydantic import BaseModel, Field

from ollm_desktop.backend import ModelInfo
from ollm_desktop.engine import (
    CompactionReport,
    CompressedGroup,
    ContextUsage,
    GoalState,
    Message,
    Reliability,
)
from ollm_desktop.storage.models import ChatRecord, RecallRecord

ProblemKind = Literal[
    "busy", "input", "storage", "model_not_found", "unreachable", "compaction", "undo",
    "snapshot", "import", "export", "send", "internal", "context_overflow", "timeout",
    "server", "stream", "bad_request", "unknown",
]


class OllamaStatus(BaseModel):
    """The server's state (named for Ollama, the first kind; any server kind fills it)."""

    reachable: bool
    host: str
    version: str | None = None
    models: list[str] = Field(default_factory=list)
    model_missing: bool = False
    can_start: bool = False
    error: str | None = None
    server: str = "Ollama"  # how the server is named in messages ("vLLM", "LM Studio", ...)
    can_pull: bool = True  # the server downloads models on request (only Ollama does)
    can_delete: bool = False  # the server deletes models on request (only Ollama does)
    error_kind: str | None = None  # why it is not reachable ("unauthorized", "invalid", ...)


class ReplyInfo(BaseModel):
    stopped: bool = False
    error: str | None = None
    removed: bool = False  # nothing arrived; the empty reply was discarded
    user_message_id: str | None = None
    prompt_tokens: int | None = None
    reply_tokens: int | None = None
    truncated: bool = False  # Ollama's prompt count suggests it dropped context
    retried: bool = False  # refused as too long: fitted again and resent (a new reply follows)
    recalled: RecallRecord | None = None  # what its request recalled from earlier in the chat


@dataclass(frozen=True)
class Problem:
    """Something the user must be told about, with a kind the window can react to."""

    kind: str
    text: str


@dataclass(frozen=True)
class Change:
    """What one operation changed; the adapter refreshes exactly that.

    ``save``: the open chat's engine state changed and must be written (the adapter's
    operation helper does it once, after the operation).
    """

    chats: bool = False  # the chat list (titles, order, a chat added or removed)
    opened: ChatRecord | None = None  # a chat was opened
    history: bool = False  # reload messages, groups and visibility
    added: tuple[Message, ...] = ()
    updated: tuple[Message, ...] = ()
    context: bool = False  # usage, groups, goal, visibility: emit a new ContextSnapshot
    snapshots: bool = False
    save: bool = False
    notices: tuple[str, ...] = ()
    problems: tuple[Problem, ...] = ()

    def __or__(self, other: Change) -> Change:
        merged: dict[str, object] = {}
        for f in fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if isinstance(a, tuple):
                merged[f.name] = a + b
            elif f.name == "opened":
                merged[f.name] = b if b is not None else a
            else:
                merged[f.name] = a or b
        return Change(**merged)  # type: ignore[arg-type]

    @property
    def empty(self) -> bool:
        return self == NOTHING

    @staticmethod
    def problem(kind: str, text: str) -> Change:
        return Change(problems=(Problem(kind, text),))

    @staticmethod
    def notice(text: str) -> Change:
        return Change(notices=(text,))


NOTHING = Change()


@dataclass(frozen=True)
class ContextSnapshot:
    """Everything the window shows about the open chat's context, at one moment."""

    chat: ChatRecord | None = None
    model: str | None = None
    usage: ContextUsage | None = None
    reliability: Reliability | None = None
    visibility: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    groups: tuple[CompressedGroup, ...] = ()
    goal: GoalState | None = None
    can_undo: bool = False
    compaction_count: int = 0
    warn: bool = False  # reliability turned critical: say so once per chat
    trained_context: int | None = None  # what the model was trained for, when known
    # The context the server serves the model with (llama.cpp's slot, vLLM's max_model_len...):
    # the most a chat may plan with; None where the chat sets it (Ollama's num_ctx).
    server_window: int | None = None


@dataclass(frozen=True)
class ReplyStarted:
    message: Message


@dataclass(frozen=True)
class ReplyChunk:
    message_id: str
    text: str


@dataclass(frozen=True)
class ReplyThinking:
    """A thinking model's reasoning as it streams (shown live, collapsed; never sent)."""

    message_id: str
    text: str


@dataclass(frozen=True)
class ReplyFinished:
    message: Message
    info: ReplyInfo


@dataclass(frozen=True)
class SendFailed:
    """A send that did not happen: the text goes back into the input, with the reason."""

    text: str
    reason: str


@dataclass(frozen=True)
class CompactionStarted:
    pass


@dataclass(frozen=True)
class CompactionProgress:
    stage: str
    percent: float


@dataclass(frozen=True)
class CompactionEnded:
    report: CompactionReport

    @property
    def failed(self) -> bool:
        return self.report.status == "failed"


@dataclass(frozen=True)
class StatusChanged:
    status: OllamaStatus


@dataclass(frozen=True)
class ModelsChanged:
    models: tuple[ModelInfo, ...]


@dataclass(frozen=True)
class PullProgress:
    status: str
    completed: int | None
    total: int | None
    model: str = ""  # what is being downloaded


@dataclass(frozen=True)
class BusyChanged:
    busy: bool


SessionEvent = (Change | ReplyStarted | ReplyChunk | ReplyThinking | ReplyFinished | SendFailed
                | CompactionStarted | CompactionProgress | CompactionEnded | StatusChanged
                | ModelsChanged | PullProgress | BusyChanged)
