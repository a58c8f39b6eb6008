"""ContextEngine: decides what the model sees while the display history stays complete.

The display history is append-only. The API context is derived from it (``assembly``, in the
one layout written down there): [system: prompt, goal, checkpoints, facts, kept turns] [recent
turns]. Compaction (``compaction``) moves the region's end forward; it never deletes a message.
This module is the public front: the contract the controller, storage and tests rely on. The
stages it runs (compaction, deletion) get a ``Stage``, never the engine itself.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from ollm_desktop.engine import budget, deletion, undo
from ollm_desktop.engine.assembly import (
    SUMMARY_CLOSE,
    SUMMARY_OPEN,
    Assembler,
    Assembly,
    Region,
    build_region,
)
from ollm_desktop.engine.compaction import CompactionRun
from ollm_desktop.engine.compaction_draft import (
    Base,
    DraftStates,
    ReadCalibration,
    Worker,
    compact_detached,
)
from ollm_desktop.engine.conversation import Conversation
from ollm_desktop.engine.documents_front import DocumentsFront
from ollm_desktop.engine.draft_front import DraftFront
from ollm_desktop.engine.facts_front import FactsFront
from ollm_desktop.engine.goal_front import GoalFront
from ollm_desktop.engine.images import image_tokens
from ollm_desktop.engine.models import (
    CompactionReport,
    CompactionStage,
    CompressedGroup,
    ContextUsage,
    EngineConfig,
    EngineEvent,
    EngineState,
    EventName,
    Message,
    Reliability,
    Role,
    Visibility,
)
from ollm_desktop.engine.reliability import compute_reliability
from ollm_desktop.engine.stage import STAGES, Stage
from ollm_desktop.engine.summarizer import Summarize, SummaryCaller, SummaryFailed
from ollm_desktop.engine.tool_front import ToolFront
from ollm_desktop.engine.tool_results import counted_text
from ollm_desktop.engine.undo import UndoResult
from ollm_desktop.engine.usage import build_usage, visibility

log = logging.getLogger(__name__)

Listener = Callable[[EngineEvent], None]
__all__ = ["STAGES", "SUMMARY_CLOSE", "SUMMARY_OPEN", "ContextEngine", "PinsOverBudget",
           "Summarize", "SummaryFailed", "UndoResult", "Worker"]

class PinsOverBudget(ValueError):
    """Pinned messages (with the system prompt) alone exceed the context: nothing is sent."""


class ContextEngine(FactsFront, GoalFront, DraftFront, DocumentsFront, ToolFront):
    """Pure-Python context manager for one chat (no Qt, no I/O besides ``summarize``)."""

    def __init__(self, config: EngineConfig, summarize: Summarize,
                 system_prompt: str = "") -> None:
        self._data = Conversation(config=config, system_prompt=system_prompt)
        self._summarize = summarize
        self.stats = {"summarizer_calls": 0, "summarizer_input_tokens": 0, "compactions": 0,
                      "summarizer_output_tokens": 0}
        self._caller = SummaryCaller(summarize, config, self.stats)
        self._assembler = Assembler(self._data)
        self._listeners: list[Listener] = []
        self._lock = asyncio.Lock()
        self._compacting = False
        self._detached = False  # the running compaction works on a copy (compaction_draft)
        self._generation = 0
        self.model_billions: float | None = None
        self.last_error: str | None = None
        self.draft_states: DraftStates | None = None  # of the newest detached compaction
        self._region: Region | None = None
        self._api: Assembly | None = None

    # ------------------------------------------------------------------ state
    @classmethod
    def from_state(cls, state: EngineState, config: EngineConfig | None,
                   summarize: Summarize) -> ContextEngine:
        engine = cls(config or state.config or EngineConfig(), summarize, state.system_prompt)
        engine._adopt(Conversation.from_state(state, engine.config))
        return engine

    def _adopt(self, data: Conversation) -> None:
        self._data = data
        self._caller = SummaryCaller(self._summarize, data.config, self.stats)
        self._assembler = Assembler(data)
        self._invalidate(region=True)

    def state(self) -> EngineState:
        return self._data.state()

    def load_state(self, state: EngineState) -> None:
        """Replace everything (snapshot restore, import); refused while compacting."""
        if self._compacting:
            raise RuntimeError("A compaction is running; try again when it has finished.")
        self._adopt(Conversation.from_state(state, self.config))
        self._generation += 1
        self._emit("budget-recalculated", data=self._usage_data())

    @property
    def config(self) -> EngineConfig:
        return self._data.config

    # ------------------------------------------------------------- listeners
    def subscribe(self, callback: Listener) -> Callable[[], None]:
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback) if callback in self._listeners else None

    def _emit(self, name: EventName, *, stage: CompactionStage | None = None,
              progress: float | None = None, data: dict[str, Any] | None = None) -> None:
        self._dispatch(EngineEvent(name=name, stage=stage, progress=progress, data=data or {}))

    def _dispatch(self, event: EngineEvent) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a broken listener must not break the engine
                log.exception("engine listener failed on %s", event.name)

    def _progress(self, stage: CompactionStage, fraction: float = 0.0) -> None:
        low, high = STAGES[stage]
        self._emit("compaction-progress", stage=stage, progress=low + (high - low) * fraction)

    # ------------------------------------------------------------- messages
    @property
    def system_prompt(self) -> str:
        return self._data.system_prompt

    def set_system_prompt(self, text: str) -> None:
        self._data.system_prompt = text
        self._invalidate()

    def set_model_info(self, parameter_billions: float | None) -> None:
        self.model_billions = parameter_billions

    def add(self, role: Role, content: str, *, pinned: bool = False,
            token_count: int | None = None, partial: bool = False,
            model: str | None = None) -> Message:
        data = self._data
        if token_count is not None and token_count > 0:
            tokens, exact = data.reported_tokens(token_count), True
        else:
            tokens, exact = data.message_tokens(content), False
        message = Message(role=role, content=content, pinned=pinned, tokens=tokens,
                          exact_tokens=exact, partial=partial, model=model)
        return self.add_message(message)

    def add_message(self, message: Message) -> Message:
        """Append a fully formed message (the controller uses it to keep the store's id)."""
        data = self._data
        if message.id in data.index:
            raise ValueError(f"message {message.id} is already in the conversation")
        if message.tokens <= 0:
            message.tokens = data.message_tokens(counted_text(message)) + image_tokens(message)
        data.index[message.id] = len(data.messages)
        data.messages.append(message)
        self._read_in(message)
        self._emit("message-added", data={"id": message.id, "role": message.role})
        return message

    def _read_in(self, message: Message) -> None:
        """A new message's goal markers and corrections, and its place in the request."""
        goal_changed = message.role == "assistant" and self._take_goal_markers(message)
        corrected = self._take_corrections(message)
        if message.role == "system" or corrected:
            self._invalidate(region=message.role == "system" or corrected)
        elif self._api is not None and not self._assembler.append(self._api, message):
            self._api = None
        if goal_changed:
            self._emit("goal-updated", data={"goal": self._data.goal.model_dump(mode="json")})

    def remove_last(self, message_id: str) -> bool:
        """Take back the newest message (a send that got no reply, Regenerate, Continue);
        False if not allowed. The facts it stated go with it (a correction is read at once)."""
        data = self._data
        if not data.messages or data.messages[-1].id != message_id or self._compacting:
            return False
        if len(data.messages) - 1 < self._region_now().boundary:
            return False
        data.messages.pop()
        del data.index[message_id]
        if any(f.message_id == message_id for f in data.facts):
            data.facts = deletion.without_facts_of(data.facts, message_id)
        self._invalidate(region=True)
        return True

    def delete_message(self, message_id: str) -> deletion.Deleted:
        """Take one message out of the chat, summarised or not (see ``deletion``)."""
        return deletion.delete(self._stage(), message_id)

    def restore_message(self, deleted: deletion.Deleted) -> bool:
        return deletion.restore(self._stage(), deleted)

    def _stage(self) -> Stage:
        """What a compaction or a deletion may use of this engine."""

        def set_error(error: str | None) -> None:
            self.last_error = error

        return Stage(data=self._data, tier=self.tier, stats=self.stats, emit=self._emit,
                     progress=self._progress, invalidate=self._invalidate,
                     region=self._region_now, assembly=self._assembly, usage=self.usage,
                     generation=lambda: self._generation, goal_changed=self._goal_changed,
                     set_error=set_error,
                     compacting=lambda: self._compacting and not self._detached)

    def set_pinned(self, message_id: str, pinned: bool) -> Message:
        position = self._data.position(message_id)
        if position is None:
            raise KeyError(f"no message {message_id}")
        message = self._data.messages[position]
        if message.pinned == pinned:
            return message
        message.pinned = pinned
        if pinned:
            self._adopt_pinned(message)  # a pinned reply's values are the user's now
        self._invalidate(region=position < self._region_now().boundary)
        self._emit("pin-changed", data={"id": message_id, "pinned": pinned})
        self._emit("budget-recalculated", data=self._usage_data())
        return message

    def set_estimate_scale(self, scale: float) -> None:
        """Apply a learned tokenizer factor to every estimated (not Ollama-reported) count."""
        self.set_calibration(scale=scale)

    def set_template_overhead(self, per_message: int, per_request: int) -> None:
        """Apply the chat-template overhead learned from Ollama's prompt_eval_count."""
        self.set_calibration(per_message=per_message, per_request=per_request)

    def set_calibration(self, *, scale: float | None = None, per_message: int | None = None,
                        per_request: int | None = None) -> None:
        config = self._data.config
        old_scale, old_overhead = config.estimate_scale, config.message_overhead
        changed = False
        if scale is not None and abs(scale - old_scale) >= 0.01:
            config.estimate_scale, changed = scale, True
        if per_message is not None and per_message != old_overhead:
            config.message_overhead, changed = per_message, True
        if per_request is not None and per_request != config.request_overhead:
            config.request_overhead, changed = per_request, True
        if changed:
            self._data.recount(old_scale, old_overhead)
            self._invalidate(region=True)

    def display_messages(self) -> list[Message]:
        return list(self._data.messages)

    def message(self, message_id: str) -> Message | None:
        position = self._data.position(message_id)
        return None if position is None else self._data.messages[position]

    @property
    def groups(self) -> list[CompressedGroup]:
        return list(self._data.groups)

    @property
    def compaction_count(self) -> int:
        return self._data.compaction_count

    @property
    def compacting(self) -> bool:
        return self._compacting

    @property
    def can_undo(self) -> bool:
        return bool(self._data.undo)

    # --------------------------------------------------------------- derived
    @property
    def usable(self) -> int:
        return budget.usable_tokens(self.config)

    @property
    def tier(self) -> budget.TierSpec:
        return budget.tier_for(self.config.context_size)

    def _invalidate(self, *, region: bool = False) -> None:
        if region:
            self._region = None
        self._api = None

    def _region_now(self) -> Region:
        if self._region is None:
            self._region = build_region(self._data)
        return self._region

    def _assembly(self) -> Assembly:
        if self._api is None:
            self._api = self._assembler.assemble(self._region_now())
            if self._api.dropped_count and self._data.goal_shown is not None:
                # a reply whose markers are held back may be left out: show the goal as it is
                self._data.goal_shown = None
                self._api = self._assembler.assemble(self._region_now())
        return self._api

    def api_messages(self) -> list[dict[str, str]]:
        """Exactly what is sent as ``messages`` to Ollama (do not mutate the dicts).

        Raises ``PinsOverBudget`` when pinned messages alone do not fit: nothing over the
        context is ever sent; ``usage().note`` names what to unpin.
        """
        assembly = self._assembly()
        if assembly.over_budget:
            raise PinsOverBudget(self.usage().note)
        return list(assembly.messages)

    def api_tokens(self) -> int:
        return self._assembly().total

    def visibility(self) -> dict[str, Visibility]:
        """Per message: verbatim | preserved | summarized | dropped | clipped (for the UI)."""
        return visibility(self._data, self._region_now(), self._assembly())

    def usage(self) -> ContextUsage:
        return build_usage(self._assembly(), self._data, self.tier)

    def _usage_data(self) -> dict[str, Any]:
        return self.usage().model_dump()

    def reliability(self) -> Reliability:
        return compute_reliability(self.usage(), self.model_billions,
                                   failed_summary=self._data.breaker.failures > 0,
                                   groups=self._data.groups)

    # ------------------------------------------------------------ compaction
    def _orphan_tokens(self) -> int:
        return sum(p.tokens for p in self._region_now().kept if p.kind == "orphan")

    def needs_compaction(self, ahead_tokens: int = 0) -> bool:
        """True when recent messages (plus ``ahead_tokens`` expected next) pass the trigger."""
        if self._compacting or len(self._data.messages) < 2:
            return False
        usage = self.usage()
        raw_total = self._assembly().raw_total
        compactable = usage.recent + self._orphan_tokens()
        if compactable + ahead_tokens <= usage.trigger and raw_total <= usage.usable:
            return False
        run = CompactionRun(self._stage(), self._caller, focus=None, force=False,
                            ahead_tokens=0)
        return run.identify(overflow=raw_total > usage.usable) is not None

    async def compact(self, *, focus: str | None = None, force: bool = False,
                      ahead_tokens: int = 0, worker: Worker | None = None,
                      calibration: ReadCalibration | None = None) -> CompactionReport:
        """Run the six stages; always returns a report, never leaves half a state.

        ``ahead_tokens`` lets the caller compact early, while the user reads, when the next
        exchange would cross the trigger. Bounded by ``config.compaction_timeout_s``. With a
        ``worker``, the stages run there on a copy, applied here if still current, counted
        with ``calibration`` (asked after its summaries) if given.
        """
        async with self._lock:
            self._compacting, self._detached = True, worker is not None
            try:
                if worker is not None:
                    return await compact_detached(self, worker, focus=focus, force=force,
                                                  ahead_tokens=ahead_tokens,
                                                  calibration=calibration)
                run = CompactionRun(self._stage(), self._caller, focus=focus, force=force,
                                    ahead_tokens=ahead_tokens)
                return await run.run()
            finally:
                self._compacting = self._detached = False

    def detached_copy(self, worker: Worker) -> tuple[ContextEngine, Base]:
        """A copy of the chat for ``worker``, and what the chat is now (``compaction_draft``)."""
        copy = ContextEngine(self.config.model_copy(), worker.home(self._summarize))
        copy.stats, copy.model_billions, copy.last_error = (self.stats, self.model_billions,
                                                            self.last_error)
        copy._adopt(self._data.copy())
        copy._listeners.append(worker.relay(self._dispatch))
        return copy, Base.of(self._data, self._generation)

    # ------------------------------------------------------------------ undo
    def undo_last_compaction(self) -> UndoResult:
        """Restore the compaction state before the newest compaction, keeping new messages.

        Any depth kept in the undo stack works: when the earlier state no longer fits, the
        oldest recent messages are left out visibly until the next compaction (and
        ``state_before_last_compaction`` can open that state as a new chat instead).
        """
        if self._compacting:
            return UndoResult(False, "A compaction is running; wait for it to finish.")
        if not undo.restore_previous(self._data):
            return UndoResult(False, "There is no compaction to undo.")
        self._generation += 1
        self._invalidate(region=True)
        usage = self.usage()
        self._emit("compaction-undone", data={"compaction_count": self._data.compaction_count})
        self._emit("budget-recalculated", data=usage.model_dump())
        if usage.dropped_messages:
            return UndoResult(True, (
                f"The last compaction was undone. {usage.dropped_messages} older messages are "
                "left out of the context until the next compaction (or open the earlier "
                "state as a new chat)."), usage.dropped_messages)
        return UndoResult(True, "The last compaction was undone.")

    def state_before_last_compaction(self) -> EngineState | None:
        """The chat as it was when the newest compaction ran: to open as a new chat (branch)."""
        return undo.state_before_last(self._data)
