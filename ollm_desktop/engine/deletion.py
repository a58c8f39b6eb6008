"""Deleting one message from a chat, and putting it back (undo): pure operations on the data.

A deleted message leaves the display history, the request and every id list of the
compaction state at once (checkpoints, the older checkpoint sets kept for undo, the left-out
ids), so nothing refers to a message that is gone: a reload, an export, a branch and an undo
of compaction all see a consistent chat. A summarised message (its id in a checkpoint's
``message_ids``) is taken out of its checkpoint's lists, but the summary text is not
rewritten (no compaction rebuilds a summary from its messages: aging condenses the summary's
own text, merging reuses it), so what the message said stays there; the session says so.
A checkpoint left with no summarised message at all goes with that last one: nothing it stands
for is still in the chat, and it would have no place (no marker) in the history.
The facts the message stated go with it, from the ledger and from the ledgers kept for undo;
a value one of them had replaced is current again.

Undo is exact when the compaction state has not changed since: the message returns to its
place with its id, pin, counts and details, and the state before the deletion comes back.
After a compaction (or an undo of one) in between, the message still returns to its place and
the region treats it as any message no checkpoint knows: sent word for word until the next
compaction folds it. Nothing is lost either way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ollm_desktop.engine.conversation import Conversation
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.models import CompressedGroup, Message, UndoEntry
from ollm_desktop.engine.stage import Stage

COMPACTING = "A compaction is running; try again when it has finished."


class Marks(NamedTuple):
    """The compaction state that refers to messages by id (copies)."""

    groups: list[CompressedGroup]
    undo: list[UndoEntry]
    dropped: list[str]
    facts: list[Fact]


@dataclass(frozen=True, slots=True)
class Deleted:
    """One deletion, enough to undo it (kept by the session, never stored)."""

    message: Message
    position: int
    after_id: str | None  # the message before it (None: it was the first)
    summarised: bool  # its content stays in a checkpoint that stays
    removed_groups: tuple[str, ...]  # checkpoints that went with it
    before: Marks
    after: Marks
    calibration: tuple[float, int]  # (estimate_scale, message_overhead) of its count


def _marks(data: Conversation) -> Marks:
    return Marks([g.model_copy(deep=True) for g in data.groups],
                 [u.model_copy(deep=True) for u in data.undo], list(data.dropped),
                 [f.model_copy() for f in data.facts])


def _same_marks(now: Marks, then: Marks) -> bool:
    """The same compaction state, whatever the calibration: a checkpoint's count follows the
    model's tokenizer factor, which a reply or a reopen may have moved since the delete."""
    def plain(marks: Marks) -> Marks:
        groups = [g.model_copy(update={"current_tokens": 0}) for g in marks.groups]
        return marks._replace(groups=groups)

    return plain(now) == plain(then)


def _without(groups: list[CompressedGroup], message_id: str,
             ) -> tuple[list[CompressedGroup], list[str]]:
    """``groups`` without ``message_id``; the ids of those it was the last summarised one of."""
    kept: list[CompressedGroup] = []
    removed: list[str] = []
    for group in groups:
        if message_id in group.span_ids or message_id in group.message_ids:
            summarised = message_id in group.message_ids
            group.message_ids = [i for i in group.message_ids if i != message_id]
            group.span_ids = [i for i in group.span_ids if i != message_id]
            if summarised and not group.message_ids:
                removed.append(group.id)
                continue
        kept.append(group)
    return kept, removed


def without_facts_of(facts: list[Fact], message_id: str) -> list[Fact]:
    """The facts without those ``message_id`` stated; what they replaced is current again."""
    gone = {f.id for f in facts if f.message_id == message_id}
    kept = [f.model_copy() for f in facts if f.id not in gone]
    for fact in kept:
        if fact.status == "replaced" and fact.replaced_by in gone:
            fact.status, fact.replaced_by = "current", None
        if fact.disputed_by in gone:
            fact.disputed_by = None
    return kept


def delete(stage: Stage, message_id: str) -> Deleted:
    """Take ``message_id`` out of the chat; ``KeyError`` if unknown, ``RuntimeError`` while a
    compaction runs (it planned with this message)."""
    if stage.compacting():
        raise RuntimeError(COMPACTING)
    data = stage.data
    position = data.position(message_id)
    if position is None:
        raise KeyError(message_id)
    before = _marks(data)
    message = data.messages.pop(position)
    data.reindex()
    data.groups, removed = _without(data.groups, message_id)
    summarised = any(message_id in g.message_ids for g in before.groups
                     if g.id not in removed)
    for entry in data.undo:
        entry.groups = _without(entry.groups, message_id)[0]
        entry.dropped_ids = [i for i in entry.dropped_ids if i != message_id]
        entry.facts = without_facts_of(entry.facts, message_id)  # an undo must not bring them
        if entry.message_count is not None and entry.message_count > position:
            entry.message_count -= 1
    data.dropped = [i for i in data.dropped if i != message_id]
    data.facts = without_facts_of(data.facts, message_id)
    for key in [k for k in data.part_tokens if k[0] == message_id]:
        del data.part_tokens[key]
    config = data.config
    deleted = Deleted(message=message, position=position,
                      after_id=data.messages[position - 1].id if position else None,
                      summarised=summarised, removed_groups=tuple(removed), before=before,
                      after=_marks(data),
                      calibration=(config.estimate_scale, config.message_overhead))
    stage.changed()
    return deleted


def restore(stage: Stage, deleted: Deleted) -> bool:
    """Put a deleted message back; True when the compaction state came back exactly.

    ``ValueError`` when the message is in the chat already, ``RuntimeError`` while a
    compaction runs.
    """
    if stage.compacting():
        raise RuntimeError(COMPACTING)
    data = stage.data
    message = deleted.message.model_copy()
    if message.id in data.index:
        raise ValueError(f"message {message.id} is in the conversation already")
    if deleted.after_id is None:
        position = 0
    elif (after := data.position(deleted.after_id)) is not None:
        position = after + 1
    else:
        position = min(deleted.position, len(data.messages))
    _recount(data, message, deleted.calibration)
    exact = _same_marks(_marks(data), deleted.after)
    data.messages.insert(position, message)
    data.reindex()
    if exact:
        before = deleted.before
        data.groups = [g.model_copy(deep=True) for g in before.groups]
        for group in data.groups:  # at the calibration of now (it may have moved meanwhile)
            group.current_tokens = data.count(group.summary)
        data.undo = [u.model_copy(deep=True) for u in before.undo]
        data.dropped = list(before.dropped)
        data.facts = [f.model_copy() for f in before.facts]
    else:
        for entry in data.undo:
            if entry.message_count is not None and entry.message_count > position:
                entry.message_count += 1
    stage.changed()
    return exact


def _recount(data: Conversation, message: Message, calibration: tuple[float, int]) -> None:
    """The message's count in the model's units now (the calibration may have moved since):
    the rule every stored count follows, applied to this one message."""
    scale, overhead = calibration
    config = data.config
    if (scale, overhead) != (config.estimate_scale, config.message_overhead):
        Conversation(config=config, messages=[message]).recount(scale, overhead)
