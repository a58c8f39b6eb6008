"""One form of a value however it is written ("$5000" is "$5,000", "9:15am" is "9:15",
"March 14" is "2027-03-14", "two cups" is "2 cups"), and the day of a full date: the one
place that reads a clock time's and a date's written forms for comparing values
(``fact_named_olds`` meets an old value a correction names, ``fact_day_names`` a date named
by its day alone).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ollm_desktop.engine.reference_words import WEEKDAYS

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_CLOCK = re.compile(r"(\d{1,2})(?::(\d{2}))?\s*(?:([ap])\.?m\.?)?"
                    r"(?:\s+([a-z]{0,2}[sd]t|[ecmp]t|[cwe]et|cest|utc|gmt))?")  # (its zone)
_NAMED_HOURS = {"noon": "12:00", "midday": "12:00", "midnight": "0:00"}
_NAMED_HOUR = re.compile(r"(?:12\s+)?(noon|midday|midnight)(?:\s+([a-z]{1,5}))?")
_WEEKDAY = re.compile(rf"{WEEKDAYS},?\s+")
_ISO = re.compile(r"\d{4}-(\d{2})-(\d{2})")
_MONTH_DAY = re.compile(rf"{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?")
_DAY_MONTH = re.compile(rf"(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}(?:,?\s+\d{{4}})?")
_ORDINAL_DAY = re.compile(r"(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)")  # "the 12th", "12th"
_OCLOCK = re.compile(r"(\d{1,2})\s?o['’]?clock")  # "8 o'clock": "8:00"
_GROUPED = re.compile(r"(?<=\d)[,\u202f\u00a0](?=\d{3}(?!\d))")  # "5,000": 5000


@lru_cache(maxsize=16384)
def value_form(value: str) -> str:
    """One form of a value however it is written: a clock time as "H:MM" on 24 hours ("9:15am",
    "9:15", "7 pm" as "19:00"), a date as its month and day ("2027-03-14", "March 14", "14th of
    March" as "date 3-14"; a year named on one side only is left unsaid), a number without its
    thousands separators ("$5,000" as "$5000"); else its lower-case text."""
    text = value.strip().rstrip(".").lower().removeprefix("every ")  # (a period: its length)
    if ordinal := _ORDINAL_DAY.fullmatch(text):  # a day of the month, with "the" or without
        return f"day {int(ordinal.group(1))}"
    text = _OCLOCK.sub(r"\1:00", text)  # ("8 o'clock pm" as "8:00 pm": 20:00)
    if named := _NAMED_HOUR.fullmatch(text):  # "noon", "12 noon", "noon ct"
        return f"{_NAMED_HOURS[named.group(1)]} {named.group(2) or ''}".strip()
    clock = _CLOCK.fullmatch(text)
    if clock and (clock.group(2) or clock.group(3)):
        hour, minute = int(clock.group(1)), clock.group(2) or "00"
        hour = hour % 12 + (12 if clock.group(3) == "p" else 0) if clock.group(3) else hour
        return f"{hour}:{minute} {clock.group(4) or ''}".strip()  # (its zone, if it has one)
    weekday = _WEEKDAY.match(text)
    if weekday:
        rest = value_form(text[weekday.end():])
        return f"{weekday.group(0).strip(', ')} {rest}" if rest.startswith("date ") else text
    if iso := _ISO.fullmatch(text):
        return f"date {int(iso.group(1))}-{int(iso.group(2))}"
    if month_day := _MONTH_DAY.fullmatch(text):
        return f"date {_MONTHS.index(month_day.group(1)) + 1}-{int(month_day.group(2))}"
    if day_month := _DAY_MONTH.fullmatch(text):
        return f"date {_MONTHS.index(day_month.group(2)) + 1}-{int(day_month.group(1))}"
    word, _, rest = text.partition(" ")
    if rest and word in _CARDINALS:  # "two tablespoons" is "2 tablespoons"
        text = f"{_CARDINALS[word]} {rest}"
    return _GROUPED.sub("", text)


# The cardinals in words up to twelve, as a count before its noun is written either way.
_CARDINALS = {word: str(n) for n, word in enumerate(
    ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
     "eleven", "twelve"))}


def day_of_month(value: str) -> int | None:
    """The day of a full date ("2027-01-20", "January 20", "20th of January"), else None."""
    form = value_form(value)
    return int(form.rpartition("-")[2]) if form.startswith("date ") else None
