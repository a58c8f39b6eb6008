"""The unit class of a value whose shape, not a unit word after its figure, says what it
measures: a dilution or scale ("1:500"), a size in dimensions ("30x40 cm", "1920x1080"), how
often ("twice a day", "3 times a week", "once daily", "daily", "every morning"). Each is one
class, so "1:1000" replaces "1:500" and "once a day" replaces "twice a day", and neither is
read as a unit word (":500").
"""
from __future__ import annotations

import re

from ollm_desktop.engine.reference_value_shapes import TIMES

_RATIO = re.compile(r"\d{1,2}:\d{3,6}")
_SIZE = re.compile(r"\d+(?:\.\d+)?(?:\s?[x×]\s?\d+(?:\.\d+)?){1,2}(?:\s?(?P<side>\S+))?")
_EVERY = "daily|weekly|biweekly|fortnightly|monthly|quarterly|nightly|hourly|yearly|annually"
_HOW_OFTEN = re.compile(rf"{TIMES}\s+(?:a|an|per|each|every)\s+\w+|(?:(?:once|twice)\s+)?"
                        rf"(?:{_EVERY})|every\s+(?:\w+\s)?\w+")
_NOT_HOW_OFTEN = re.compile(r"every\s+\d.*")  # ("every 2 days": a period, a duration)


def shaped_class(value: str) -> str | None:
    """The class a value's shape gives it, or None when its unit word says what it is."""
    text = value.strip().lower()
    if _RATIO.fullmatch(text):
        return "ratio"
    if (size := _SIZE.fullmatch(text)) is not None:
        return f"dimensions {size['side']}" if size["side"] else "dimensions"
    if _HOW_OFTEN.fullmatch(text) and not _NOT_HOW_OFTEN.fullmatch(text):
        return "frequency"
    return None
