"""A chat's state as it stood at one of its messages: what a branch (edit and resend) or a
fork starts from.

Every message is kept up to the cut, with its pin. Checkpoints are kept only where they
summarise messages before the cut alone: a checkpoint that also covers later messages would
carry their content into the branch, so that stretch goes back to its verbatim, pre-compaction
form (seed 004's "undo compaction as a new branch"). The undo stack remembers earlier
checkpoint sets; the one that still covers the most of the kept messages wins, so an edit deep
inside a merged checkpoint keeps the older checkpoints that lay wholly before it. The undo
entries older than the set it keeps, and wholly before the cut, go with it: its newest
checkpoint can be undone in the copy as in the original.

The goal's checkpoints, decisions, artifacts and next steps are rebuilt from what the copy
keeps (the markers of its replies, then its checkpoints' summaries), as they were built in the
first place: a decision taken in a reply after the cut (say, to the very message being edited)
does not follow into the branch. Its description, priority and status stay.

Copies remember where they came from (``Message.origin``): chats of one family that share a
message share its origin, which is how a message's alternatives are found.
"""

from __future__ import annotations

from ollm_desktop.engine import goals
from ollm_desktop.engine.conversation import LEGACY_MESSAGE
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.models import (
    BreakerState,
    CompressedGroup,
    EngineState,
    GoalState,
    UndoEntry,
)


def _covered(groups: list[CompressedGroup]) -> int:
    return sum(len(g.span_ids or g.message_ids) for g in groups)


def _within(groups: list[CompressedGroup], kept: set[str]) -> list[CompressedGroup]:
    return [g for g in groups if set(g.span_ids or g.message_ids) <= kept]


def _undo_within(entries: list[UndoEntry], kept: set[str], groups: list[CompressedGroup],
                 end: int) -> list[UndoEntry]:
    """The undo entries a copy keeps: wholly before the cut, and not the set it starts from."""
    current = [g.id for g in groups]
    result: list[UndoEntry] = []
    for entry in entries:
        if _within(entry.groups, kept) != entry.groups or [g.id for g in entry.groups] == current:
            continue
        count = min(entry.message_count if entry.message_count is not None else end, end)
        result.append(entry.model_copy(deep=True, update={
            "dropped_ids": [i for i in entry.dropped_ids if i in kept], "message_count": count,
            "facts": facts_within(entry.facts, kept)}))
    return result


def state_up_to(state: EngineState, message_id: str, *, keep_message: bool) -> EngineState:
    """The state at ``message_id`` (included when ``keep_message``), with origins set.

    Raises ``KeyError`` when the message is not in ``state``.
    """
    position = next((i for i, m in enumerate(state.messages) if m.id == message_id), None)
    if position is None:
        raise KeyError(message_id)
    end = position + 1 if keep_message else position
    messages = [m.model_copy(update={"origin": m.origin or m.id}) for m in state.messages[:end]]
    kept = {m.id for m in messages}
    # Candidate checkpoint sets: now, then each remembered earlier one (newest first).
    candidates: list[tuple[list[CompressedGroup], list[str]]] = [
        (state.groups, state.dropped_ids)]
    candidates += [(u.groups, u.dropped_ids) for u in reversed(state.undo_stack)]
    options = [(_within(groups, kept), dropped) for groups, dropped in candidates]
    # max() keeps the first (newest) of equals
    chosen = max(range(len(options)), key=lambda i: _covered(options[i][0]))
    groups, dropped = options[chosen]
    older = state.undo_stack[:len(state.undo_stack) - chosen] if chosen else state.undo_stack
    undo = _undo_within(older, kept, groups, end)
    goal = GoalState(description=state.goal.description, priority=state.goal.priority,
                     status=state.goal.status, updated_at=state.goal.updated_at)
    for message in messages:
        if message.role == "assistant":
            goals.apply_goal_markers(goal, message.content)
    for group in groups:
        goals.apply_summary_markers(goal, group.summary)
    return state.model_copy(update={
        "goal": goal,
        "messages": messages,
        "groups": [g.model_copy(deep=True) for g in groups],
        "dropped_ids": [i for i in dropped if i in kept],
        "ledger": [],
        "facts": facts_within(state.facts, kept),
        "undo_stack": undo,
        "retry_after_index": None,
        "breaker": BreakerState(),
    }, deep=True)


def facts_within(facts: list[Fact], kept: set[str]) -> list[Fact]:
    """The facts a copy keeps: those of its messages, those the user typed and those converted
    from a chat saved before the ledger (they belong to no message); a value replaced by a
    fact that stays behind is current again in the copy."""
    return without_dangling([f.model_copy() for f in facts if f.message_id is None or
                             f.message_id in kept or f.message_id == LEGACY_MESSAGE or
                             f.source == "manual"])


def without_dangling(facts: list[Fact]) -> list[Fact]:
    """``facts`` (changed in place) with a value whose replacement is gone current again."""
    ids = {f.id for f in facts}
    for fact in facts:
        if fact.status == "replaced" and fact.replaced_by not in ids:
            fact.status, fact.replaced_by = "current", None
    return facts
