"""A change verb's new value followed by when the change was made ("renamed the repo to
payments-core yesterday", "migrated the monorepo to pnpm last sprint"; issue 28).

A bare word after a change verb's "to" is its new value only where its clause ends there
(``fact_values``): "switch the log level to info". People add when they made the change, a
time adverb or a deictic time phrase of a closed class, and the clause still ends with it.
The time is no part of the value and names nothing of its key. Only a closed class is read:
a deictic adverb ("yesterday", "today", "earlier"), or "last" / "this" and a noun of a time
span ("last sprint", "this morning"), with the clause's end right after it; "to pnpm last
year's way" or "to info next to …" go on and are not read so.
"""

from __future__ import annotations

from collections.abc import Sequence

from ollm_desktop.engine.fact_leads import from_now
from ollm_desktop.engine.fact_value_spans import ends_clause
from ollm_desktop.engine.fact_words import BOUNDARY, PRONOUNS, Tok, closed

# Deictic adverbs of a past or present time (a closed class).
_WHEN = closed("yesterday today tonight earlier recently")
# "last" / "this" and a noun of a span of time (closed classes).
_DEICTIC = closed("last this")
_SPANS = closed("week month year sprint night morning afternoon evening weekend quarter "
                "release cycle term semester season")


def timed_end(tokens: Sequence[Tok], i: int) -> bool:
    """Whether the value at ``i`` is followed only by when it was set, then its clause's end."""
    if i + 1 >= len(tokens):
        return False
    nxt = tokens[i + 1].word
    if nxt in _WHEN:
        return ends_clause(list(tokens), i + 1)
    return nxt in _DEICTIC and i + 2 < len(tokens) and tokens[i + 2].word in _SPANS and \
        ends_clause(list(tokens), i + 2)


# The words that open when a change holds from ("from next term", "starting Monday", "as of
# tomorrow"): closed classes, as the deictic times after them.
_FROM = closed("from starting")
_NEXT = closed("next this")
_DAYS = closed("today tomorrow monday tuesday wednesday thursday friday saturday sunday")


def from_then(tokens: Sequence[Tok], k: int, end: int) -> bool:
    """Whether the words from ``k`` to the clause's ``end`` say only when a change holds
    from: "from next term", "starting this week", "from Monday", "from tomorrow", "next
    month" ("moved to the Northgate leisure centre from next term": the place, then when)."""
    at = k + (k < end and tokens[k].word in _FROM)
    words = [t.word for t in tokens[at:end]]
    dated = len(words) == 1 and (tokens[at].value or ("", "", "", ""))[3] == "date"
    return (len(words) == 1 and words[0] in _DAYS) or dated or \
        (len(words) == 2 and words[0] in _NEXT and words[1] in _SPANS)


# The part of a day or week a setting holds in ("the bedroom is at 18 at night", "the
# heating runs at 21 in the morning", "the gate is on 2 on weekends"): closed classes.
_DAY_PARTS = {"at": closed("night"), "in": closed("morning mornings afternoon evening evenings"),
              "on": closed("weekdays weekends"), "during": closed("day")}


def day_part_end(tokens: Sequence[Tok], i: int) -> bool:
    """Whether the value at ``i`` is followed only by the part of the day it holds in, then
    its clause's end ("is at 18 at night.", "is at 21 in the evening")."""
    if i + 2 >= len(tokens):
        return False
    word, nxt = tokens[i + 1].word, tokens[i + 2].word
    k = i + 2 + (nxt == "the" and word == "in")  # ("in the morning")
    parts = _DAY_PARTS.get(word)
    return parts is not None and k < len(tokens) and tokens[k].word in parts and \
        ends_clause(list(tokens), k)


# Adverbs of how much of the time a value holds, at a clause's end ("year 8 mostly"): a
# closed class; none names a thing.
_MOSTLY = closed("mostly mainly usually normally generally again too")


def time_tail(tokens: Sequence[Tok], at: int, end: int) -> bool:
    """Whether the words from ``at`` to the clause's ``end`` say only when, or how much of
    the time, the value before them holds: "this year", "next term", "going forward", "from
    now on", "now", "mostly", "this year mostly" ("im teaching year 8 this year mostly")."""
    end -= end - 1 > at and tokens[end - 1].word in _MOSTLY
    if at >= end:
        return True
    if end - at == 1 and tokens[at].word in ("now", *_WHEN, *_MOSTLY):
        return True
    return from_then(tokens, at, end) or from_now(list(tokens), at) == end - at


def clause_timed(tokens: Sequence[Tok], at: int, noun: int) -> bool:
    """Whether the words from ``at`` to the clause's end (a boundary) say only when the value
    before them holds, after a noun's "'s" at ``noun`` (not a pronoun's: "She's 70
    tomorrow" names no key): "the codename's Osprey from today" (``fact_surface.spelled_is``).
    A possessive after the "'s" is an owner, no value ("the car's Priya's from tomorrow")."""
    end = next((k for k in range(at, len(tokens)) if tokens[k].word in BOUNDARY), len(tokens))
    return at < end and tokens[noun].word[:-2] not in PRONOUNS and \
        not tokens[noun + 1].word.endswith("'s") and time_tail(tokens, at, end)
