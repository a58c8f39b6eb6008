"""The unit class of a value whose shape, not a unit word after its figure, says what it
measures: a dilution or scale ("1:500"), a size in dimensions ("30x40 cm", "1920x1080"), how
often ("twice a day", "3 times a week", "once daily", "daily", "every morning"), a stock's
strength ("0.5x PBS": of PBS), sets of repetitions ("3 sets of 8"), a command-line option's
figure ("-Xmx4g": of -Xmx), how many a dish serves ("serves 4": servings), a pace ("24:30 pace",
"9 minute miles"), a count with its magnitude glued on ("1.2M rows": rows, as "150 rows"
are). Each is one class, so "1:1000" replaces "1:500" and "once a day" replaces
"twice a day", and neither is read as a unit word (":500").
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
_STRENGTH = re.compile(r"\d+(?:\.\d+)?\s?[x×]\s?(?P<stock>[a-z][a-z0-9]{1,5})")
_OPTION = re.compile(r"(?P<flag>-[a-z]{1,4})\d+[kmg]?")
_PACE = re.compile(r"\d{1,2}:[0-5]\d\space|\d{1,2}[ -]minute\s(?:mile|km|kilo).*")
_SERVES = re.compile(r"(?:serves|feeds)\s.*")
_SETS = re.compile(r"\d+\s+sets?\s+of\s+\d+(?:\s+(?:reps?|repetitions))?")
# A figure with its magnitude glued on, then what it counts ("1.2M rows", "980k rows",
# "2.5bn requests"): a count of the noun, whatever the magnitude.
_MAGNITUDE = re.compile(r"[\d.,]+(?:k|m|bn|mn)\s+(?P<noun>[a-z]{3,})")


def shaped_class(value: str) -> str | None:
    """The class a value's shape gives it, or None when its unit word says what it is."""
    text = value.strip().lower()
    if _RATIO.fullmatch(text):
        return "ratio"
    if (size := _SIZE.fullmatch(text)) is not None:
        return f"dimensions {size['side']}" if size["side"] else "dimensions"
    if (strength := _STRENGTH.fullmatch(text)) is not None:
        return f"strength {strength['stock']}"  # ("0.5x PBS": PBS at a strength)
    if (option := _OPTION.fullmatch(text)) is not None:
        return f"option {option['flag']}"  # ("-Xmx3g" replaces "-Xmx4g", not "-Xms512m")
    if _PACE.fullmatch(text):
        return "pace"  # ("24:30 pace", "9 minute miles": time a distance)
    if _SERVES.fullmatch(text):
        return "serving"  # ("serves 4", "8 servings": one class)
    if _SETS.fullmatch(text):
        return "sets"  # ("3 sets of 8": "4 sets of 10" replaces it)
    if (counted := _MAGNITUDE.fullmatch(text)) is not None:  # ("1.2M rows": rows)
        noun = counted["noun"]
        return noun[:-1] if noun.endswith("s") and len(noun) > 3 else noun
    if _HOW_OFTEN.fullmatch(text) and not _NOT_HOW_OFTEN.fullmatch(text):
        return "frequency"
    return None
