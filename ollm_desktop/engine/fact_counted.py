"""A number without a unit and the noun it counts: "5,908 participants", "4 parallel jobs" are
one value each; "since 8080 clashes with the proxy" is not a count of clashes.

A number that opens a subordinate clause and is followed by a word in -s that a preposition,
a boundary or the end follows is that clause's subject and its verb ("since 8080 clashes with
Jenkins", "if 8443 clashes.", "because 5432 conflicts with the old cluster"): the number is a
bare value. A counted noun there has its own verb after it ("if 5 servers fail"). (A list's
"16 players.", "11 starters, 5 subs" open no subordinate clause: counts, as before.)
Split from ``fact_values``, which asks it of each unitless number.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_leads import from_now
from ollm_desktop.engine.fact_verbs import SUBORDINATORS, finite_verb
from ollm_desktop.engine.fact_words import (
    AUXILIARIES,
    BOUNDARY,
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    NOT_NP,
    PARTICLES,
    PREPOSITIONS,
    PRONOUNS,
    Tok,
    cardinal,
    closed,
    is_change,
    unitless,
)

# The words of when that follow a value ("to 9090 yesterday", "to 8 tonight"): no noun it
# counts.
_WHEN = frozenset({"yesterday", "today", "tomorrow", "tonight", "now", "instead", "again",
                   "anymore", "already", "too"})


def counted(sentence: str, tokens: list[Tok], i: int) -> None:
    """A number without a unit takes the noun it counts (in place), unless the word after it
    is its clause's verb (see the module's docstring)."""
    value = tokens[i].value
    if value is None or not unitless(value[2]) or _subject_of_verb(tokens, i):
        return
    end = value[1]
    for at, token in enumerate(tokens[i + 1:i + 3], start=i + 1):
        word = token.word
        if at == i + 2 and _labels_next(sentence, tokens, at):
            break  # "12 chunks fov 90", "5 kg flour 2 eggs": "fov" is the next number's label
        if token.value or not word.isalpha() or word in DETERMINERS or word in PREPOSITIONS \
                or word in COPULAS or word in CONJUNCTIONS or word in NOT_NP or \
                word in AUXILIARIES or word in PRONOUNS or word in SUBORDINATORS or \
                is_change(word) or word in _WHEN or word in _HESITATIONS or \
                _moving(tokens, token) or \
                from_now(tokens, tokens.index(token)):  # ("to 9443 if 8443 clashes": no
            # count of "if"; "moved the port to 9090 yesterday": no count of days said by
            break  # name; "from 20 down to 12": of "down"; "at 10 going forward": of "going")
        end = token.end
        token.word = "·"  # part of the value now
    if end != value[1]:
        tokens[i].value = (value[0], end, sentence[value[0]:end], "number")


# A hesitation counts nothing: "4417 er 4471", "12 um 14 people" (a self-repair spoken).
_HESITATIONS = closed("er err erm uh um umm uhh")


def _labels_next(sentence: str, tokens: list[Tok], at: int) -> bool:
    """The word at ``at`` stands close before a number of its own: that number's label, no
    second word of the count before it ("render distance 12 chunks fov 90")."""
    nxt = tokens[at + 1] if at + 1 < len(tokens) else None
    figure = nxt.value[2] if nxt is not None and nxt.value is not None and \
        nxt.value[3] == "number" else nxt.word if nxt is not None and nxt.value is None else ""
    return nxt is not None and figure[:1].isdigit() and tokens[at].word.isalpha() and \
        sentence[tokens[at].end:nxt.start] == " "


def _moving(tokens: list[Tok], token: Tok) -> bool:
    """A particle of direction before "to", "by" or "from" ("from 20 down to 12", "40 up
    from 35", "3 up by 2"): the way a figure moved, no noun it counts."""
    at = tokens.index(token)
    return token.word in PARTICLES and at + 1 < len(tokens) and \
        tokens[at + 1].word in ("to", "by", "from")


def _subject_of_verb(tokens: list[Tok], i: int) -> bool:
    """The number opens a subordinate clause and the word after it is a verb in -s with a
    preposition, a boundary or nothing after it: "since 8080 clashes with the proxy"."""
    if i == 0 or tokens[i - 1].word not in SUBORDINATORS or i + 1 >= len(tokens) or \
            not finite_verb(tokens[i + 1]):
        return False
    after = tokens[i + 2] if i + 2 < len(tokens) else None
    return after is None or after.word in BOUNDARY or (
        after.word in PREPOSITIONS and after.word not in ("of", "per"))


# The words after a count that say it is what there is now ("26 now", "3 left"): no noun.
_NOW = frozenset({"now", "left", "remaining"})
# "so 3 for now", "so 2 for the moment": "for" with a time is no party counted ("so 8 for
# dinner"); a closed class of what follows such a "for" (stop 45's review).
_FOR_A_TIME = frozenset({"now", "the", "a", "today", "tonight", "this", "these"})


def rates(sentence: str, tokens: list[Tok], first: int) -> None:
    """A number, its counted noun if any, then "per" and one noun ("5 per minute", "3
    requests per second", "2 per user") is one value, a rate, where a value goes: after a
    copula, "now", "to", ":" or "of", or opening its clause ("at" is left as it was read: "a
    warning at 90 per minute" names no key). A single digit is then a value too (alone, "is
    5" is as often prose). Its unit class is its count's (``fact_keys.unit_class``): "50
    items per page" replaces "25 items"."""
    for i in range(max(first, 1), len(tokens) - 2):
        token = tokens[i]
        value = token.value
        if not token.word.isdigit() and not (value and unitless(value[2].split()[-1]) and (
                unitless(value[2]) or value[2].split()[0].lower() in _ABOUT)):
            continue  # ("about 200", read as one value: "about 200 per week")
        if value is None and tokens[i - 1].word not in _RATE_SLOT and \
                tokens[i - 1].word not in BOUNDARY:
            continue
        per = i + 1
        while per < len(tokens) - 1 and per < i + 3 and _noun(tokens[per].word) and \
                tokens[per].word != "per":
            per += 1
        noun = tokens[per + 1] if per + 1 < len(tokens) else None
        if tokens[per].word != "per" or noun is None or noun.value or not _noun(noun.word):
            continue
        start = value[0] + value[2].rfind(" ") + 1 if value else token.start  # ("about 200")
        token.value = (start, noun.end, sentence[start:noun.end], "number")
        token.word = ""
        for part in tokens[i + 1:per + 2]:
            part.word = "·"


_ABOUT = frozenset({"about", "around", "roughly", "approximately", "nearly", "almost", "~"})
# The words a rate's number follows where it is a value ("is 5 per minute", "now 60 per hour").
_RATE_SLOT = frozenset({"is", "are", "was", "were", "be", "been", "now", "to", ":", "of",
                        "=", "from"})


def result_counts(sentence: str, tokens: list[Tok], first: int) -> None:
    """A count a sentence gives as the result of what it tells, in place: a number after a
    clause-opening "so" ("We hired two, so 11 engineers now", "Two more are coming, so 8 for
    dinner", "Two cancelled, so 8 of us") or a clause's number and its noun before a closing
    "now" / "left" ("A new kid joined, 26 now", "One got cancelled, 3 left"). The number is a
    value, what there is now: its "so" or "left" reads as "now" (a correction's word), so it
    replaces the count it changes. "so 2 of them failed" is no count of what there is. (Rates
    first: ``rates``.)"""
    rates(sentence, tokens, first)
    for i in range(max(first, 1), len(tokens)):
        token = tokens[i]
        if token.value or not token.word.isdigit():
            continue
        after = i + 1
        while after < len(tokens) and after < i + 3 and _noun(tokens[after].word):
            after += 1
        end = after >= len(tokens) or tokens[after].word in BOUNDARY
        word = tokens[after].word if after < len(tokens) else ""
        closing = word in _NOW and (after + 1 >= len(tokens) or
                                    tokens[after + 1].word in BOUNDARY)
        opener = tokens[i - 1].word == "so" and (i < 2 or tokens[i - 2].word in BOUNDARY)
        us = word == "of" and after + 1 < len(tokens) and tokens[after + 1].word == "us"
        for_whom = word == "for" and (after + 1 >= len(tokens) or
                                      tokens[after + 1].word not in _FOR_A_TIME)
        if not ((opener and (end or closing or for_whom or us))
                or (closing and tokens[i - 1].word in BOUNDARY)):
            continue
        token.value = (token.start, token.end, sentence[token.start:token.end], "number")
        token.word = ""
        if after > i + 1:
            start = token.start
            for noun in tokens[i + 1:after]:
                noun.word = "·"
            token.value = (start, tokens[after - 1].end, sentence[start:tokens[after - 1].end],
                           "number")
        if opener:
            tokens[i - 1].word = "now"  # "so 8 for dinner": now 8 for dinner
            _amounts(tokens, first, i, token.value[2].lower().split()[1:])
        if closing:
            tokens[after].word = "now"  # "3 left": 3 now


def _noun(word: str) -> bool:
    """A plain word a count may take as its noun ("engineers", "open bugs")."""
    return word.isalpha() and word not in DETERMINERS and word not in PREPOSITIONS and \
        word not in COPULAS and word not in CONJUNCTIONS and word not in NOT_NP and \
        word not in AUXILIARIES and word not in PRONOUNS and word not in SUBORDINATORS and \
        word not in _NOW and not is_change(word)


def _amounts(tokens: list[Tok], first: int, result: int, nouns: list[str]) -> None:
    """The counts of the result's own noun before its "so" ("Cancelled one room, so 4 rooms",
    "added 2 seats, so 10 seats") say by how much it changed, not what there was: no value,
    so the result replaces the count held before."""
    if not nouns:
        return
    stem = nouns[-1].removesuffix("s")
    for k in range(first, result - 1):
        word, value = tokens[k].word, tokens[k].value
        words = value[2].lower().split() if value else []
        if (not value and cardinal(word) and
                tokens[k + 1].word.removesuffix("s") == stem) or (
                len(words) == 2 and words[0].isdigit() and words[1].removesuffix("s") == stem):
            tokens[k].word, tokens[k].value = "", None  # ("2 rooms", read as one value)
