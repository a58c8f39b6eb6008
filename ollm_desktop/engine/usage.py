"""The context meter's figures (``ContextUsage``) from an assembled request.

Kept apart from the assembly so what is *sent* and how it is *reported* each fit one page;
the note is the one sentence the UI shows when something is left out, cut or refused.
"""

from __future__ import annotations

from ollm_desktop.engine import budget
from ollm_desktop.engine.assembly import Assembly, Region
from ollm_desktop.engine.conversation import Conversation
from ollm_desktop.engine.models import ContextUsage, EngineConfig, Visibility


def usage_note(a: Assembly, data: Conversation, usable: int) -> str:
    if a.over_budget:
        if a.system + a.goal >= usable:
            return ("The system prompt and goal alone exceed the usable context: shorten the "
                    "system prompt or choose a larger context size.")
        names = [data.messages[data.index[i]] for i in a.blocking_pins[:3]]
        if not names:  # no pinned message: the ledger's pinned facts take the room
            return (f"Pinned facts alone exceed the usable context ({usable:,} tokens): unpin "
                    "some in the facts panel to continue.")
        listed = "; ".join(f"{m.role} message “{m.content[:40].strip()}…” "
                           f"({m.tokens:,} tokens)" for m in names)
        return (f"Pinned messages alone exceed the usable context ({usable:,} tokens): "
                f"unpin some to continue, largest first: {listed}.")
    if a.dropped_count:
        return f"{a.dropped_count} older messages are left out of the context to fit."
    if a.clipped_ids:
        return (f"{len(a.clipped_ids)} long messages are sent as their beginning and end "
                "(the full text stays in the history).")
    if a.goal_condensed:
        return f"{a.goal_condensed} older locked decisions are condensed in the goal block."
    return ""


def build_usage(a: Assembly, data: Conversation, tier: budget.TierSpec) -> ContextUsage:
    config = data.config
    usable = budget.usable_tokens(config)
    fixed = a.system + a.goal + a.checkpoints + a.ledger + a.preserved + a.recent_pinned \
        + data.tools_tokens
    available = max(0, usable - config.request_overhead - fixed)
    return ContextUsage(
        context_size=config.context_size, usable=usable, system=a.system, goal=a.goal,
        checkpoints=a.checkpoints, preserved=a.preserved, pinned=a.pinned, recent=a.recent,
        total=a.total, available=available, trigger=int(config.trigger_ratio * available),
        tier=tier.tier, tier_name=tier.name,
        percent=round(a.total / usable, 4) if usable else 1.0,
        compaction_count=data.compaction_count, checkpoint_count=len(data.groups),
        dropped_messages=a.dropped_count, over_budget=a.over_budget,
        note=usage_note(a, data, usable), ledger=a.ledger,
        clipped_messages=len(a.clipped_ids), goal_condensed=a.goal_condensed,
        request_overhead=config.request_overhead, blocking_pins=a.blocking_pins,
        user_share=user_share(config, usable - a.system - a.goal - a.checkpoints),
        tools=data.tools_tokens,
    )


def user_share(config: EngineConfig, base: int) -> int:
    """What kept user messages may take of ``base`` (0: they are not kept word for word)."""
    if not config.preserve_user_messages:
        return 0
    return int(config.user_message_share * budget.user_quote_scale(config) * max(0, base))


def visibility(data: Conversation, region: Region, a: Assembly) -> dict[str, Visibility]:
    """Per message: verbatim | preserved | summarized | dropped | clipped (for the UI)."""
    dropped = set(data.dropped)
    result: dict[str, Visibility] = {}
    for position, message in enumerate(data.messages):
        mid = message.id
        if mid in a.dropped_ids:
            result[mid] = "dropped"
        elif mid in a.clipped_ids:
            result[mid] = "clipped"
        elif mid in a.pruned_ids:
            result[mid] = "pruned"
        elif message.role == "system":
            result[mid] = "preserved"
        elif position >= region.boundary:
            result[mid] = "verbatim"
        elif message.pinned or (mid not in region.replaced and mid not in dropped):
            result[mid] = "preserved"
        elif mid in dropped:
            result[mid] = "dropped"
        else:
            result[mid] = "summarized"
    return result
