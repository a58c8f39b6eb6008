"""Tiers and summary targets by context size (seed 002), scaled with the context.

Tiers 1-2 (up to 8K) keep one rolling checkpoint, as the seed says: each compaction folds it
into the new one in the same call. Its rewrite costs the server a re-read of the checkpoint
itself (about 130-260 tokens) beyond what any compaction re-reads; an incremental checkpoint
would save that but cost a merge call every other compaction, more than the layout saves.
Larger tiers add each new checkpoint after the older ones and merge all but the newest into
one base only when they are more than the tier's maximum or over their share of the budget,
in one batch ("One request layout").
"""

from __future__ import annotations

from dataclasses import dataclass

from ollm_desktop.engine.models import EngineConfig


@dataclass(frozen=True)
class TierSpec:
    tier: int
    name: str
    max_checkpoints: int
    strategy: str  # what the seeds call it; shown in the UI

    @property
    def rolling(self) -> bool:
        """Tiers keeping a single checkpoint fold the previous one into each new summary."""
        return self.max_checkpoints == 1


TIERS: dict[int, TierSpec] = {
    1: TierSpec(1, "Minimal", 1, "snapshot rollover"),
    2: TierSpec(2, "Basic", 1, "single checkpoint"),
    3: TierSpec(3, "Standard", 4, "progressive merging"),
    4: TierSpec(4, "Premium", 10, "structured preservation"),
    5: TierSpec(5, "Ultra", 15, "rich metadata"),
}


def tier_for(context_size: int) -> TierSpec:
    if context_size <= 4096:
        return TIERS[1]
    if context_size <= 8192:
        return TIERS[2]
    if context_size <= 16384:
        return TIERS[3]
    if context_size <= 32768:
        return TIERS[4]
    return TIERS[5]


def usable_tokens(config: EngineConfig) -> int:
    """What may be sent; the rest of num_ctx is left for the reply."""
    return int(config.context_size * config.usable_ratio)


# A checkpoint below this cannot be written by a small model (135M-8B overshoot every time and
# drop every identifier): targets never go lower; the facts ledger (``facts``) carries exact
# facts.
MIN_TARGET = 128
# Shares of the usable budget for the parts that never shrink by compaction.
GOAL_SHARE = 0.12
# The facts ledger: the user's facts must outlast the chat in small windows, where every
# other part is short too; in large windows a smaller share holds them all.
LEDGER_SHARES = ((2048, 0.25), (4096, 0.22), (8192, 0.15), (10**9, 0.10))
# The user's earlier messages quoted word for word: in small windows the facts ledger holds their
# facts in a fraction of the room, and the chat needs the rest (``user_share``).
USER_QUOTE_SCALES = ((2048, 0.4), (4096, 0.7), (10**9, 1.0))
# Recent tokens kept after an automatic compaction, as a share of what is available: small
# windows keep less, so the next compaction is several turns away. At 8K the facts ledger takes
# room the turns had before it; 0.20 there keeps the summariser calls where they were (10.3 per
# 150-turn chat in the loopback matrix, 11.3 at 0.25) with every user fact still kept.
PRESERVE_SHARES = ((4096, 0.15), (8192, 0.20), (10**9, 0.25))
CHECKPOINT_SHARE = 0.25  # all checkpoints together; past it they are merged in one batch
MESSAGE_SHARE = 0.6  # one unpinned message (a huge paste) is clipped beyond this


def level_targets(config: EngineConfig) -> dict[int, int]:
    """Token targets per checkpoint level: 3 detailed, 2 moderate (1/2), 1 compact (1/4).

    About 8 % of the usable context for a fresh checkpoint, capped by
    ``summary_max_tokens`` (raised for 64K+ contexts so rich tiers stay rich), never below
    ``MIN_TARGET``.
    """
    usable = usable_tokens(config)
    cap = config.summary_max_tokens * max(1, config.context_size // 32768)
    detailed = max(MIN_TARGET, min(int(usable * 0.08), cap))
    return {3: detailed, 2: max(MIN_TARGET, detailed // 2), 1: max(MIN_TARGET, detailed // 4)}


def effective_preserve(config: EngineConfig, available: int) -> int:
    """Recent tokens kept verbatim after a compaction.

    Automatic (``preserve_recent_tokens`` 0): a quarter of what is available, so it scales
    with the context (2,048 at every size kept 1.8 % of a 128K window). An explicit value is
    honoured up to half of the trigger, so compaction still frees room and the next one is
    several turns away, not every other turn.
    """
    ceiling = int(config.trigger_ratio * available * 0.5)
    if config.preserve_recent_tokens <= 0:
        share = next(s for size, s in PRESERVE_SHARES if config.context_size <= size)
        return max(0, min(int(available * share), ceiling))
    return max(0, min(config.preserve_recent_tokens, ceiling))


def user_quote_scale(config: EngineConfig) -> float:
    return next(s for size, s in USER_QUOTE_SCALES if config.context_size <= size)


def goal_cap(config: EngineConfig) -> int:
    return max(64, int(usable_tokens(config) * GOAL_SHARE))


def ledger_budget(config: EngineConfig) -> int:
    share = next(s for size, s in LEDGER_SHARES if config.context_size <= size)
    return max(48, int(usable_tokens(config) * share))


def checkpoint_budget(config: EngineConfig) -> int:
    return max(MIN_TARGET * 2, int(usable_tokens(config) * CHECKPOINT_SHARE))


def message_cap(config: EngineConfig, fixed: int) -> int:
    """The most one unpinned message may take in a request (head + tail beyond it)."""
    return max(96, int((usable_tokens(config) - fixed) * MESSAGE_SHARE))


def summary_predict(config: EngineConfig, target: int) -> int:
    """num_predict for a summary request: room to overshoot a little, never unlimited."""
    wanted = int(target * config.estimate_scale * 1.5) + 32
    return max(64, min(wanted, config.summary_max_tokens * max(1, config.context_size // 32768)))
