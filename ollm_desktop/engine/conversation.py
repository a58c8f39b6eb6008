"""The engine's data for one chat: the display history and the compaction state.

One plain object shared by the stages (assembly, compaction, aging) so each stage is a small
module of its own, while ``ContextEngine`` stays the one public front. Counts live here
because they depend on the model's calibration (tokenizer factor, template overhead), and a
change of calibration must rescale every stored count, including after a reload.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ollm_desktop.engine.fact_types import Fact, FactKind
from ollm_desktop.engine.images import image_tokens
from ollm_desktop.engine.models import (
    BreakerState,
    CompressedGroup,
    EngineConfig,
    EngineState,
    GoalState,
    LedgerEntry,
    Message,
    UndoEntry,
)
from ollm_desktop.engine.tokens import count_tokens, scaled
from ollm_desktop.engine.tool_results import counted_text
from ollm_desktop.engine.tool_types import ToolSpec

LEGACY_OVERHEAD = 4  # what state version 1 added to every message count


@dataclass
class Conversation:
    config: EngineConfig
    system_prompt: str = ""
    messages: list[Message] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)
    groups: list[CompressedGroup] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)  # truncate strategy: left out for good
    goal: GoalState = field(default_factory=GoalState)
    # The goal as requests show it, while a marker in a recent reply has changed ``goal``: the
    # goal block sits near the front of every request, so showing the change at once would
    # make the server re-read the whole prompt; the marker itself is still sent word for word.
    # None: requests show ``goal``. Cleared by a compaction and by the user's own goal changes.
    goal_shown: GoalState | None = None
    facts: list[Fact] = field(default_factory=list)  # the facts ledger (``engine.facts``)
    # The chat has attached documents: the system message says how to cite their passages.
    documents_attached: bool = False
    compaction_count: int = 0
    undo: list[UndoEntry] = field(default_factory=list)
    breaker: BreakerState = field(default_factory=BreakerState)
    retry_after: int | None = None
    # Token counts of region parts by (message id, kind), with the text counted (a fact's
    # note changes a quote's text, not its id): the region is rebuilt after every compaction,
    # pin and fact change, and re-tokenising thousands of quoted requests is not free.
    part_tokens: dict[tuple[str, str], tuple[str, int]] = field(default_factory=dict)
    # The chat's chosen tools (``tool_schemas``; set by the session, not saved with the state:
    # the chat's record keeps the choice) and their schemas' tokens, in every request.
    tools: list[ToolSpec] = field(default_factory=list)
    tools_tokens: int = 0
    # Tool results' tokens as the last assembly sent them (cut or pruned): what compaction
    # weighs a turn by, so a pruned 50,000-token result does not count as 50,000.
    tool_sent: dict[str, int] = field(default_factory=dict)
    # Tokens the kept results give way for one assembly: recall of a pruned result
    # (``FactsFront.recall_request``); 0 otherwise.
    tool_yield: int = 0

    # ----------------------------------------------------------------- counts
    def count(self, text: str) -> int:
        """Tokens of ``text`` in the model's units (no template overhead)."""
        return scaled(count_tokens(text), self.config.estimate_scale)

    def message_tokens(self, text: str) -> int:
        return self.count(text) + self.config.message_overhead

    def reported_tokens(self, token_count: int) -> int:
        """A count Ollama reported (already in the model's units) plus the template."""
        return token_count + self.config.message_overhead

    def recount(self, old_scale: float, old_overhead: int) -> None:
        """Rescale every stored count after the calibration changed (or on load)."""
        scale, overhead = self.config.estimate_scale, self.config.message_overhead
        for message in self.messages:
            if message.exact_tokens:
                message.tokens = max(0, message.tokens - old_overhead) + overhead
            elif abs(scale - old_scale) >= 1e-9 or message.tokens <= 0:
                message.tokens = self.message_tokens(counted_text(message)) + \
                    image_tokens(message)
            else:
                message.tokens = message.tokens - old_overhead + overhead
        self.part_tokens.clear()
        if abs(scale - old_scale) >= 1e-9:
            for group in self.groups:
                group.current_tokens = self.count(group.summary)
            self.tools_tokens = sum(self.count(s.wire_text()) + 4 for s in self.tools)

    # -------------------------------------------------------------- history
    def reindex(self) -> None:
        self.index = {m.id: i for i, m in enumerate(self.messages)}

    def position(self, message_id: str) -> int | None:
        return self.index.get(message_id)

    # ---------------------------------------------------------------- state
    @classmethod
    def from_state(cls, state: EngineState, config: EngineConfig) -> Conversation:
        data = cls(
            config=config,
            system_prompt=state.system_prompt,
            messages=[m.model_copy() for m in state.messages],
            groups=[g.model_copy(deep=True) for g in state.groups],
            dropped=list(state.dropped_ids),
            goal=state.goal.model_copy(deep=True),
            goal_shown=state.goal_shown.model_copy(deep=True) if state.goal_shown else None,
            facts=[f.model_copy() for f in state.facts] or legacy_facts(state.ledger),
            compaction_count=state.compaction_count,
            undo=[u.model_copy(deep=True) for u in state.undo_stack],
            breaker=state.breaker.model_copy(),
            retry_after=state.retry_after_index,
        )
        saved = state.config or config
        old_overhead = saved.message_overhead if state.version >= 2 else LEGACY_OVERHEAD
        if (old_overhead != config.message_overhead
                or abs(saved.estimate_scale - config.estimate_scale) >= 1e-9):
            data.recount(saved.estimate_scale, old_overhead)
        for message in data.messages:
            # A reply saved while it streamed kept the count it started with (its text grew
            # after); after a crash it is loaded as it was cut, so it is counted now.
            if message.partial and not message.exact_tokens:
                message.tokens = data.message_tokens(counted_text(message)) + \
                    image_tokens(message)
        data.reindex()
        return data

    def state(self) -> EngineState:
        return EngineState(
            system_prompt=self.system_prompt,
            messages=[m.model_copy() for m in self.messages],
            groups=[g.model_copy(deep=True) for g in self.groups],
            dropped_ids=list(self.dropped),
            goal=self.goal.model_copy(deep=True),
            goal_shown=self.goal_shown.model_copy(deep=True) if self.goal_shown else None,
            compaction_count=self.compaction_count,
            undo_stack=[u.model_copy(deep=True) for u in self.undo],
            retry_after_index=self.retry_after,
            config=self.config.model_copy(),
            facts=[f.model_copy() for f in self.facts],
            breaker=self.breaker.model_copy(),
        )

    def copy(self) -> Conversation:
        """A copy to work on elsewhere (a compaction in a worker), with the counts it knows.

        Taken on the event loop, so it is cheap: messages and facts are copied (a compaction
        reads them, the user changes them), checkpoints and undo entries are shared (a
        compaction replaces them, never changes them in place; a deletion meanwhile, which
        does, makes the copy's result stale, and it is not applied)."""
        # dataclasses.replace carries every field, so a field added later (documents, tools)
        # reaches the worker's copy without this list having to know it.
        return replace(
            self, config=self.config.model_copy(),
            messages=[m.model_copy() for m in self.messages], index=dict(self.index),
            groups=list(self.groups), dropped=list(self.dropped),
            goal=self.goal.model_copy(deep=True),
            goal_shown=self.goal_shown.model_copy(deep=True) if self.goal_shown else None,
            facts=[f.model_copy() for f in self.facts], undo=list(self.undo),
            breaker=self.breaker.model_copy(), part_tokens=dict(self.part_tokens),
            tools=list(self.tools), tool_sent=dict(self.tool_sent))

    def turn_of(self, position: int) -> int:
        """The exchange (1-based) the message at ``position`` belongs to."""
        return max(1, sum(1 for m in self.messages[:position + 1] if m.role == "user"))

    def push_undo(self) -> None:
        self.undo.append(UndoEntry(groups=[g.model_copy(deep=True) for g in self.groups],
                                   dropped_ids=list(self.dropped),
                                   compaction_count=self.compaction_count,
                                   facts=[f.model_copy() for f in self.facts],
                                   message_count=len(self.messages)))
        del self.undo[: -self.config.undo_depth]


def legacy_facts(ledger: list[LedgerEntry]) -> list[Fact]:
    """A state saved before the facts ledger: its reference ledger as facts (who said it is
    known; where is not, so they stand as facts of the compacted region)."""
    facts: list[Fact] = []
    for number, entry in enumerate(ledger, start=1):
        kind: FactKind = "number" if entry.kind in ("number", "date", "time") else "identifier"
        facts.append(Fact(kind=kind, value=entry.text, subject=entry.label.lower(),
                          ref_kind=entry.kind, source=entry.source if entry.source != "summary"
                          else "assistant", sequence=number, message_id=LEGACY_MESSAGE))
    return facts


LEGACY_MESSAGE = "legacy-ledger"  # the message id of converted entries: always compacted
