"""Pydantic models for everything the engine persists or reports.

These are a contract: storage serialises them, the controller and the UI read them.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.tool_types import ToolCall

Role = Literal["system", "user", "assistant", "tool"]
# Per message, what the model sees of it (``ContextEngine.visibility()``; "pruned": a tool result
# sent as its placeholder, ``engine.tool_results``).
Visibility = Literal["verbatim", "preserved", "summarized", "dropped", "clipped", "pruned"]
# Compaction stages, in order; ``compaction-progress`` events carry one as ``stage``.
CompactionStage = Literal[
    "identification", "preparation", "summarization", "checkpoint creation", "context update",
    "validation",
]
# Names of the events sent to ``ContextEngine.subscribe`` callbacks (names follow the seeds).
EventName = Literal[
    "message-added",
    "pin-changed",
    "goal-updated",
    "budget-recalculated",
    "compression-triggered",
    "compression-skipped",
    "compression-error",
    "compaction-progress",
    "llm-summarizing",
    "checkpoint-created",
    "checkpoints-aged",
    "compressed",
    "tier1-compressed",
    "tier2-compressed",
    "tier3-compressed",
    "tier4-compressed",
    "tier5-compressed",
    "rollover-complete",
    "compaction-undone",
]
CheckpointLevel = Literal[1, 2, 3]  # 3: detailed, 1: most condensed
AgingKind = Literal["created", "aged", "merged", "relabelled"]
ReferenceSource = Literal["user", "assistant", "summary"]
ReliabilityLevel = Literal["high", "medium", "low", "critical"]

# Limits of the settings a user can change: one source of truth for EngineConfig and the
# app's preferences (a value saved there is always one the engine accepts).
CONTEXT_SIZE_MIN = 512
CONTEXT_SIZE_MAX = 2_097_152
ContextSize = Annotated[int, Field(ge=CONTEXT_SIZE_MIN, le=CONTEXT_SIZE_MAX)]
TriggerRatio = Annotated[float, Field(gt=0.1, le=1.0)]
# 0: automatic (scaled with the context size).
PreserveRecentTokens = Annotated[int, Field(ge=0)]
KeepRecentTurns = Annotated[int, Field(ge=0, le=200)]
SummaryTimeout = Annotated[float, Field(gt=0, le=3600)]  # seconds, one summarizer call
CompactionTimeout = Annotated[float, Field(gt=0, le=7200)]  # seconds, one compaction run


def new_id() -> str:
    return uuid.uuid4().hex


def utcnow() -> datetime:
    return datetime.now(UTC)


class EngineConfig(BaseModel):
    """Budget and compaction settings of one chat (``context_size`` is Ollama's num_ctx)."""

    model_config = ConfigDict(validate_assignment=True)

    context_size: ContextSize = 8192
    usable_ratio: float = Field(0.85, gt=0.1, le=1.0)
    trigger_ratio: TriggerRatio = 0.80
    # Recent tokens kept verbatim (0: automatic, scaled with the context size).
    preserve_recent_tokens: PreserveRecentTokens = 0
    summary_max_tokens: int = Field(1024, ge=32)
    preserve_user_messages: bool = True
    user_message_share: float = Field(0.25, ge=0.0, le=1.0)
    strategy: Literal["summarize", "truncate"] = "summarize"
    min_messages: int = Field(6, ge=1)
    # Ollama's tokenizers differ from cl100k; the backend learns this factor per model.
    estimate_scale: float = Field(1.0, gt=0.2, le=5.0)
    # Turns to wait after a failed summary before trying again.
    retry_after_messages: int = Field(2, ge=0)
    # Undo depth kept in the persisted state.
    undo_depth: int = Field(5, ge=1, le=50)
    # Chat-template tokens Ollama adds per message and per request (learned per model).
    message_overhead: int = Field(8, ge=0, le=64)
    request_overhead: int = Field(16, ge=0, le=256)
    # Time limits (contract names): one summarizer call, and one whole compaction run
    # (aging and merging included). Generous enough for an 8B model on a slow CPU.
    summary_timeout_s: SummaryTimeout = 180.0
    compaction_timeout_s: CompactionTimeout = 480.0
    # "Keep the last N turns verbatim" (0: automatic, scaled with the context size).
    keep_recent_turns: KeepRecentTurns = 0


class ReplyStats(BaseModel):
    """What Ollama reported about one reply (its final chunk): shown on the reply, stored
    with it, never counted in the context. Durations are nanoseconds, as Ollama gives them."""

    model_config = ConfigDict(frozen=True)

    prompt_tokens: int | None = Field(None, ge=0)  # prompt_eval_count
    reply_tokens: int | None = Field(None, ge=0)  # eval_count
    prompt_duration_ns: int | None = Field(None, ge=0)  # prompt_eval_duration
    reply_duration_ns: int | None = Field(None, ge=0)  # eval_duration
    total_duration_ns: int | None = Field(None, ge=0)  # total_duration (load included)
    load_duration_ns: int | None = Field(None, ge=0)
    cut_off: bool = False  # stopped at its length limit ("length", or num_predict reached)

    @property
    def tokens_per_second(self) -> float | None:
        if not self.reply_tokens or not self.reply_duration_ns:
            return None
        return self.reply_tokens / (self.reply_duration_ns / 1e9)

    @property
    def total_seconds(self) -> float | None:
        return None if self.total_duration_ns is None else self.total_duration_ns / 1e9


class ImageRef(BaseModel):
    """An image attached to a user's message. Its bytes live in the store (keyed by their
    SHA-256, so branches, forks and snapshots share one copy); the message keeps what the
    engine needs: its cost in the context and the text that replaces it once compacted."""

    model_config = ConfigDict(frozen=True)

    id: str  # sha256 of the bytes (hex)
    mime: str = "image/png"
    name: str = ""
    width: int = Field(0, ge=0)
    height: int = Field(0, ge=0)
    tokens: int = Field(0, ge=0)  # its share of the message's tokens
    description: str | None = None  # a short text that stands for it in summaries


class Message(BaseModel):
    """One message of the display history; never deleted by compaction."""

    id: str = Field(default_factory=new_id)
    role: Role
    content: str
    pinned: bool = False
    tokens: int = 0
    exact_tokens: bool = False  # True when Ollama reported the count
    created_at: datetime = Field(default_factory=utcnow)
    partial: bool = False  # a streamed reply not finished (or cut by a crash)
    model: str | None = None
    stats: ReplyStats | None = None  # an assistant reply's figures from Ollama (not sent)
    # A thinking model's reasoning, shown collapsed on the reply: never sent, never counted,
    # never summarised (only ``content`` reaches a request).
    thinking: str | None = None
    # The message this one was copied from when a branch or fork was made (the first
    # original's id): chats of one family that share it share that point of the history.
    origin: str | None = None
    images: list[ImageRef] = Field(default_factory=list)
    tool_calls: list[ToolCall] = Field(default_factory=list)  # see engine.tool_types
    tool_name: str | None = None
    tool_call_id: str | None = None
    tool_error: bool = False

    @property
    def cut_off(self) -> bool:
        """A reply that stopped at its length limit (not finished; it may be continued)."""
        return self.stats is not None and self.stats.cut_off


class AgingStep(BaseModel):
    """One re-summarisation of a checkpoint (aging or merge), for the Summary tab."""

    at: datetime = Field(default_factory=utcnow)
    kind: AgingKind
    from_level: int | None = None
    to_level: int
    tokens_before: int
    tokens_after: int
    # On a compaction's step (``fact_keeping``): the identifiers it read and how many are still
    # sent word for word (verbatim message, checkpoint or ledger). None: not measured.
    user_facts: int | None = None  # stated by the user
    user_facts_kept: int | None = None
    identifiers: int | None = None  # the user's and the replies'
    identifiers_kept: int | None = None
    lost_facts: list[str] = Field(default_factory=list)  # the user's facts not kept


class CompressedGroup(BaseModel):
    """A checkpoint: a summary standing in for a range of the display history."""

    id: str = Field(default_factory=new_id)
    summary: str
    level: CheckpointLevel = 3
    message_ids: list[str]  # messages the summary replaces in the API context
    span_ids: list[str] = Field(default_factory=list)  # every message in the range, in order
    original_tokens: int
    current_tokens: int
    compression_count: int = 1
    created_at: datetime = Field(default_factory=utcnow)
    aged_at: datetime | None = None
    key_decisions: list[str] = Field(default_factory=list)
    files: list[str] = Field(default_factory=list)
    next_steps: list[str] = Field(default_factory=list)
    key_references: list[str] = Field(default_factory=list)
    recall: float = 1.0  # share of critical identifiers the model kept by itself
    focus: str | None = None
    merged_from: list[str] = Field(default_factory=list)
    history: list[AgingStep] = Field(default_factory=list)
    sequence: int = 1  # compaction number that created it
    extractive: bool = False  # built by code: the model's summaries were unusable
    dropped_references: list[str] = Field(default_factory=list)  # ledger entries given up

    @property
    def preserved_ids(self) -> list[str]:
        """Messages of the range still sent verbatim (user messages, pins)."""
        replaced = set(self.message_ids)
        return [i for i in self.span_ids if i not in replaced]

    @property
    def ratio(self) -> float:
        return self.current_tokens / self.original_tokens if self.original_tokens else 0.0


class GoalCheckpoint(BaseModel):
    description: str
    status: Literal["completed", "in-progress", "pending"] = "pending"


class GoalDecision(BaseModel):
    description: str
    locked: bool = False


class GoalArtifact(BaseModel):
    action: str = "Modified"  # Created / Modified / Deleted / ...
    path: str


class GoalState(BaseModel):
    """The active goal: never compressed, rendered into the system part of the context."""

    description: str = ""
    priority: Literal["high", "medium", "low"] = "medium"
    status: Literal["active", "paused", "completed"] = "active"
    checkpoints: list[GoalCheckpoint] = Field(default_factory=list)
    decisions: list[GoalDecision] = Field(default_factory=list)
    artifacts: list[GoalArtifact] = Field(default_factory=list)
    next_steps: list[str] = Field(default_factory=list)
    updated_at: datetime | None = None

    @property
    def is_empty(self) -> bool:
        return not (
            self.description
            or self.checkpoints
            or self.decisions
            or self.artifacts
            or self.next_steps
        )


class LedgerEntry(BaseModel):
    """An identifier of the reference ledger of states saved before the facts ledger
    (``fact_types.Fact``): read once, when such a state is loaded, then converted."""

    text: str
    kind: str = "code"
    label: str = ""  # a few words that preceded it ("port", "budget"): what it is
    source: ReferenceSource = "assistant"
    group_id: str | None = None
    sequence: int = 0  # compaction that last saw it: the least recent go first


class UndoEntry(BaseModel):
    """The compaction state before one compaction (messages are never part of it)."""

    groups: list[CompressedGroup]
    dropped_ids: list[str]
    compaction_count: int
    ledger: list[LedgerEntry] = Field(default_factory=list)  # states before the facts ledger
    facts: list[Fact] = Field(default_factory=list)
    # The message count when the compaction ran: a branch opened from here ends there.
    message_count: int | None = None
    at: datetime = Field(default_factory=utcnow)


class BreakerState(BaseModel):
    """Backoff after summarizer failures (circuit breaker), persisted with the chat."""

    failures: int = 0  # consecutive compactions in which the model failed
    open_until: int | None = None  # message count before which the model is not asked


class EngineState(BaseModel):
    """Everything needed to rebuild an engine whose ``api_messages()`` is identical."""

    # 2: counts include config.message_overhead; 1: they included 4 tokens.
    version: int = 2
    system_prompt: str = ""
    messages: list[Message] = Field(default_factory=list)
    groups: list[CompressedGroup] = Field(default_factory=list)
    dropped_ids: list[str] = Field(default_factory=list)  # truncation fallback
    goal: GoalState = Field(default_factory=GoalState)
    # The goal as requests still show it (``Conversation.goal_shown``): saved, so a chat
    # reopened after a restart sends the same request, and the server's cache still serves it.
    goal_shown: GoalState | None = None
    compaction_count: int = 0
    undo_stack: list[UndoEntry] = Field(default_factory=list)
    retry_after_index: int | None = None  # failed summary: retry once messages pass this count
    config: EngineConfig | None = None
    ledger: list[LedgerEntry] = Field(default_factory=list)  # states before the facts ledger
    breaker: BreakerState = Field(default_factory=BreakerState)
    facts: list[Fact] = Field(default_factory=list)  # the facts ledger (``engine.facts``)


class ContextUsage(BaseModel):
    """Where the context budget goes; what the context meter shows."""

    context_size: int
    usable: int
    system: int
    goal: int
    checkpoints: int
    preserved: int  # pinned + user messages kept verbatim outside the recent window
    pinned: int
    recent: int
    total: int  # tokens of api_messages()
    available: int  # usable - system - goal - checkpoints - preserved
    trigger: int  # recent above this needs compaction
    tier: int
    tier_name: str
    percent: float  # total / usable
    compaction_count: int
    checkpoint_count: int
    dropped_messages: int  # unpinned messages left out of the API context
    over_budget: bool  # pins alone do not fit: said, never hidden
    note: str = ""
    ledger: int = 0  # the facts ledger's tokens
    clipped_messages: int = 0  # messages sent as head + tail (too long for the context)
    goal_condensed: int = 0  # locked decisions condensed to keep the goal block in its cap
    request_overhead: int = 0
    blocking_pins: list[str] = Field(default_factory=list)  # unpin these to send again
    # Tokens the user's own messages may keep word for word (``user_message_share`` of what is
    # left after the system prompt, goal and checkpoints; 0: ``preserve_user_messages`` off).
    user_share: int = 0
    tools: int = 0  # the chosen tools' schemas (``engine.tool_schemas``)


class Reliability(BaseModel):
    score: float
    level: ReliabilityLevel
    model_factor: float
    compression_penalty: float
    context_confidence: float
    warning: bool  # show the low-reliability warning
    explanation: str
    recommendations: list[str] = Field(default_factory=list)
    # The level's own figure: compression penalty x context confidence (no model factor).
    chat_score: float = 1.0
    model_size: str = "unknown"  # "1.7B", "135M" or "unknown"
    model_note: str = ""  # the model's line beside the level, in plain words
    model_known: bool = False  # False: model_factor is a neutral 1.0, the size is unknown
    costly_compressions: int = 0  # compactions that lost facts the user stated
    user_facts: int = 0  # facts the user stated that the checkpoints' compactions read
    user_facts_kept: int = 0
    reasons: list[str] = Field(default_factory=list)  # what lowered the context confidence


class CompactionReport(BaseModel):
    """What a call to ``compact()`` did, including when it did nothing."""

    status: Literal["compacted", "skipped", "failed", "truncated"]
    reason: str = ""
    group_id: str | None = None
    compacted_messages: int = 0
    folded_user_messages: int = 0
    tokens_before: int = 0
    tokens_after: int = 0
    summary_tokens: int = 0
    original_tokens: int = 0
    aged_groups: int = 0
    merged_groups: int = 0
    summarizer_calls: int = 0
    summarizer_input_tokens: int = 0
    # of those, what the server must read: a request reusing the chat's prefix finds the
    # prefix in its cache (issue 21 counts this, and reports both)
    summarizer_read_tokens: int = 0
    retried: bool = False
    trimmed: bool = False
    recall: float | None = None
    missing_references: list[str] = Field(default_factory=list)
    pins_over_budget: bool = False
    dropped_messages: int = 0
    tier: int = 0
    error: str | None = None
    extractive: bool = False  # the checkpoint was built by code (the model failed twice)
    chunks: int = 0  # summary requests the span was split into
    timed_out: bool = False  # the compaction's time limit cut aging or summarising short
    ledger_added: int = 0
    ledger_dropped: int = 0
    gate_rejections: list[str] = Field(default_factory=list)  # why model answers were refused
    shared_prefix: bool = False  # the summary reused the chat's prefix (server cache)


class EngineEvent(BaseModel):
    """An event sent to ``subscribe`` callbacks (names follow the seeds)."""

    name: EventName
    stage: CompactionStage | None = None
    progress: float | None = None  # 0..100 during compaction
    # JSON-like payload: a model_dump() of ContextUsage / CompactionReport, or a few ids.
    data: dict[str, Any] = Field(default_factory=dict)
