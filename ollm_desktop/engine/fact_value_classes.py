"""The unit class of a value whose shape, not a unit word after its figure, says what it
measures: a dilution or scale ("1:500"), a size in dimensions ("30x40 cm", "1920x1080"), how
often ("twice a day", "3 times a week", "once daily", "daily", "every morning"), a stock's
strength ("0.5x PBS": of PBS), sets of repetitions ("3 sets of 8"), a command-line option's
figure ("-Xmx4g": of -Xmx), how many a dish serves ("serves 4": servings), a pace ("24:30 pace",
"9 minute miles"), a count with its magnitude glued on ("1.2M rows": rows, as "150 rows"
are). Each is one class, so "1:1000" replaces "1:500" and "once a day" replaces
"twice a day", and neither is read as a unit word (":500").

:func:`counted_amount` is what a rate or a measured noun counts in ("45 a month": 45, "3 days
a week": 3 days, "2 bags of ice": 2 bags, "a 48-hour window": 48 hour), so a rate meets the
amount it was said as before ("39 a month", then "it's 45 now").
"""
from __future__ import annotations

import re

from ollm_desktop.engine.reference_value_shapes import TIMES
from ollm_desktop.engine.reference_value_wholes import SPELLED

_RATIO = re.compile(r"\d{1,2}:\d{3,6}|(?!\d{1,3}(?::\d\d)+$)\d{1,3}(?::\d{1,3}){1,3}")
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


# A rate's period after its amount ("a month", "per night", "/hour"), "of" and what a measure
# holds ("2 bags of ice"), and an amount joined to its unit ("48-hour window").
_PERIOD_TAIL = re.compile(r"\s(?:a|an|each|every|per)\s[a-z]+$|\s?/\s?(?:hour|hr|day|week|wk"
                          r"|month|mo|year|yr|night|person|head|min|minute|h|d)$")
_OF_TAIL = re.compile(r"(?<=[a-z])\sof\s[a-z'-]+$")
_JOINED = re.compile(r"([\d.,]+|[a-z]+)-(year|month|week|day|hour|minute|inch|foot|feet|liter"
                     r"|litre|gallon|meter|metre|mile|pound|ounce|gram|kilo|night)\b.*")


def counted_amount(value: str) -> str:
    """The amount a rate, a measure of a thing or a joined amount counts in (see the module's
    docstring); any other value as it is."""
    text = value.strip()
    if _DIGITS.fullmatch(text):  # ("nine zero nine zero": a number said digit by digit)
        return "1"
    if (spelled := _SPELLED.match(text)) is not None:  # ("one hundred and twenty": a number)
        text = "1" + text[spelled.end():]
    if (joined := _JOINED.fullmatch(text.lower())) is not None:
        return f"{joined[1]} {joined[2]}"
    text = _PERIOD_TAIL.sub("", text) if not _PER_FIGURE.search(text) else text
    return _OF_TAIL.sub("", text)


_SPELLED = re.compile(rf"(?i:{SPELLED})(?:\s(?:and\s)?a\shalf)?(?![\w-])")


def spelled_number(text: str) -> bool:
    """A number in words alone ("ninety", "one hundred and twenty")."""
    return _SPELLED.fullmatch(text) is not None


_DIGITS = re.compile(r"(?i:zero|oh|one|two|three|four|five|six|seven|eight|nine)(?:[ -](?i:zero|oh"
                     r"|one|two|three|four|five|six|seven|eight|nine)){2,}")
# Figures joined by hyphens or grouped by spaces, no unit ("9-5", "4-4-7-1", "985 112 004
# 553 201"), and a figure and a half ("nine and a half"): numbers (the
# unit reader would take "-5" or "and a half" for a unit).
_FIGURES = re.compile(r"\d{1,4}(?:[-–]\d{1,4})+|\d{3,4}(?: \d{3,4}){2,5}|[a-z\d -]+ and a half")
_PER_FIGURE = re.compile(r"\sper\s\d")  # ("1 unit per 12 g": its own class, "unit")


def shaped_class(value: str) -> str | None:
    """The class a value's shape gives it, or None when its unit word says what it is."""
    text = value.strip().lower()
    if _RATIO.fullmatch(text):
        return "ratio"  # ("1:500", "1:1:1", "16:9"; not a clock's "9:30")
    if _FIGURES.fullmatch(text):
        return "number"
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
