"""Tiers and summary targets by context size (seed 002), scaled with the context."""

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
    3: TierSpec(3, "Standard", 3, "progressive aging"),
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


def level_targets(config: EngineConfig) -> dict[int, int]:
    """Token targets per checkpoint level: 3 detailed, 2 moderate (1/2), 1 compact (1/4).

    About 8 % of the usable context for a fresh checkpoint, capped by
    ``summary_max_tokens`` (raised for 64K+ contexts so rich tiers stay rich).
    """
    usable = usable_tokens(config)
    cap = config.summary_max_tokens * max(1, config.context_size // 32768)
    detailed = max(96, min(int(usable * 0.08), cap))
    return {3: detailed, 2: max(64, detailed // 2), 1: max(48, detailed // 4)}


def effective_preserve(config: EngineConfig, available: int) -> int:
    """Recent tokens kept verbatim; small contexts keep less so compaction frees room."""
    return max(0, min(config.preserve_recent_tokens, int(config.trigger_ratio * available * 0.5)))
