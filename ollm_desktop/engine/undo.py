"""Undo of compactions and the earlier state as a branch (pure operations on the data).

Undo restores the compaction state (checkpoints, left-out ids, ledger) saved before a
compaction and keeps every newer message; messages are never part of an undo entry.
"""

from __future__ import annotations

from ollm_desktop.engine.conversation import Conversation
from ollm_desktop.engine.models import EngineState


def restore_previous(data: Conversation) -> bool:
    """Pop the newest undo entry into ``data``; False when there is none."""
    if not data.undo:
        return False
    entry = data.undo.pop()
    data.groups = [g.model_copy(deep=True) for g in entry.groups]
    data.dropped = list(entry.dropped_ids)
    data.ledger = [e.model_copy() for e in entry.ledger]
    data.compaction_count = entry.compaction_count
    data.retry_after = None
    return True


def state_before_last(data: Conversation) -> EngineState | None:
    """The chat as it was when its newest compaction ran (its messages up to that point)."""
    if not data.undo:
        return None
    entry = data.undo[-1]
    state = data.state()
    end = entry.message_count if entry.message_count is not None else len(data.messages)
    state.messages = state.messages[:end]
    state.groups = [g.model_copy(deep=True) for g in entry.groups]
    state.dropped_ids = list(entry.dropped_ids)
    state.ledger = [e.model_copy() for e in entry.ledger]
    state.compaction_count = entry.compaction_count
    state.undo_stack = [u.model_copy(deep=True) for u in data.undo[:-1]]
    return state
