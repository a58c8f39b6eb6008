"""How a context size reads for the user ("8K — 8,192 tokens") and back from what they type;
the engine's tier of a size is said only in Preferences' Advanced section, with what it means."""

from __future__ import annotations

import re

from ollm_desktop.controller import context_tier


def format_context_size(tokens: int) -> str:
    """8192 -> "8K", 131072 -> "128K", 1048576 -> "1M"; odd sizes keep their digits."""
    if tokens >= 1_048_576 and tokens % 1_048_576 == 0:
        return f"{tokens // 1_048_576}M"
    if tokens % 1024 == 0:
        return f"{tokens // 1024}K"
    return f"{tokens:,}"


_SIZE_TEXT = re.compile(r"^\s*([\d][\d,_ ]*)\s*([kKmM]?)")


def context_size_label(size: int) -> str:
    return f"{format_context_size(size)} — {size:,} tokens"


def parse_context_size(text: str) -> int | None:
    """"8K — 8,192 tokens" -> 8192; "16K" -> 16384; "12000" -> 12000; junk -> None."""
    match = _SIZE_TEXT.match(text)
    if not match:
        return None
    digits = re.sub(r"[,_ ]", "", match.group(1))
    if not digits:
        return None
    value = int(digits)
    unit = match.group(2).lower()
    return value * 1024 if unit == "k" else value * 1_048_576 if unit == "m" else value


def tier_explanation(size: int) -> str:
    """The Advanced section's line: the engine's tier of ``size`` and what it decides."""
    return (f"{format_context_size(size)} is tier {context_tier(size)} of 5: the tier sets how "
            "large checkpoints (the summaries of older messages) may be and how many are kept; "
            "tiers 1-2 keep one rolling checkpoint, larger ones several that are shortened as "
            "they age.")
