"""Dotted initials ("a.m.", "U.S.") end no sentence when the sentence goes on after them.

The sentence splitter ends a sentence at a full stop and a space, whatever case follows (chat
text is often lower case). A time written with dotted meridiem letters then cuts its own
sentence in two: "the game moves from 3:15 p.m. to 3:25 p.m." became "… from 3:15 p.m." and
"to 3:25 p.m.", so the change's old and new values sat in two sentences and never paired. The
piece after "a.m."/"p.m." continues the sentence when it opens with a preposition ("to 3:25
p.m.", "until 6 p.m.") or a time zone's letters ("CST to 3:25 p.m. CST", "ET on Sunday"), or
with the time's own day or place ("pushed back to 10:05 a.m. Saturday", "moved to 10:00 a.m.
local time from its original noon schedule": the change's old value is in the piece); any
other word opens a new sentence, in lower case too ("… at 3 p.m. the bar opens later"). After
other dotted initials ("a coffee in most U.S. shops costs $2.45": "U.S." cut the sentence
before its value): the piece after them goes on when it opens in lower case. A title or a
name's middle initial ("Dr. K. Patel", "Jane Q. Public") goes on into the capitalised name. A
month's abbreviation ("moved to Sept. 14", "Dec. 13, 2013") goes on into the day after it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ollm_desktop.engine import fact_patterns as P
from ollm_desktop.engine.fact_words import PREPOSITIONS, TITLES
from ollm_desktop.engine.reference_words import MONTH_ABBREVIATIONS, WEEKDAYS

_MERIDIEM_END = re.compile(r"\b[ap]\.m\.$", re.IGNORECASE)
# an abbreviation of dotted initials: "U.S.", "U.K.", "D.C.", "a.m."
_INITIALS_END = re.compile(r"(?<![\w.])(?:[A-Za-z]\.){2,}$")
# the days a time is said of ("10 a.m. tomorrow"): a closed class
_DAYS_AROUND = frozenset({"today", "tomorrow", "tonight", "yesterday", "local"})
# or the word of a correction's shape that pairs the time with another ("7:50 a.m. instead
# of 7:25 a.m.", "3 p.m., not 4 p.m.", "9 a.m. rather than 10")
_PAIRING = frozenset({"instead", "rather", "not", "and", "or", "but"})
# or the weekday the time is on ("10:05 a.m. Saturday", "9 a.m. Mondays")
_WEEKDAY = re.compile(rf"{WEEKDAYS}s?$", re.IGNORECASE)
# lower case, or a digit (after initials that are no time)
_LOWER = re.compile(r"[a-z0-9(,;:–—-]")
# or, after "a.m."/"p.m.", a time zone's abbreviation (CST, ET, PDT, AEST, UTC, GMT)
_ZONE = re.compile(r"(?:[A-Z]{1,4}T|UTC|GMT)\b")
# a name's title or middle initial before its next capitalised part ("Dr. K. Patel", "J. Moss"):
# a title, or one capital letter after a title, a capitalised word or the sentence's start
_NAME_PART_END = re.compile(
    r"(?:(?<![\w.])(?:" + "|".join(t.capitalize() for t in sorted(TITLES))
    + r")\.|(?:^|(?<![\w.])[A-Z][\w.]*\s+)[A-Z]\.)$")

# a month's abbreviation ("moved to Sept. 14"): the date goes on into its day
_CALENDAR_END = re.compile(rf"(?<![\w.])(?:{MONTH_ABBREVIATIONS})\.$")


def sentences(text: str) -> list[str]:
    """``fact_patterns.sentences`` with a sentence cut after dotted initials joined again when
    what follows goes on with it (see the module's docstring)."""
    out: list[str] = []
    for sentence in P.sentences(text):
        timed = bool(out) and _MERIDIEM_END.search(out[-1]) is not None
        if (timed and _after_time(sentence)) or (
                out and _CALENDAR_END.search(out[-1]) and sentence[:1].isdecimal()) or (
                out and not timed and _INITIALS_END.search(out[-1]) and _LOWER.match(sentence)) \
                or (out and _NAME_PART_END.search(out[-1]) and sentence[:1].isupper()):
            out[-1] = f"{out[-1]} {sentence}"
        else:
            out.append(sentence)
    return out



@lru_cache(maxsize=2048)
def sentences_once(text: str) -> tuple[str, ...]:
    """``sentences`` of a message's text, split once: every compaction that absorbs the
    message's facts asks for them again (``fact_topics``; issue 28, point 7)."""
    return tuple(sentences(text))


def _after_time(sentence: str) -> bool:
    """What goes on after a time's "a.m."/"p.m.": its zone, a preposition ("to 3:25 p.m.",
    "until 5 p.m.", "on Sunday") or its day ("tomorrow"); a lower-case word of another kind
    opens a sentence of its own, as chat text often does ("… at 3 p.m. the room is B12")."""
    first = next(iter(re.findall(r"[\w']+", sentence)), "").lower()
    return bool(_ZONE.match(sentence)) or first in PREPOSITIONS or first in _DAYS_AROUND or \
        _WEEKDAY.match(first) is not None or first in _PAIRING
