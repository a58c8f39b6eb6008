"""The EngineState without its messages, in four independently written parts.

Checkpoints (``groups`` with ``dropped_ids``) and the undo stack hold the ids of every
compacted message, so they grow with the chat; the facts ledger (``chat_state.facts``) grows
with what the chat states and changes when the user edits a fact; the rest (goal, config,
counters) is small and changes often (goal markers). Keeping them apart means a goal or fact
change writes a few hundred bytes, not megabytes, and equality against the cached objects
(cheap: the id strings are shared between copies) tells which parts changed without
serialising them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from pydantic import TypeAdapter

from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.models import CompressedGroup, EngineState, Message, UndoEntry

_GROUPS = TypeAdapter(list[CompressedGroup])
_UNDO = TypeAdapter(list[UndoEntry])
_FACTS = TypeAdapter(list[Fact])
_SPLIT_OUT = {"messages", "groups", "dropped_ids", "undo_stack", "facts"}
Which = tuple[bool, bool, bool, bool]  # (meta, groups, undo, facts) to write


@dataclass
class StateParts:
    meta: str  # JSON of every small field
    groups: list[CompressedGroup]
    dropped_ids: list[str]
    undo: list[UndoEntry]
    facts: list[Fact]
    rendered: dict[str, str] = field(default_factory=dict)  # JSON made ahead (``render``)

    @classmethod
    def of(cls, state: EngineState) -> StateParts:
        return cls(state.model_dump_json(exclude=_SPLIT_OUT), state.groups, state.dropped_ids,
                   state.undo_stack, state.facts)

    def copy(self) -> StateParts:
        """A private copy for the cache (callers may mutate the state they passed)."""
        return StateParts(self.meta, [g.model_copy(deep=True) for g in self.groups],
                          list(self.dropped_ids), [u.model_copy(deep=True) for u in self.undo],
                          [f.model_copy() for f in self.facts])

    def merged_into(self, cached: StateParts | None, which: Which) -> StateParts:
        """The cache after writing: deep-copies only the parts that changed (copies are slow)."""
        if cached is None:
            return self.copy()
        meta, groups, undo, facts = which
        return StateParts(
            self.meta if meta else cached.meta,
            [g.model_copy(deep=True) for g in self.groups] if groups else cached.groups,
            list(self.dropped_ids) if groups else cached.dropped_ids,
            [u.model_copy(deep=True) for u in self.undo] if undo else cached.undo,
            [f.model_copy() for f in self.facts] if facts else cached.facts,
        )

    def render(self, which: Which | None) -> None:
        """Serialise the parts a write needs now (on a worker thread: it is the slow part)."""
        _meta, groups, undo, facts = which or (True, True, True, True)
        if groups:
            self.rendered["groups"] = self.groups_json()
        if undo:
            self.rendered["undo"] = self.undo_json()
        if facts:
            self.rendered["facts"] = self.facts_json()

    def groups_json(self) -> str:
        if "groups" in self.rendered:
            return self.rendered["groups"]
        return json.dumps({"groups": _GROUPS.dump_python(self.groups, mode="json"),
                           "dropped_ids": self.dropped_ids})

    def undo_json(self) -> str:
        return self.rendered.get("undo") or _UNDO.dump_json(self.undo).decode("utf-8")

    def facts_json(self) -> str:
        return self.rendered.get("facts") or _FACTS.dump_json(self.facts).decode("utf-8")

    def changes(self, cached: StateParts | None) -> Which:
        """(meta, groups, undo, facts) changed compared with ``cached``."""
        if cached is None:
            return True, True, True, True
        return (self.meta != cached.meta,
                self.groups != cached.groups or self.dropped_ids != cached.dropped_ids,
                self.undo != cached.undo, self.facts != cached.facts)

    @classmethod
    def parse(cls, meta: str, groups: str, undo: str, facts: str = "[]") -> StateParts:
        stored = json.loads(groups)
        return cls(meta, _GROUPS.validate_python(stored["groups"]),
                   [str(i) for i in stored["dropped_ids"]], _UNDO.validate_json(undo),
                   _FACTS.validate_json(facts))

    def state(self, messages: list[Message]) -> EngineState:
        """The whole state. A chat saved before step 5 has no facts of its own: its ``meta``
        holds the reference ledger (``EngineState.ledger``), which the engine converts when it
        loads the state; ``meta``'s own facts (a state written while they still travelled in
        it) count only while the column is empty."""
        state = EngineState.model_validate_json(self.meta)
        state.messages = messages
        state.groups = [g.model_copy(deep=True) for g in self.groups]
        state.dropped_ids = list(self.dropped_ids)
        state.undo_stack = [u.model_copy(deep=True) for u in self.undo]
        if self.facts or not state.facts:
            state.facts = [f.model_copy() for f in self.facts]
        return state


def readable_facts(stored: object) -> str:
    """A stored facts part as it reads (a salvage's copy), ``[]`` when it does not."""
    try:
        return _FACTS.dump_json(_FACTS.validate_json(str(stored))).decode("utf-8")
    except ValueError:  # pydantic's ValidationError is one
        return "[]"


@dataclass
class PreparedSave:
    """A save of a chat's state worked out (``prepare_engine_state``), to be written."""

    chat_id: str
    state: EngineState
    writes: int  # the store's write count it was worked out against
    changed: list[tuple[Message, bool]]  # with: its text changed
    new: list[Message]
    out_of_order: bool
    parts: StateParts
    which: Which | None  # None: every part
    merged: StateParts | None  # the parts cache after the write; None: no part changed
