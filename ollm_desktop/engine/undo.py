"""Undo of compactions and the earlier state as a branch (pure operations on the data).

Undo restores the compaction state (checkpoints, left-out ids, the facts ledger) saved before
a compaction and keeps every newer message; messages are never part of an undo entry. What the
user did to the facts since (added, edited, pinned, forgotten) stays: an undo of a compaction
is not an undo of the user's own changes.
"""

from __future__ import annotations

from ollm_desktop.engine.conversation import Conversation
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.models import EngineState


def with_users_changes(saved: list[Fact], now: list[Fact]) -> list[Fact]:
    """The facts as ``saved``, with the user's changes made since kept (by id)."""
    current = {f.id: f for f in now}
    result: list[Fact] = []
    for fact in saved:
        later = current.get(fact.id)
        if later is not None and (later.edited, later.pinned, later.status == "forgotten") \
                != (fact.edited, fact.pinned, fact.status == "forgotten"):
            fact = fact.model_copy(update={"value": later.value, "edited": later.edited,
                                           "original": later.original, "pinned": later.pinned,
                                           "status": later.status})
        result.append(fact.model_copy())
    known = {f.id for f in result}
    result += [f.model_copy() for f in now if f.source == "manual" and f.id not in known]
    return sorted(result, key=lambda f: f.sequence)


def restore_previous(data: Conversation) -> bool:
    """Pop the newest undo entry into ``data``; False when there is none."""
    if not data.undo:
        return False
    entry = data.undo.pop()
    data.groups = [g.model_copy(deep=True) for g in entry.groups]
    data.dropped = list(entry.dropped_ids)
    data.facts = with_users_changes(entry.facts, data.facts)
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
    kept = {m.id for m in state.messages}
    state.facts = [f for f in with_users_changes(entry.facts, data.facts)
                   if f.message_id is None or f.message_id in kept]
    state.compaction_count = entry.compaction_count
    state.undo_stack = [u.model_copy(deep=True) for u in data.undo[:-1]]
    return state
