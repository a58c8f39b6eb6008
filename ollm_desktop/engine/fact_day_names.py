"""An old date named by its day alone: "the deadline is 2027-01-17, not the 20th" takes back
the current date of the 20th ("2027-01-20", "January 20", "20 Jan"), and no other. People
name the date they correct by the part that changed; the month and year go without saying,
and so does the key only when it is the correction's own: "my talk is on the 21st, not the
20th" takes back no conference date of the 20th.
"""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_topics import key_words
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.fact_value_forms import day_of_month

_ORDINAL_DAY = re.compile(r"(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\.?", re.IGNORECASE)


def names_by_day(said: str, old: Fact, replacement: Fact) -> bool:
    """``said`` (an old value: "20th", "the 20th") is a day alone, and ``old`` a full date of
    that day whose key is ``replacement``'s: a key word of both, or either without one (the
    month and year go without saying, another key's date of that day does not)."""
    found = _ORDINAL_DAY.fullmatch(said.strip())
    if found is None or day_of_month(old.value) != int(found.group(1)):
        return False
    mine, its = key_words(replacement), key_words(old)
    return not mine or not its or bool(mine & its)


def one_date_by_day(said: str, olds: list[Fact]) -> list[Fact]:
    """``olds`` (what an old value ``said`` names) without the dates it names by their day
    alone when they are dates of more than one key: "the 22nd, not the 20th" after "the
    deadline is March 20 and the party is on 2027-04-20" says which 20th no more than it
    says which month."""
    if _ORDINAL_DAY.fullmatch(said.strip()) is None:
        return olds
    by_day = [f for f in olds if day_of_month(f.value) is not None]
    if len({f.key for f in by_day}) <= 1:
        return olds
    return [f for f in olds if f not in by_day]
