"""ContextEngine: decides what the model sees while the display history stays complete.

The display history is append-only. The API context is derived from it:
[system prompt + goal] [compacted region: checkpoints + messages kept verbatim] [recent messages].
Compaction moves the region's end forward; it never deletes a message.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from ollm_desktop.engine import budget, goals, prompts, references
from ollm_desktop.engine.models import (
    AgingStep,
    CompactionReport,
    CompressedGroup,
    ContextUsage,
    EngineConfig,
    EngineEvent,
    EngineState,
    GoalState,
    Message,
    Reliability,
    Role,
    UndoEntry,
    utcnow,
)
from ollm_desktop.engine.reliability import compute_reliability
from ollm_desktop.engine.tokens import (
    MESSAGE_OVERHEAD,
    count_message_tokens,
    count_tokens,
    truncate_to_tokens,
)

log = logging.getLogger(__name__)

Summarize = Callable[[list[dict[str, str]]], Awaitable[str]]
Listener = Callable[[EngineEvent], None]

SUMMARY_OPEN = "<compressed_history_summary>"
SUMMARY_CLOSE = "</compressed_history_summary>"
EARLIER_OPEN = "<earlier_user_message>"
EARLIER_CLOSE = "</earlier_user_message>"
SUMMARY_TIMEOUT = 600.0
# Room for the summary prompt's instructions, goal and focus around the chat history.
PROMPT_RESERVE = 900

# Stage boundaries in percent (issue contract).
STAGES = {
    "identification": (0, 15),
    "preparation": (15, 25),
    "summarization": (25, 70),
    "checkpoint creation": (70, 80),
    "context update": (80, 90),
    "validation": (90, 100),
}


class SummaryFailed(Exception):
    """The summarizer raised, timed out, or produced an unusable text twice."""


@dataclass(slots=True)
class _Item:
    """One unit of the API context before same-role merging."""

    role: str
    content: str
    tokens: int
    kind: str  # system | summary | preserved | recent | note
    message_id: str | None = None
    pinned: bool = False


@dataclass(slots=True)
class _Plan:
    span: list[Message]
    summarized: list[str]
    kept: list[str]  # user messages of the span kept verbatim
    folded_region: list[str] = field(default_factory=list)  # older preserved users folded
    folded_span: int = 0


@dataclass(frozen=True, slots=True)
class UndoResult:
    ok: bool
    reason: str


def _wrap_summary(group: CompressedGroup, number: int, total: int) -> str:
    label = f"Checkpoint {number} of {total}" if total > 1 else "Checkpoint"
    return f"{SUMMARY_OPEN}\n[{label}, level {group.level}]\n{group.summary}\n{SUMMARY_CLOSE}"


class ContextEngine:
    """Pure-Python context manager for one chat (no Qt, no I/O besides ``summarize``)."""

    def __init__(
        self, config: EngineConfig, summarize: Summarize, system_prompt: str = ""
    ) -> None:
        self.config = config
        self._summarize = summarize
        self._system_prompt = system_prompt
        self._messages: list[Message] = []
        self._index: dict[str, int] = {}
        self._groups: list[CompressedGroup] = []
        self._dropped: list[str] = []
        self.goal = GoalState()
        self._compaction_count = 0
        self._undo: list[UndoEntry] = []
        self._retry_after: int | None = None
        self._listeners: list[Listener] = []
        self._lock = asyncio.Lock()
        self._compacting = False
        self._generation = 0
        self.model_billions: float | None = None
        self.last_error: str | None = None
        self.stats = {"summarizer_calls": 0, "summarizer_input_tokens": 0, "compactions": 0}
        self._system_cache: tuple[str, int, int] | None = None
        self._region: list[_Item] | None = None
        self._region_tokens = {"summary": 0, "preserved": 0, "pinned": 0}
        self._boundary = 0
        self._span_owner: dict[str, int] = {}  # message id -> index of its group
        self._recent_tokens = 0  # unpinned messages after the region
        self._recent_pinned_tokens = 0
        self._api: list[dict[str, str]] | None = None
        self._api_meta = (0, 0, False)  # total tokens, dropped count, over budget
        self._api_fitted = False  # _fit left something out or cut the tail
        self._api_ids: set[str] = set()
        self._dropped_live: set[str] = set()

    # ------------------------------------------------------------------ state
    @classmethod
    def from_state(
        cls, state: EngineState, config: EngineConfig | None, summarize: Summarize
    ) -> ContextEngine:
        engine = cls(config or state.config or EngineConfig(), summarize, state.system_prompt)
        engine._messages = [m.model_copy() for m in state.messages]
        engine._groups = [g.model_copy(deep=True) for g in state.groups]
        engine._dropped = list(state.dropped_ids)
        engine.goal = state.goal.model_copy(deep=True)
        engine._compaction_count = state.compaction_count
        engine._undo = [u.model_copy(deep=True) for u in state.undo_stack]
        engine._retry_after = state.retry_after_index
        engine._reindex()
        return engine

    def state(self) -> EngineState:
        return EngineState(
            system_prompt=self._system_prompt,
            messages=[m.model_copy() for m in self._messages],
            groups=[g.model_copy(deep=True) for g in self._groups],
            dropped_ids=list(self._dropped),
            goal=self.goal.model_copy(deep=True),
            compaction_count=self._compaction_count,
            undo_stack=[u.model_copy(deep=True) for u in self._undo],
            retry_after_index=self._retry_after,
            config=self.config.model_copy(),
        )

    def load_state(self, state: EngineState) -> None:
        """Replace everything (snapshot restore, import); refused while compacting."""
        if self._compacting:
            raise RuntimeError("A compaction is running; try again when it has finished.")
        other = ContextEngine.from_state(state, self.config, self._summarize)
        self._system_prompt = other._system_prompt
        self._messages, self._groups, self._dropped = other._messages, other._groups, other._dropped
        self.goal, self._compaction_count = other.goal, other._compaction_count
        self._undo, self._retry_after = other._undo, other._retry_after
        self._generation += 1
        self._reindex()
        self._emit("budget-recalculated", data=self._usage_data())

    # ------------------------------------------------------------- listeners
    def subscribe(self, callback: Listener) -> Callable[[], None]:
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback) if callback in self._listeners else None

    def _emit(self, name: str, *, stage: str | None = None, progress: float | None = None,
              data: dict | None = None) -> None:
        event = EngineEvent(name=name, stage=stage, progress=progress, data=data or {})
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a broken listener must not break the engine
                log.exception("engine listener failed on %s", name)

    def _progress(self, stage: str, fraction: float = 0.0) -> None:
        low, high = STAGES[stage]
        self._emit("compaction-progress", stage=stage, progress=low + (high - low) * fraction)

    # ------------------------------------------------------------- messages
    @property
    def system_prompt(self) -> str:
        return self._system_prompt

    def set_system_prompt(self, text: str) -> None:
        self._system_prompt = text
        self._system_cache = None
        self._api = None

    def set_model_info(self, parameter_billions: float | None) -> None:
        self.model_billions = parameter_billions

    def add(
        self,
        role: Role,
        content: str,
        *,
        pinned: bool = False,
        token_count: int | None = None,
        partial: bool = False,
        model: str | None = None,
    ) -> Message:
        if token_count is not None and token_count > 0:
            tokens, exact = token_count + MESSAGE_OVERHEAD, True
        else:
            tokens, exact = count_message_tokens(content, self.config.estimate_scale), False
        message = Message(role=role, content=content, pinned=pinned, tokens=tokens,
                          exact_tokens=exact, partial=partial, model=model)
        return self.add_message(message)

    def add_message(self, message: Message) -> Message:
        """Append a fully formed message (the controller uses it to keep the store's id)."""
        if message.id in self._index:
            raise ValueError(f"message {message.id} is already in the conversation")
        if message.tokens <= 0:
            message.tokens = count_message_tokens(message.content, self.config.estimate_scale)
        self._index[message.id] = len(self._messages)
        self._messages.append(message)
        if message.pinned:
            self._recent_pinned_tokens += message.tokens
        else:
            self._recent_tokens += message.tokens
        if message.role == "assistant" and goals.apply_goal_markers(self.goal, message.content):
            self._system_cache = None
            self._api = None
            self._emit("goal-updated", data={"goal": self.goal.model_dump(mode="json")})
        self._append_to_api(message)
        self._emit("message-added", data={"id": message.id, "role": message.role})
        return message

    def _append_to_api(self, message: Message) -> None:
        """Keep the cached API list current in O(1) while nothing has to be dropped."""
        if self._api is None:
            return
        total, _, over = self._api_meta
        new_total = total + message.tokens
        if self._api_fitted or over or new_total > self.usable:
            self._api = None
            return
        if self._api and self._api[-1]["role"] == message.role and message.role != "system":
            last = self._api[-1]
            self._api[-1] = {"role": last["role"], "content": last["content"] + "\n\n"
                             + message.content}
        else:
            self._api.append({"role": message.role, "content": message.content})
        self._api_ids.add(message.id)
        self._api_meta = (new_total, 0, False)

    def remove_last(self, message_id: str) -> bool:
        """Take back the newest message (a send that got no reply); False if not allowed."""
        if not self._messages or self._messages[-1].id != message_id or self._compacting:
            return False
        self._ensure_region()
        if len(self._messages) - 1 < self._boundary:
            return False
        message = self._messages.pop()
        del self._index[message_id]
        if message.pinned:
            self._recent_pinned_tokens -= message.tokens
        else:
            self._recent_tokens -= message.tokens
        self._api = None
        return True

    def set_pinned(self, message_id: str, pinned: bool) -> Message:
        position = self._index.get(message_id)
        if position is None:
            raise KeyError(f"no message {message_id}")
        message = self._messages[position]
        if message.pinned == pinned:
            return message
        message.pinned = pinned
        if position >= self._boundary:
            delta = message.tokens if pinned else -message.tokens
            self._recent_pinned_tokens += delta
            self._recent_tokens -= delta
        else:
            self._region = None
        self._api = None
        self._emit("pin-changed", data={"id": message_id, "pinned": pinned})
        self._emit("budget-recalculated", data=self._usage_data())
        return message

    def set_goal(self, goal: GoalState) -> None:
        self.goal = goal.model_copy(deep=True)
        self.goal.updated_at = utcnow()
        self._system_cache = None
        self._api = None
        self._emit("goal-updated", data={"goal": self.goal.model_dump(mode="json")})

    def set_estimate_scale(self, scale: float) -> None:
        """Apply a learned tokenizer factor to every estimated (not Ollama-reported) count."""
        old = self.config.estimate_scale
        if abs(scale - old) < 0.01:
            return
        self.config.estimate_scale = scale
        for message in self._messages:
            if not message.exact_tokens:
                message.tokens = count_message_tokens(message.content, scale)
        self._reindex()

    def display_messages(self) -> list[Message]:
        return list(self._messages)

    def message(self, message_id: str) -> Message | None:
        position = self._index.get(message_id)
        return None if position is None else self._messages[position]

    @property
    def groups(self) -> list[CompressedGroup]:
        return list(self._groups)

    @property
    def compaction_count(self) -> int:
        return self._compaction_count

    @property
    def compacting(self) -> bool:
        return self._compacting

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    # --------------------------------------------------------------- derived
    @property
    def usable(self) -> int:
        return budget.usable_tokens(self.config)

    @property
    def tier(self) -> budget.TierSpec:
        return budget.tier_for(self.config.context_size)

    def _reindex(self) -> None:
        self._index = {m.id: i for i, m in enumerate(self._messages)}
        self._system_cache = None
        self._region = None
        self._api = None

    def _system(self) -> tuple[str, int, int]:
        """System message text, its prompt tokens and the goal block's tokens."""
        if self._system_cache is None:
            block = goals.render_goal_block(self.goal)
            text = "\n\n".join(part for part in (self._system_prompt.strip(), block) if part)
            prompt_tokens = count_message_tokens(self._system_prompt, self.config.estimate_scale) \
                if self._system_prompt.strip() else 0
            goal_tokens = count_tokens(block) + (0 if prompt_tokens else MESSAGE_OVERHEAD) \
                if block else 0
            self._system_cache = (text, prompt_tokens, goal_tokens)
        return self._system_cache

    def _build_region(
        self, groups: list[CompressedGroup], dropped: list[str]
    ) -> tuple[list[_Item], int, dict[str, int]]:
        """The compacted region: summaries at their ranges, kept messages in order."""
        owner: dict[str, int] = {}
        boundary = 0
        for g_index, group in enumerate(groups):
            for mid in group.span_ids or group.message_ids:
                owner[mid] = g_index
                position = self._index.get(mid)
                if position is not None:
                    boundary = max(boundary, position + 1)
        dropped_set = set(dropped)
        for mid in dropped:
            position = self._index.get(mid)
            if position is not None:
                boundary = max(boundary, position + 1)
        items: list[_Item] = []
        emitted: set[int] = set()
        replaced = [set(g.message_ids) for g in groups]
        scale = self.config.estimate_scale
        for message in self._messages[:boundary]:
            g_index = owner.get(message.id)
            if g_index is not None and g_index not in emitted:
                emitted.add(g_index)
                group = groups[g_index]
                text = _wrap_summary(group, g_index + 1, len(groups))
                items.append(_Item("user", text, count_message_tokens(text, scale), "summary",
                                   group.id))
            if message.pinned:
                pass
            elif message.id in dropped_set or (g_index is not None
                                               and message.id in replaced[g_index]):
                continue
            if message.role == "user":
                text = f"{EARLIER_OPEN}\n{message.content}\n{EARLIER_CLOSE}"
                tokens = message.tokens + self._wrap_tokens()
            else:
                text, tokens = message.content, message.tokens
            items.append(_Item(message.role, text, tokens, "preserved", message.id,
                               message.pinned))
        # Groups whose messages are all unknown (should not happen) still count.
        for g_index, group in enumerate(groups):
            if g_index not in emitted:
                text = _wrap_summary(group, g_index + 1, len(groups))
                items.insert(0, _Item("user", text, count_message_tokens(text, scale),
                                      "summary", group.id))
        return items, boundary, owner

    _WRAP_TOKENS: int | None = None

    @classmethod
    def _wrap_tokens(cls) -> int:
        if cls._WRAP_TOKENS is None:
            cls._WRAP_TOKENS = count_tokens(f"{EARLIER_OPEN}\n\n{EARLIER_CLOSE}")
        return cls._WRAP_TOKENS

    def _ensure_region(self) -> None:
        if self._region is not None:
            return
        items, boundary, owner = self._build_region(self._groups, self._dropped)
        self._region, self._boundary, self._span_owner = items, boundary, owner
        self._region_tokens = {
            "summary": sum(i.tokens for i in items if i.kind == "summary"),
            "preserved": sum(i.tokens for i in items if i.kind == "preserved"),
            "pinned": sum(i.tokens for i in items if i.pinned),
        }
        recent = self._messages[boundary:]
        self._recent_pinned_tokens = sum(m.tokens for m in recent if m.pinned)
        self._recent_tokens = sum(m.tokens for m in recent if not m.pinned)
        self._api = None

    def _items(self, region: list[_Item], boundary: int) -> list[_Item]:
        text, prompt_tokens, goal_tokens = self._system()
        items: list[_Item] = []
        if text:
            items.append(_Item("system", text, prompt_tokens + goal_tokens, "system"))
        items.extend(region)
        for message in self._messages[boundary:]:
            items.append(_Item(message.role, message.content, message.tokens, "recent",
                               message.id, message.pinned))
        return items

    def _ensure_api(self) -> None:
        self._ensure_region()
        if self._api is not None:
            return
        assert self._region is not None
        full = self._items(self._region, self._boundary)
        items, dropped, over = self._fit(full)
        # A fitted list (items left out, tail truncated) must be rebuilt, never appended to:
        # appending would freeze today's cuts and differ from a rebuild (from_state).
        self._api_fitted = items is not full
        self._api = _merge_roles(items)
        self._api_ids = {i.message_id for i in items if i.message_id and i.kind != "summary"}
        recent_ids = {m.id for m in self._messages[self._boundary:]}
        region_ids = {i.message_id for i in self._region if i.kind == "preserved"}
        self._dropped_live = (recent_ids | region_ids) - self._api_ids
        sent_groups = {i.message_id for i in items if i.kind == "summary"}
        for group in self._groups:
            if group.id not in sent_groups:  # its summary was left out to fit
                self._dropped_live.update(set(group.message_ids) - self._api_ids)
        self._api_meta = (sum(i.tokens for i in items), dropped, over)

    def _fit(self, items: list[_Item]) -> tuple[list[_Item], int, bool]:
        """Safety net: never send more than ``usable``; pinned messages are never dropped."""
        usable = self.usable
        total = sum(i.tokens for i in items)
        if total <= usable:
            return items, 0, False
        last = len(items) - 1
        order = [i for i, it in enumerate(items) if it.kind == "recent" and i != last]
        order += [i for i, it in enumerate(items) if it.kind == "preserved"]
        order += [i for i, it in enumerate(items) if it.kind == "summary"]
        note_tokens = count_message_tokens("[00000 earlier messages were left out to fit the "
                                           "context window]")
        removed: set[int] = set()
        for index in order:
            if total + note_tokens <= usable:
                break
            if items[index].pinned:
                continue
            removed.add(index)
            total -= items[index].tokens
        # A checkpoint left out takes every message it stands for out of the context.
        replaced = {g.id: len(g.message_ids) for g in self._groups}
        dropped_messages = sum(replaced.get(items[i].message_id or "", 0)
                               if items[i].kind == "summary" else 1 for i in removed)
        kept = [it for i, it in enumerate(items) if i not in removed]
        if removed:
            note = (f"[{dropped_messages} earlier messages were left out to fit the context "
                    "window]")
            first = min(removed)
            position = sum(1 for i in range(first) if i not in removed)
            kept.insert(position, _Item("user", note, note_tokens, "note"))
            total += note_tokens
        if total > usable and kept and not kept[-1].pinned and kept[-1].kind != "system":
            tail = kept[-1]
            room = usable - (total - tail.tokens) - MESSAGE_OVERHEAD - 16
            if room > 0:
                cut = truncate_to_tokens(tail.content, int(room / self.config.estimate_scale))
                text = cut + "\n[message truncated to fit the context window]"
                kept[-1] = _Item(tail.role, text, count_message_tokens(
                    text, self.config.estimate_scale), tail.kind, tail.message_id)
                total = total - tail.tokens + kept[-1].tokens
        return kept, dropped_messages, total > usable

    def api_messages(self) -> list[dict[str, str]]:
        """Exactly what is sent as ``messages`` to Ollama (do not mutate the dicts)."""
        self._ensure_api()
        assert self._api is not None
        return list(self._api)

    def api_tokens(self) -> int:
        self._ensure_api()
        return self._api_meta[0]

    def visibility(self) -> dict[str, str]:
        """Per message: verbatim | preserved | summarized | dropped (for dimming in the UI)."""
        self._ensure_api()
        result: dict[str, str] = {}
        replaced = set()
        for group in self._groups:
            replaced.update(group.message_ids)
        dropped = set(self._dropped)
        for position, message in enumerate(self._messages):
            mid = message.id
            if mid in self._dropped_live:
                result[mid] = "dropped"
            elif position >= self._boundary:
                result[mid] = "verbatim"
            elif message.pinned:
                result[mid] = "preserved"
            elif mid in dropped:
                result[mid] = "dropped"
            elif mid in replaced:
                result[mid] = "summarized"
            else:
                result[mid] = "preserved"
        return result

    def usage(self) -> ContextUsage:
        self._ensure_api()
        _, prompt_tokens, goal_tokens = self._system()
        usable = self.usable
        checkpoints = self._region_tokens["summary"]
        preserved = self._region_tokens["preserved"]
        available = max(0, usable - prompt_tokens - goal_tokens - checkpoints - preserved
                        - self._recent_pinned_tokens)
        total, dropped, over = self._api_meta
        pinned_total = self._recent_pinned_tokens + self._region_tokens["pinned"]
        tier = self.tier
        note = ""
        if over and prompt_tokens + goal_tokens >= usable:
            note = ("The system prompt and goal alone exceed the usable context: shorten the "
                    "system prompt or choose a larger context size.")
        elif over:
            note = "Pinned messages alone exceed the usable context: unpin some to continue."
        elif dropped:
            note = f"{dropped} older messages are left out of the context to fit."
        return ContextUsage(
            context_size=self.config.context_size,
            usable=usable,
            system=prompt_tokens,
            goal=goal_tokens,
            checkpoints=checkpoints,
            preserved=preserved,
            pinned=pinned_total,
            recent=self._recent_tokens,
            total=total,
            available=available,
            trigger=int(self.config.trigger_ratio * available),
            tier=tier.tier,
            tier_name=tier.name,
            percent=round(total / usable, 4) if usable else 1.0,
            compaction_count=self._compaction_count,
            checkpoint_count=len(self._groups),
            dropped_messages=dropped,
            over_budget=over,
            note=note,
        )

    def _usage_data(self) -> dict:
        return self.usage().model_dump()

    def reliability(self) -> Reliability:
        return compute_reliability(self.usage(), self.model_billions,
                                   failed_summary=self._retry_after is not None)

    # ------------------------------------------------------------ compaction
    def needs_compaction(self, ahead_tokens: int = 0) -> bool:
        """True when recent messages (plus ``ahead_tokens`` expected next) pass the trigger."""
        if self._compacting or len(self._messages) < 2:
            return False
        if self._retry_after is not None and len(self._messages) < self._retry_after:
            return False
        usage = self.usage()
        raw_total = self._raw_total()
        if usage.recent + ahead_tokens <= usage.trigger and raw_total <= usage.usable:
            return False
        return self._plan(force=False, overflow=raw_total > usage.usable) is not None

    def _raw_total(self) -> int:
        self._ensure_region()
        _, prompt_tokens, goal_tokens = self._system()
        return (prompt_tokens + goal_tokens + self._region_tokens["summary"]
                + self._region_tokens["preserved"] + self._recent_tokens
                + self._recent_pinned_tokens)

    def _plan(self, *, force: bool, overflow: bool) -> _Plan | None:
        """Stage 1: which messages to compress (never splits an exchange, keeps the last one)."""
        self._ensure_region()
        start = self._boundary
        recent = self._messages[start:]
        if len(recent) < 2:
            return None
        usage = self.usage()
        keep_tokens = budget.effective_preserve(self.config, usage.available)
        user_positions = [i for i in range(start + 1, len(self._messages))
                          if self._messages[i].role == "user"]
        if not user_positions:
            return None
        split = None
        suffix = 0
        cursor = len(self._messages)
        for position in reversed(user_positions):
            suffix += sum(m.tokens for m in self._messages[position:cursor] if not m.pinned)
            cursor = position
            if suffix >= keep_tokens:
                split = position
                break
        if split is None:
            if not (force or overflow):
                return None
            split = user_positions[-1]  # keep only the last exchange
        split = self._cap_span(start, split, user_positions)
        span = self._messages[start:split]
        if len(span) < self.config.min_messages and not overflow:
            return None
        kept = [m.id for m in span if m.role == "user" and not m.pinned
                and self.config.preserve_user_messages]
        summarized = [m.id for m in span if not m.pinned and m.id not in kept]
        plan = _Plan(span=span, summarized=summarized, kept=kept)
        self._fold_users(plan, usage)
        if not plan.summarized:
            return None
        return plan

    def _cap_span(self, start: int, split: int, user_positions: list[int]) -> int:
        """Move the split back until the summary request itself fits in the context.

        The rest is compacted by the next compaction; no request may exceed num_ctx.
        """
        rolling_extra = self._groups[-1].current_tokens if self.tier.rolling and self._groups \
            else 0
        limit = self.usable - PROMPT_RESERVE - rolling_extra - self._system()[2]
        tokens = sum(m.tokens for m in self._messages[start:split] if not m.pinned)
        if tokens <= limit:
            return split
        candidates = [p for p in user_positions if p < split]
        while candidates and tokens > limit:
            new_split = candidates.pop()
            tokens -= sum(m.tokens for m in self._messages[new_split:split] if not m.pinned)
            split = new_split
        return split

    def _fold_users(self, plan: _Plan, usage: ContextUsage) -> None:
        """User messages beyond ``user_message_share`` of the budget join the summaries."""
        if not self.config.preserve_user_messages:
            return
        base = usage.usable - usage.system - usage.goal - usage.checkpoints
        limit = int(self.config.user_message_share * max(0, base))
        assert self._region is not None
        region_users = [i for i in self._region if i.kind == "preserved" and i.role == "user"
                        and not i.pinned]
        span_users = [m for m in plan.span if m.id in set(plan.kept)]
        total = sum(i.tokens for i in region_users) + sum(
            m.tokens + self._wrap_tokens() for m in span_users)
        for item in region_users:
            if total <= limit:
                return
            plan.folded_region.append(item.message_id or "")
            total -= item.tokens
        for message in span_users:
            if total <= limit:
                return
            plan.kept.remove(message.id)
            plan.summarized.append(message.id)
            plan.folded_span += 1
            total -= message.tokens + self._wrap_tokens()

    async def compact(
        self, *, focus: str | None = None, force: bool = False, ahead_tokens: int = 0
    ) -> CompactionReport:
        """Run the six stages; always returns a report, never leaves half a state.

        ``ahead_tokens`` lets the caller compact early, while the user reads, when the next
        exchange would cross the trigger.
        """
        async with self._lock:
            self._compacting = True
            try:
                return await self._compact(focus=focus, force=force, ahead_tokens=ahead_tokens)
            finally:
                self._compacting = False

    async def _compact(self, *, focus: str | None, force: bool,
                       ahead_tokens: int) -> CompactionReport:
        tier = self.tier
        before = self.api_tokens()
        report = CompactionReport(status="skipped", tokens_before=before, tokens_after=before,
                                  tier=tier.tier)
        overflow = self._raw_total() > self.usable
        usage = self.usage()
        if not force and not overflow and usage.recent + ahead_tokens <= usage.trigger:
            report.reason = "The context is below the compaction threshold."
            self._emit("compression-skipped", data={"reason": report.reason})
            return report
        self._emit("compression-triggered", stage="identification", progress=0.0,
                   data={"tokens": before, "force": force})
        plan = self._plan(force=force, overflow=overflow)
        self._progress("identification", 1.0)
        if plan is None:
            count = len(self._messages) - self._boundary
            report.reason = (f"Nothing to compact: {count} recent messages, and at least "
                             f"{self.config.min_messages} older messages outside the last "
                             "exchange and the preserved recent window are needed.")
            self._emit("compression-skipped", data={"reason": report.reason})
            return report
        generation = self._generation
        if self.config.strategy == "truncate":
            return self._commit_truncation(plan, report)

        # Stage 2: preparation.
        targets = budget.level_targets(self.config)
        previous = self._groups[-1] if tier.rolling and self._groups else None
        level = 1 if tier.tier == 1 else 3
        target = targets[level]
        summarized_set = set(plan.summarized)
        prompt_messages = [m for m in plan.span if not m.pinned]
        verbatim = {m.id for m in prompt_messages if m.id not in summarized_set}
        original = sum(m.tokens for m in prompt_messages if m.id in summarized_set)
        input_tokens = original + (previous.current_tokens if previous else 0)
        target = max(32, min(target, int(input_tokens * 0.6)))
        refs = references.extract_references(
            [m.content for m in prompt_messages] + ([previous.summary] if previous else [])
            + ([" ".join(previous.key_references)] if previous else []))
        self._progress("preparation", 1.0)

        # Stage 3: summarization.
        self._emit("llm-summarizing", stage="summarization", progress=25.0,
                   data={"messages": len(prompt_messages), "target": target})

        def make_prompt(stricter: str | None) -> list[dict[str, str]]:
            return prompts.summary_prompt(
                prompt_messages, verbatim_ids=verbatim, target=target, level=level,
                goal=self.goal, focus=focus, previous=previous.summary if previous else None,
                stricter=stricter)

        try:
            summary = await self._summarize_validated(make_prompt, input_tokens, target, level,
                                                      report)
        except SummaryFailed as exc:
            return self._fail(report, str(exc))
        self._progress("summarization", 1.0)

        # Stage 4: checkpoint creation.
        summary, recall, missing = self._secure_references(summary, refs, target)
        report.recall, report.missing_references = recall, missing
        kept_refs = [r for r in refs if r in summary]
        group = CompressedGroup(
            summary=summary,
            level=level,  # type: ignore[arg-type]
            message_ids=list(plan.summarized),
            span_ids=[m.id for m in plan.span],
            original_tokens=original,
            current_tokens=count_tokens(summary),
            focus=focus,
            key_decisions=prompts.section_items(summary, "Decision"),
            next_steps=prompts.section_items(summary, "Action", "Next"),
            files=[r for r in kept_refs if references.looks_like_path(r)][:20],
            key_references=kept_refs,
            recall=recall,
            sequence=self._compaction_count + 1,
            history=[AgingStep(kind="created", to_level=level, tokens_before=original,
                               tokens_after=0)],
        )
        group.history[0].tokens_after = group.current_tokens
        new_groups = [g.model_copy(deep=True) for g in self._groups]
        leftovers = self._apply_region_folds(new_groups, plan.folded_region)
        if previous is not None:
            previous = new_groups.pop()  # the folded copy: it carries the folds
            group.message_ids = previous.message_ids + group.message_ids
            group.span_ids = previous.span_ids + group.span_ids
            group.original_tokens += previous.original_tokens
            group.merged_from = [*previous.merged_from, previous.id]
            group.compression_count = previous.compression_count + 1
            group.history = [*previous.history, AgingStep(
                kind="merged", from_level=previous.level, to_level=level,
                tokens_before=previous.current_tokens + original,
                tokens_after=group.current_tokens)]
        self._emit("checkpoint-created", stage="checkpoint creation", progress=75.0,
                   data={"group_id": group.id, "tokens": group.current_tokens,
                         "original_tokens": original})
        self._progress("checkpoint creation", 1.0)

        # Stage 5: context update (on copies; committed at once at the end).
        new_groups.append(group)
        try:
            await self._age_and_merge(new_groups, targets, tier, report)
        except SummaryFailed as exc:
            return self._fail(report, f"aging failed: {exc}")
        self._progress("context update", 0.9)
        if generation != self._generation:
            return self._fail(report, "the conversation was replaced during compaction")
        self._push_undo()
        self._groups = new_groups
        self._dropped = [*self._dropped, *leftovers]
        self._compaction_count += 1
        self._retry_after = None
        self.last_error = None
        self._region = None
        self.stats["compactions"] += 1
        self._progress("context update", 1.0)

        # Stage 6: validation.
        usage = self.usage()
        report.status = "compacted"
        report.group_id = group.id
        report.compacted_messages = len(plan.summarized)
        report.folded_user_messages = plan.folded_span + len(plan.folded_region)
        report.original_tokens = original
        report.summary_tokens = group.current_tokens
        report.tokens_after = usage.total
        report.dropped_messages = usage.dropped_messages
        report.pins_over_budget = usage.over_budget
        parts = [f"{len(plan.summarized)} messages summarised: {original:,} -> "
                 f"{group.current_tokens:,} tokens"]
        if report.folded_user_messages:
            parts.append(f"{report.folded_user_messages} older user messages folded into "
                         "summaries (user messages exceeded their share of the budget)")
        if usage.over_budget:
            parts.append("pinned messages alone exceed the usable context")
        elif usage.dropped_messages:
            parts.append(f"{usage.dropped_messages} messages still left out to fit")
        report.reason = "; ".join(parts) + "."
        self._progress("validation", 1.0)
        self._emit("budget-recalculated", stage="validation", progress=100.0,
                   data=usage.model_dump())
        self._emit("compressed", data=report.model_dump())
        self._emit(f"tier{tier.tier}-compressed", data={"group_id": group.id})
        if tier.rolling:
            self._emit("rollover-complete", data={"group_id": group.id})
        return report

    def _commit_truncation(self, plan: _Plan, report: CompactionReport) -> CompactionReport:
        self._push_undo()
        new_groups = [g.model_copy(deep=True) for g in self._groups]
        extra = self._apply_region_folds(new_groups, plan.folded_region)
        self._groups = new_groups
        self._dropped = [*self._dropped, *extra, *plan.summarized]
        self._compaction_count += 1
        self._region = None
        usage = self.usage()
        report.status = "truncated"
        report.compacted_messages = len(plan.summarized)
        report.tokens_after = usage.total
        report.dropped_messages = len(plan.summarized)
        report.reason = (f"{len(plan.summarized)} older messages left out of the context "
                         "(truncate strategy); they stay in the history.")
        self._emit("budget-recalculated", data=usage.model_dump())
        self._emit("compressed", data=report.model_dump())
        return report

    def _apply_region_folds(self, groups: list[CompressedGroup], folded: list[str]) -> list[str]:
        """Move folded preserved user messages into their group's replaced set."""
        leftovers = []
        for mid in folded:
            owner = self._span_owner.get(mid)
            if owner is not None and owner < len(groups):
                if mid not in groups[owner].message_ids:
                    groups[owner].message_ids.append(mid)
            else:
                leftovers.append(mid)
        return leftovers

    def _push_undo(self) -> None:
        self._undo.append(UndoEntry(groups=[g.model_copy(deep=True) for g in self._groups],
                                    dropped_ids=list(self._dropped),
                                    compaction_count=self._compaction_count))
        del self._undo[: -self.config.undo_depth]

    def _fail(self, report: CompactionReport, reason: str) -> CompactionReport:
        self._retry_after = len(self._messages) + self.config.retry_after_messages
        self.last_error = reason
        self._api = None
        usage = self.usage()
        report.status = "failed"
        report.error = reason
        report.tokens_after = usage.total
        report.dropped_messages = usage.dropped_messages
        report.reason = (f"Summarization failed ({reason}). Nothing was compacted; "
                         + (f"{usage.dropped_messages} oldest messages are left out to fit. "
                            if usage.dropped_messages else "")
                         + "It will be retried on the next turn.")
        self._emit("compression-error", data={"reason": reason, "report": report.model_dump()})
        return report

    async def _call(self, prompt: list[dict[str, str]], report: CompactionReport) -> str:
        input_tokens = sum(count_tokens(m["content"]) + MESSAGE_OVERHEAD for m in prompt)
        report.summarizer_calls += 1
        report.summarizer_input_tokens += input_tokens
        self.stats["summarizer_calls"] += 1
        self.stats["summarizer_input_tokens"] += input_tokens
        try:
            text = await asyncio.wait_for(self._summarize(prompt), timeout=SUMMARY_TIMEOUT)
        except asyncio.CancelledError:
            raise
        except TimeoutError as exc:
            raise SummaryFailed("the summarizer timed out") from exc
        except Exception as exc:
            raise SummaryFailed(f"{type(exc).__name__}: {exc}") from exc
        if not isinstance(text, str):
            raise SummaryFailed("the summarizer returned no text")
        return prompts.clean_summary(text)

    @staticmethod
    def _problem(text: str, input_tokens: int, target: int) -> tuple[str | None, int]:
        tokens = count_tokens(text)
        if not text.strip():
            return "empty summary", tokens
        if tokens >= input_tokens:
            return f"summary not shorter than its input ({tokens} >= {input_tokens} tokens)", tokens
        if tokens > target:
            return "over target", tokens
        return None, tokens

    async def _summarize_validated(
        self,
        make_prompt: Callable[[str | None], list[dict[str, str]]],
        input_tokens: int,
        target: int,
        level: int,
        report: CompactionReport,
    ) -> str:
        """Validate, retry once stricter, trim a still-long but otherwise good summary."""
        text = await self._call(make_prompt(None), report)
        problem, tokens = self._problem(text, input_tokens, target)
        if problem is None:
            return text
        report.retried = True
        note = prompts.stricter_note(tokens, target)
        if problem == "over target":
            # Condensing the long summary costs far less than re-reading the history.
            retry = await self._call(prompts.condense_prompt(text, target=target, level=level,
                                                             stricter=note), report)
        else:
            retry = await self._call(make_prompt(note), report)
        problem2, _ = self._problem(retry, input_tokens, target)
        if problem2 is None:
            return retry
        if problem2 == "over target":
            report.trimmed = True
            return truncate_to_tokens(retry, target)
        if problem == "over target":
            report.trimmed = True
            return truncate_to_tokens(text, target)
        raise SummaryFailed(problem2)

    def _secure_references(
        self, summary: str, refs: list[str], target: int
    ) -> tuple[str, float, list[str]]:
        """Append the identifiers the model dropped, within a small token cap."""
        model_recall = references.recall(summary, refs)
        missing = references.missing_references(summary, refs)
        cap = max(24, target // 6)
        line, added = references.key_references_line(missing, cap)
        if line:
            summary = summary.rstrip() + "\n\n" + line
        still_missing = [r for r in missing if r not in added]
        return summary, model_recall, still_missing

    async def _age_and_merge(
        self,
        groups: list[CompressedGroup],
        targets: dict[int, int],
        tier: budget.TierSpec,
        report: CompactionReport,
    ) -> None:
        """Merge the two oldest past the tier's maximum, then age the rest one level."""
        merged_ids: set[str] = set()
        while len(groups) > tier.max_checkpoints:
            first, second = groups[0], groups[1]
            merged = await self._merge(first, second, targets[1], report)
            groups[0:2] = [merged]
            merged_ids.add(merged.id)
            report.merged_groups += 1
        aged = 0
        for group in groups[:-1]:
            if group.id in merged_ids or group.level <= 1:
                continue
            new_level = group.level - 1
            target = targets[new_level]
            before = group.current_tokens
            if before > target:
                try:
                    text = await self._condense(group.summary, target, new_level, report)
                except SummaryFailed:
                    continue  # keep the text and level; aging is retried next time
                text, _, _ = self._secure_references(text, group.key_references, target)
                group.summary = text
                group.current_tokens = count_tokens(text)
                kind = "aged"
            else:
                kind = "relabelled"
            group.level = new_level  # type: ignore[assignment]
            group.compression_count += 1
            group.aged_at = utcnow()
            group.history.append(AgingStep(kind=kind, from_level=new_level + 1,
                                           to_level=new_level, tokens_before=before,
                                           tokens_after=group.current_tokens))
            aged += 1
        report.aged_groups = aged
        if aged or merged_ids:
            self._emit("checkpoints-aged", stage="context update", progress=85.0,
                       data={"aged": aged, "merged": len(merged_ids)})

    async def _condense(self, text: str, target: int, level: int,
                        report: CompactionReport) -> str:
        input_tokens = count_tokens(text)

        def make_prompt(stricter: str | None) -> list[dict[str, str]]:
            return prompts.condense_prompt(text, target=target, level=level, stricter=stricter)

        return await self._summarize_validated(make_prompt, input_tokens, target, level, report)

    async def _merge(self, first: CompressedGroup, second: CompressedGroup, target: int,
                     report: CompactionReport) -> CompressedGroup:
        combined = f"{first.summary}\n\n{second.summary}"
        before = count_tokens(combined)
        refs = list(dict.fromkeys(first.key_references + second.key_references))
        if before <= target:
            text = combined
        else:
            try:
                text = await self._condense(combined, target, 1, report)
            except SummaryFailed:
                text = truncate_to_tokens(combined, target)  # merging must bound the size
                report.trimmed = True
            text, _, _ = self._secure_references(text, refs, target)
        return CompressedGroup(
            summary=text,
            level=1,
            message_ids=first.message_ids + second.message_ids,
            span_ids=first.span_ids + second.span_ids,
            original_tokens=first.original_tokens + second.original_tokens,
            current_tokens=count_tokens(text),
            compression_count=max(first.compression_count, second.compression_count) + 1,
            created_at=first.created_at,
            aged_at=utcnow(),
            key_decisions=(first.key_decisions + second.key_decisions)[-12:],
            files=list(dict.fromkeys(first.files + second.files))[:20],
            next_steps=second.next_steps or first.next_steps,
            key_references=[r for r in refs if r in text],
            recall=min(first.recall, second.recall),
            merged_from=[*first.merged_from, first.id, *second.merged_from, second.id],
            history=[*first.history, *second.history,
                     AgingStep(kind="merged", from_level=max(first.level, second.level),
                               to_level=1, tokens_before=before,
                               tokens_after=count_tokens(text))],
            sequence=first.sequence,
        )

    # ------------------------------------------------------------------ undo
    def undo_last_compaction(self) -> UndoResult:
        """Restore the compaction state before the newest compaction, keeping new messages."""
        if self._compacting:
            return UndoResult(False, "A compaction is running; wait for it to finish.")
        if not self._undo:
            return UndoResult(False, "There is no compaction to undo.")
        entry = self._undo[-1]
        region, boundary, _ = self._build_region(entry.groups, entry.dropped_ids)
        needed = sum(i.tokens for i in self._items(region, boundary))
        if needed > self.usable:
            return UndoResult(False, (
                f"Undoing would need {needed:,} tokens but only {self.usable:,} fit in the "
                "context. Restore a snapshot instead, or unpin messages."))
        self._undo.pop()
        self._groups = [g.model_copy(deep=True) for g in entry.groups]
        self._dropped = list(entry.dropped_ids)
        self._compaction_count = entry.compaction_count
        self._retry_after = None
        self._generation += 1
        self._region = None
        self._api = None
        self._emit("compaction-undone", data={"compaction_count": self._compaction_count})
        self._emit("budget-recalculated", data=self._usage_data())
        return UndoResult(True, "The last compaction was undone.")


def _merge_roles(items: list[_Item]) -> list[dict[str, str]]:
    """Merge consecutive same-role items so strict chat templates accept the sequence."""
    out: list[dict[str, str]] = []
    for item in items:
        if out and out[-1]["role"] == item.role and item.role != "system":
            out[-1] = {"role": item.role, "content": out[-1]["content"] + "\n\n" + item.content}
        else:
            out.append({"role": item.role, "content": item.content})
    return out

