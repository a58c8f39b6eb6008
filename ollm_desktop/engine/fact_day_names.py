"""An old date named by its day alone: "the deadline is 2027-01-17, not the 20th" takes back
the current date of the 20th ("2027-01-20", "January 20", "20 Jan"), and no other. People
name the date they correct by the part that changed; the month and year go without saying.
"""

from __future__ import annotations

import re

_ORDINAL_DAY = re.compile(r"(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\.?", re.IGNORECASE)
_ISO = re.compile(r"\d{4}-\d{2}-(\d{2})")
_MONTH = (r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?")
_MONTH_DAY = re.compile(rf"{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?",
                        re.IGNORECASE)
_DAY_MONTH = re.compile(rf"(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}(?:,?\s+\d{{4}})?",
                        re.IGNORECASE)


def day_of_month(value: str) -> int | None:
    """The day of a full date ("2027-01-20", "January 20", "20th of January"), else None."""
    text = value.strip()
    for pattern in (_ISO, _MONTH_DAY, _DAY_MONTH):
        found = pattern.fullmatch(text)
        if found:
            return int(found.group(1))
    return None


def names_by_day(said: str, value: str) -> bool:
    """``said`` (an old value: "20th", "the 20th") is a day alone, and ``value`` a full date
    of that day."""
    found = _ORDINAL_DAY.fullmatch(said.strip())
    return found is not None and day_of_month(value) == int(found.group(1))
