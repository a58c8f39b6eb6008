"""Records the store returns; shared by the controller and the UI."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from ollm_desktop.engine.models import CONTEXT_SIZE_MAX, ContextSize, EngineState
from ollm_desktop.storage.documents.models import DocumentSource

SnapshotReason = Literal[
    "auto-threshold", "before-compaction", "before-undo", "before-restore", "manual", "import"
]


# Limits of a chat's own model parameters (what Ollama accepts and a person would choose).
Temperature = Annotated[float, Field(ge=0.0, le=2.0)]
TopP = Annotated[float, Field(ge=0.0, le=1.0)]
Seed = Annotated[int, Field(ge=0, le=2**31 - 1)]
ReplyLimit = Annotated[int, Field(ge=1, le=CONTEXT_SIZE_MAX)]  # num_predict
# Ollama's keep_alive: a Go duration ("10m", "1h30m", "0") or whole seconds; -1 keeps it forever.
KEEP_ALIVE_PATTERN = r"^-?(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$|^-?\d+$"
KeepAlive = Annotated[str, StringConstraints(strip_whitespace=True, pattern=KEEP_ALIVE_PATTERN)]


class ChatSettings(BaseModel):
    """One chat's own settings; None means "the default": the Preferences' system prompt and
    keep_alive, Ollama's (the model file's) value for the sampling options.

    The chat's context size (num_ctx) is not here: it is ``ChatRecord.context_size``, which
    every chat always has (set from Preferences when it is created).
    """

    model_config = ConfigDict(frozen=True, extra="ignore")

    system_prompt: str | None = None
    temperature: Temperature | None = None
    top_p: TopP | None = None
    seed: Seed | None = None
    num_predict: ReplyLimit | None = None
    keep_alive: KeepAlive | None = None
    # The id of the connection (server) this chat talks to; None: "Local Ollama", which every
    # chat made before connections existed belongs to (the list is in the Preferences).
    connection: str | None = None
    # Recall: earlier rounds of this chat that a new message asks about join its request.
    # None: on (every chat made before the switch); new chats take the Preferences' default.
    recall: bool | None = None

    @field_validator("system_prompt", "keep_alive", mode="before")
    @classmethod
    def _blank_is_default(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @property
    def recall_on(self) -> bool:
        return self.recall is not False

    def sampling(self) -> dict[str, float | int]:
        """The Ollama ``options`` this chat sets (a reply's sampling; never num_ctx)."""
        values = {"temperature": self.temperature, "top_p": self.top_p, "seed": self.seed,
                  "num_predict": self.num_predict}
        return {name: value for name, value in values.items() if value is not None}


class ChatRecord(BaseModel):
    id: str
    title: str
    model: str | None = None
    context_size: ContextSize = 8192
    created_at: datetime
    updated_at: datetime
    message_count: int = 0
    settings: ChatSettings = Field(default_factory=ChatSettings)
    pinned: bool = False  # kept at the top of the chat list
    parent_id: str | None = None  # the chat a branch or fork was made from
    root_id: str | None = None  # a branch's family (its first chat); None: its own root
    branch_kind: Literal["", "branch", "fork"] = ""
    branch_label: str = ""  # what made the branch ("Edited: …", "Earlier reply")

    @property
    def family_id(self) -> str:
        """The chats that are versions of one conversation share it."""
        return self.root_id or self.id

    @property
    def is_branch(self) -> bool:
        return self.branch_kind == "branch"


class RecalledItem(BaseModel):
    """One earlier round a request recalled: its messages (the user's, then the reply)."""

    message_ids: list[str]
    turn: int = Field(1, ge=1)
    partial: bool = False  # only its matching sentences went
    score: float = 0.0


class RecallRecord(BaseModel):
    """What one reply's request recalled from earlier in its chat, kept with the reply
    (``messages.meta``): its row says so and shows the text on demand."""

    items: list[RecalledItem] = Field(default_factory=list)
    text: str = ""  # exactly what was appended to the user's message as sent
    tokens: int = Field(0, ge=0)
    semantic: bool = False  # meaning search (embeddings) took part
    # Passages of attached documents the request carried (``session.documents``).
    sources: list[DocumentSource] = Field(default_factory=list)

    @property
    def message_count(self) -> int:
        return sum(len(item.message_ids) for item in self.items)


class SnapshotInfo(BaseModel):
    """One row of the snapshot browser."""

    id: str
    chat_id: str
    created_at: datetime
    reason: SnapshotReason
    label: str = ""
    auto: bool = True
    message_count: int
    tokens: int
    checkpoint_count: int
    model: str | None = None
    tier: int | None = None


class Snapshot(BaseModel):
    """The full, immutable state of one chat at a moment."""

    info: SnapshotInfo
    state: EngineState


class SearchHit(BaseModel):
    chat_id: str
    chat_title: str
    message_id: str
    role: str
    snippet: str
    created_at: datetime


class SalvageReport(BaseModel):
    """What a damaged database still held, copied into the new database that replaced it.

    ``*_expected`` are SQLite's counts in the damaged file (often still known from an intact
    index when table pages are lost); None when even those could not be read.
    """

    chats: int = 0
    chats_expected: int | None = None
    chats_rebuilt: int = 0  # found only through their messages (the chat's row was lost)
    messages: int = 0
    messages_expected: int | None = None
    snapshots: int = 0
    snapshots_expected: int | None = None
    states_reset: int = 0  # checkpoints dropped: they summarised messages that were lost
    short_chats: list[str] = Field(default_factory=list)  # titles of chats that lost messages

    @property
    def found_anything(self) -> bool:
        return bool(self.chats or self.messages or self.snapshots)

    @property
    def lost_messages(self) -> int:
        return max(0, (self.messages_expected or 0) - self.messages)

    @property
    def lost_chats(self) -> int:
        return max(0, (self.chats_expected or 0) - self.chats)

    @property
    def lost_snapshots(self) -> int:
        return max(0, (self.snapshots_expected or 0) - self.snapshots)


class StartupNotice(BaseModel):
    """Something the user must be told at start (e.g. a corrupt database was set aside)."""

    level: Literal["info", "warning", "error"] = "warning"
    text: str
    backup_path: str | None = None
    extra: dict[str, str] = Field(default_factory=dict)
    salvage: SalvageReport | None = None  # a damaged database's readable rows were recovered
