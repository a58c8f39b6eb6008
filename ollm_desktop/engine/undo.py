"""Undo of compactions and the earlier state as a branch (pure operations on the data).

Undo restores the compaction state (checkpoints, left-out ids, the facts ledger) saved before
a compaction and keeps every newer message; messages are never part of an undo entry. What the
user did to the facts since (added, edited, pinned, forgotten) stays: an undo of a compaction
is not an undo of the user's own changes. Nor of the newer messages: the facts they stated
(a correction is read at once) stay, with what they replaced. Converted facts of a chat saved
before the ledger (``LEGACY_MESSAGE``) belong to no message and stay like typed ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from ollm_desktop.engine.branching import facts_within, without_dangling
from ollm_desktop.engine.conversation import LEGACY_MESSAGE, Conversation
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.models import EngineState, UndoEntry


def _users(fact: Fact) -> tuple[object, ...]:
    """What the user may change in the panel (values too: a second edit changes no flag)."""
    return fact.value, fact.original, fact.edited, fact.pinned, fact.status == "forgotten"


def with_users_changes(saved: list[Fact], now: list[Fact],
                       later: frozenset[str] = frozenset()) -> list[Fact]:
    """The facts as ``saved``, with what happened since kept: the user's changes (by id),
    typed and converted facts, and the facts of the ``later`` messages (ids of messages
    added after the compaction) with the replacements they made."""
    current = {f.id: f for f in now}
    known = {f.id for f in saved}
    newer = [f.model_copy() for f in now if f.id not in known and (
        f.source == "manual" or f.message_id == LEGACY_MESSAGE or f.message_id in later)]
    newer_ids = {f.id for f in newer}
    result: list[Fact] = []
    for fact in saved:
        was = current.get(fact.id)
        update: dict[str, object] = {}
        if was is not None and _users(was) != _users(fact):
            update = {"value": was.value, "edited": was.edited, "original": was.original,
                      "pinned": was.pinned}
            if (was.status == "forgotten") != (fact.status == "forgotten"):
                update |= {"status": was.status, "replaced_by": was.replaced_by}
        if was is not None and was.status == "replaced" and was.replaced_by in newer_ids \
                and update.get("status", fact.status) == "current":
            update |= {"status": "replaced", "replaced_by": was.replaced_by}
        result.append(fact.model_copy(update=update))
    return without_dangling(sorted([*result, *newer], key=lambda f: f.sequence))


def _later(data: Conversation, entry: UndoEntry) -> frozenset[str]:
    """The messages added after ``entry``'s compaction ran."""
    if entry.message_count is None:
        return frozenset()
    return frozenset(m.id for m in data.messages[entry.message_count:])


def restore_previous(data: Conversation) -> bool:
    """Pop the newest undo entry into ``data``; False when there is none."""
    if not data.undo:
        return False
    entry = data.undo.pop()
    data.groups = [g.model_copy(deep=True) for g in entry.groups]
    data.dropped = list(entry.dropped_ids)
    data.facts = with_users_changes(entry.facts, data.facts, _later(data, entry))
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
    state.facts = facts_within(with_users_changes(entry.facts, data.facts),
                               {m.id for m in state.messages})
    state.compaction_count = entry.compaction_count
    state.undo_stack = [u.model_copy(deep=True) for u in data.undo[:-1]]
    return state


@dataclass(frozen=True, slots=True)
class UndoResult:
    ok: bool
    reason: str
    left_out: int = 0  # messages left out of the context until the next compaction
