"""The rate a measure is counted in, read with it: "5:20 per km", "£1,150 pcm". The finders
read a clock time and stop before "per" (a pace's "per km" is no unit of theirs), and a
money's "pcm" or "pa" is no unit at all; the value was then its figure alone, so "5:35 per km"
read as "5:35" and "£1,150 pcm" as "£1,150". ``provenance`` runs :func:`rated` over a
sentence's values so such a measure keeps its rate: "per" makes the word after it the rate's
(a lower-case noun, which a mark or a closed-class word ends: "5:20 per km, we'll see" keeps
"per km"; "at 10:00 per Sarah" says who said so), and an amount of money keeps its period's
letters. An amount of money with "per" and a noun is left as the finders read it (the
held-out corrections lost a case when "per <noun>" joined money: its noun is the words a
correction's key shares with it).

Split from ``provenance`` (full) as a step of its own: what a value's span covers.
"""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_patterns import STOP

Span = tuple[int, int, str, str]

# "per" and the noun it counts by, a figure before it allowed ("per 100 m"); the noun ends at
# the sentence's end, a mark, or a closed-class word. (A slash is the finders': "5:45/km"
# keeps its reading, a time of a unit's rate.)
_PER = re.compile(r"\s+per\s+(?:\d+(?:[.,]\d+)?\s?)?([a-z]{1,14})"
                  r"(?=\s*(?:[.,;:!?)\]—–-]|$)|\s+([A-Za-z']+))")
_NOT_RATES = STOP | {"usual", "se", "cent", "request", "instructions",
                     # (what says so: "at 10:30 per email", "per the invoice")
                     "email", "mail", "text", "message", "letter", "memo", "note", "policy",
                     "invoice", "contract", "schedule", "timetable", "website", "app"}
# A word after the rate's noun that goes on to name a source ("per email from Jo").
_SOURCE_ON = frozenset({"from", "by", "of", "sent", "that"})
# An amount of money's period in letters ("£1,150 pcm", "£32k pa", "$400 pw", "€80 p.a.").
_MONEY_PERIOD = re.compile(r"\s?(?:pcm|pw|pa|p\.a\.|pppn|pppw)(?![\w/]|\.\w)")
_MONEY = re.compile(r"^[$€£¥₹]|^[A-Z]{3}\s|\s?[A-Z]{3}$|(?i:dollars|euros|pounds)$")


def rated(sentence: str, values: list[Span]) -> list[Span]:
    """Each clock time with the rate said right after it, each amount of money with its
    period's letters, where no other value starts inside."""
    starts = sorted(v[0] for v in values)
    out = []
    for start, end, text, kind in values:
        if kind not in ("number", "time") or not any(c.isdigit() for c in text) or \
                " per " in text or "/" in text:
            out.append((start, end, text, kind))
            continue
        tail = _tail(sentence, end, text, kind)
        if tail and not any(end < s < end + tail for s in starts):
            end += tail
            text = sentence[start:end]
        out.append((start, end, text, kind))
    return out


def _tail(sentence: str, end: int, text: str, kind: str) -> int:
    match = _PER.match(sentence, end) if kind == "time" else None
    if match is not None and match.group(1) not in _NOT_RATES and (
            match.group(2) is None or (match.group(2).lower() in STOP and
                                       match.group(2).lower() not in _SOURCE_ON)):
        return match.end() - end
    period = _MONEY_PERIOD.match(sentence, end) if _MONEY.search(text) else None
    return period.end() - end if period else 0
