"""Reliability (seed 001): model size x compression penalty x context confidence.

The score keeps the seed's three terms. The level and the warning describe what happened to
this chat (the compression penalty x the measured context confidence); the model's size is
shown beside them as its own line and never sets the level alone (the seed's own example
rates a 3B chat "medium" after two compressions, which its formula would make "critical").
The penalty counts what compactions lost, not how often they ran: a compaction whose
checkpoint, ledger and verbatim messages kept every fact the user stated costs nothing; one
that lost some costs up to the seed's 15 %, in proportion (``fact_keeping``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ollm_desktop.engine.fact_keeping import loss_shares, measured_steps
from ollm_desktop.engine.models import (
    CompressedGroup,
    ContextUsage,
    Reliability,
    ReliabilityLevel,
)

# The whole text: a number and an optional unit ("8.0B", "137M", "1.5T", "7": billions);
# else the first number followed by K, M or B anywhere in it ("Llama 8B").
_NUMBER = r"(?<![\d.])(\d+(?:\.\d*)?|\.\d+)"
_WHOLE = re.compile(_NUMBER + r"\s*([KMBT])?", re.IGNORECASE)
_WITHIN = re.compile(_NUMBER + r"\s*([KMB])", re.IGNORECASE)


def parse_parameter_size(text: str | None) -> float | None:
    """Billions of parameters from Ollama's ``parameter_size``; None when it is unusable.

    "8.0B" -> 8.0, "137M" -> 0.137, "1.5T" -> 1500.0; a bare number is billions ("7" -> 7.0).
    A size inside longer text needs its unit ("Llama 8B" -> 8.0).
    """
    if not text:
        return None
    match = _WHOLE.fullmatch(text.strip()) or _WITHIN.search(text)
    if match is None:
        return None
    value = float(match.group(1))
    unit = (match.group(2) or "B").upper()
    if unit == "K":
        return value / 1_000_000
    if unit == "M":
        return value / 1000
    return value * 1000 if unit == "T" else value


PER_COMPRESSION = 0.15  # the seed's penalty for a compression that lost everything
PENALTY_FLOOR = 0.30


def model_factor(billions: float | None) -> float | None:
    """The seed's size factor; None when the size is unknown (never assumed to be 7B)."""
    if billions is None:
        return None
    if billions >= 70:
        return 0.95
    if billions >= 30:
        return 0.85
    if billions >= 13:
        return 0.70
    if billions >= 7:
        return 0.50
    return 0.30


def model_note(billions: float | None) -> str:
    """The model's line beside the level, in plain words."""
    if billions is None:
        return "Model size unknown"
    if billions < 7:
        return "Small models (under 7B) summarise less reliably"
    if billions < 13:
        return "Mid-size models (7-13B) summarise fairly reliably"
    if billions < 70:
        return "Large models (13B and up) summarise reliably"
    return "Very large models (70B and up) summarise very reliably"


def size_text(billions: float | None) -> str:
    if billions is None:
        return "unknown"
    return f"{billions * 1000:.0f}M" if billions < 1 else f"{billions:g}B"


def recommended_compressions(billions: float | None) -> int:
    """Seed 001: small 2-3, medium 3-5, large 5-7 compressions (counted: those that lost)."""
    if billions is not None and billions >= 70:
        return 7
    if billions is not None and billions >= 13:
        return 5
    return 3


def level_for(score: float) -> ReliabilityLevel:
    if score >= 0.85:
        return "high"
    if score >= 0.60:
        return "medium"
    if score >= 0.40:
        return "low"
    return "critical"


RECOMMENDATIONS = [
    "Continue if making good progress",
    "Start a new conversation if you see hallucinations",
    "Use a larger model for complex long-term tasks",
]


def _confidence(usage: ContextUsage, groups: list[CompressedGroup],
                failed_summary: bool) -> tuple[float, float, list[str]]:
    """What we know about the context now: identifiers kept, code-built checkpoints, gaps.

    Returns (confidence, settled confidence, reasons). The settled one leaves out what the
    next compaction resolves (messages left out to fit, a context almost full): the warning
    follows it, so that it never comes and goes with one turn."""
    confidence = 1.0
    reasons: list[str] = []
    steps = [s for g in groups for s in measured_steps(g)]
    read = sum(s.identifiers or 0 for s in steps)
    if read:
        kept = sum(s.identifiers_kept or 0 for s in steps)
        if kept < read:
            confidence *= 0.7 + 0.3 * kept / read
            reasons.append(f"the checkpoints keep {kept:,} of {read:,} identifiers word for word")
    extractive = sum(1 for g in groups if g.extractive)
    if extractive:
        confidence *= 0.9
        reasons.append("a checkpoint was built from the messages (the model's summary was "
                       "unusable)" if extractive == 1 else
                       f"{extractive} checkpoints were built from the messages (the model's "
                       "summaries were unusable)")
    elif failed_summary:
        confidence *= 0.9
        reasons.append("the last summary failed")
    if usage.over_budget:
        confidence *= 0.7
        reasons.append("pinned messages exceed the context")
    settled = confidence
    if usage.dropped_messages:
        confidence *= 0.8
        reasons.append(f"{usage.dropped_messages} messages left out to fit")
    if usage.percent > 0.95:
        confidence *= 0.9
        reasons.append("context almost full")
    return confidence, settled, reasons


def compute_reliability(
    usage: ContextUsage, billions: float | None, *, failed_summary: bool = False,
    groups: Iterable[CompressedGroup] = (),
) -> Reliability:
    """The chat's reliability; ``groups`` are its checkpoints (their measured compactions)."""
    groups = list(groups)
    shares = loss_shares(groups)
    costly = sum(1 for share in shares if share > 0)
    penalty = max(1.0 - PER_COMPRESSION * sum(shares), PENALTY_FLOOR)
    confidence, settled, reasons = _confidence(usage, groups, failed_summary)
    chat = penalty * confidence
    level = level_for(chat)
    factor = model_factor(billions)
    score = chat * (factor if factor is not None else 1.0)
    steps = [s for g in groups for s in measured_steps(g)]
    stated = sum(s.user_facts or 0 for s in steps)
    kept = sum(s.user_facts_kept or 0 for s in steps)
    count = usage.compaction_count
    times = "no compressions" if not count else "1 compression" if count == 1 \
        else f"{count} compressions"
    lost = ("none lost a fact you stated" if not costly else
            f"{costly} lost facts you stated ({stated - kept:,} of {stated:,})")
    model = ("model size unknown (not counted)" if factor is None else
             f"model {size_text(billions)}: factor {factor:.2f}")
    explanation = (
        f"This chat: {times}" + (f", {lost}" if count else "")
        + f": penalty x{penalty:.2f}; context confidence x{confidence:.2f}"
        + (f" ({', '.join(reasons)})" if reasons else "")
        + f"; level {level} ({chat:.0%}). {model[0].upper()}{model[1:]}. Score {score:.0%}."
    )
    warning = count > 0 and (level_for(penalty * settled) in ("low", "critical")
                             or costly >= recommended_compressions(billions))
    return Reliability(
        score=round(score, 4),
        level=level,
        model_factor=factor if factor is not None else 1.0,
        compression_penalty=round(penalty, 4),
        context_confidence=round(confidence, 4),
        warning=warning,
        explanation=explanation,
        recommendations=RECOMMENDATIONS if level in ("low", "critical") or warning else [],
        chat_score=round(chat, 4),
        model_size=size_text(billions),
        model_note=model_note(billions),
        model_known=factor is not None,
        costly_compressions=costly,
        user_facts=stated,
        user_facts_kept=kept,
        reasons=reasons,
    )
