"""Snapshot encoding: the full EngineState, zlib-compressed JSON, plus its browser columns."""

from __future__ import annotations

import sqlite3
import zlib
from datetime import datetime

from ollm_desktop.engine.models import EngineState
from ollm_desktop.storage.models import SnapshotInfo

INFO_COLUMNS = (
    "id, chat_id, created_at, reason, label, auto, message_count, tokens, checkpoint_count, "
    "model, tier"
)


def encode_state(state: EngineState) -> bytes:
    return zlib.compress(state.model_dump_json().encode("utf-8"), 6)


def decode_state(blob: bytes) -> EngineState:
    return EngineState.model_validate_json(zlib.decompress(blob))


def state_tokens(state: EngineState) -> int:
    """Tokens of the whole display history at that moment (what a full restore brings back).

    The context actually sent is smaller once compacted; it depends on the engine config and
    is shown live after a restore, so the browser column reports the history size instead.
    """
    return sum(m.tokens for m in state.messages)


def info_from_row(row: sqlite3.Row | tuple) -> SnapshotInfo:
    (sid, chat_id, created, reason, label, auto, count, tokens, checkpoints, model, tier) = row
    return SnapshotInfo(
        id=sid, chat_id=chat_id, created_at=datetime.fromisoformat(created), reason=reason,
        label=label, auto=bool(auto), message_count=count, tokens=tokens,
        checkpoint_count=checkpoints, model=model, tier=tier,
    )
