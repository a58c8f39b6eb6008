"""The context-compression engine: pure Python, no Qt (a test checks ``sys.modules``)."""

from ollm_desktop.engine.budget import TIERS, TierSpec, level_targets, tier_for, usable_tokens
from ollm_desktop.engine.context import (
    ContextEngine,
    PinsOverBudget,
    Summarize,
    SummaryFailed,
    UndoResult,
)
from ollm_desktop.engine.goals import apply_goal_markers, render_goal_block
from ollm_desktop.engine.models import (
    AgingStep,
    CompactionReport,
    CompressedGroup,
    ContextUsage,
    EngineConfig,
    EngineEvent,
    EngineState,
    GoalArtifact,
    GoalCheckpoint,
    GoalDecision,
    GoalState,
    LedgerEntry,
    Message,
    Reliability,
    UndoEntry,
)
from ollm_desktop.engine.reliability import compute_reliability, parse_parameter_size
from ollm_desktop.engine.tokens import count_message_tokens, count_tokens

__all__ = [
    "TIERS",
    "AgingStep",
    "CompactionReport",
    "CompressedGroup",
    "ContextEngine",
    "ContextUsage",
    "EngineConfig",
    "EngineEvent",
    "EngineState",
    "GoalArtifact",
    "GoalCheckpoint",
    "GoalDecision",
    "GoalState",
    "LedgerEntry",
    "Message",
    "PinsOverBudget",
    "Reliability",
    "Summarize",
    "SummaryFailed",
    "TierSpec",
    "UndoEntry",
    "UndoResult",
    "apply_goal_markers",
    "compute_reliability",
    "count_message_tokens",
    "count_tokens",
    "level_targets",
    "parse_parameter_size",
    "render_goal_block",
    "tier_for",
    "usable_tokens",
]
