"""Records the store returns; shared by the controller and the UI."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from ollm_desktop.engine.models import ContextSize, EngineState

SnapshotReason = Literal[
    "auto-threshold", "before-compaction", "before-undo", "before-restore", "manual", "import"
]


class ChatRecord(BaseModel):
    id: str
    title: str
    model: str | None = None
    context_size: ContextSize = 8192
    created_at: datetime
    updated_at: datetime
    message_count: int = 0


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


class StartupNotice(BaseModel):
    """Something the user must be told at start (e.g. a corrupt database was set aside)."""

    level: Literal["info", "warning", "error"] = "warning"
    text: str
    backup_path: str | None = None
    extra: dict[str, str] = Field(default_factory=dict)
