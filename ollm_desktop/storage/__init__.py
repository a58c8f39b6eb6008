"""Persistence: one SQLite file (chats, messages, engine state, snapshots); no Qt."""

from ollm_desktop.storage.models import (
    ChatRecord,
    SalvageReport,
    SearchHit,
    Snapshot,
    SnapshotInfo,
    StartupNotice,
)
from ollm_desktop.storage.schema import APPLICATION_ID, LATEST_VERSION, StorageError
from ollm_desktop.storage.store import ChatStore

__all__ = [
    "APPLICATION_ID",
    "LATEST_VERSION",
    "ChatRecord",
    "ChatStore",
    "SalvageReport",
    "SearchHit",
    "Snapshot",
    "SnapshotInfo",
    "StartupNotice",
    "StorageError",
]
