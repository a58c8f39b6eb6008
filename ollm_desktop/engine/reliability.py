"""Reliability score (seed 001): model size x compression penalty x context confidence."""

from __future__ import annotations

import re

from ollm_desktop.engine.models import ContextUsage, Reliability, ReliabilityLevel

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


def model_factor(billions: float | None) -> float:
    if billions is None:
        return 0.50  # unknown: assume a typical 7-8B local model
    if billions >= 70:
        return 0.95
    if billions >= 30:
        return 0.85
    if billions >= 13:
        return 0.70
    if billions >= 7:
        return 0.50
    return 0.30


def recommended_compressions(billions: float | None) -> int:
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


def compute_reliability(
    usage: ContextUsage, billions: float | None, *, failed_summary: bool = False
) -> Reliability:
    factor = model_factor(billions)
    penalty = max(1.0 - usage.compaction_count * 0.15, 0.30)
    confidence = 1.0
    reasons: list[str] = []
    if usage.dropped_messages:
        confidence *= 0.8
        reasons.append(f"{usage.dropped_messages} messages left out to fit")
    if failed_summary:
        confidence *= 0.9
        reasons.append("the last summary failed")
    if usage.over_budget:
        confidence *= 0.7
        reasons.append("pinned messages exceed the context")
    if usage.percent > 0.95:
        confidence *= 0.9
        reasons.append("context almost full")
    score = factor * penalty * confidence
    level = level_for(score)
    size = f"{billions:g}B" if billions is not None else "unknown size"
    explanation = (
        f"Model {size}: factor {factor:.2f}; {usage.compaction_count} compressions: "
        f"x{penalty:.2f}; context confidence x{confidence:.2f}"
        + (f" ({', '.join(reasons)})" if reasons else "")
        + f". Score {score:.0%}."
    )
    warning = usage.compaction_count > 0 and (
        level == "critical" or usage.compaction_count >= recommended_compressions(billions)
    )
    return Reliability(
        score=round(score, 4),
        level=level,
        model_factor=factor,
        compression_penalty=round(penalty, 4),
        context_confidence=round(confidence, 4),
        warning=warning,
        explanation=explanation,
        recommendations=RECOMMENDATIONS if level in ("low", "critical") else [],
    )
