"""What a correction's message says stayed as it was: "bumped it to 20.5, overnight
unchanged", "moved it to 8081, admin untouched", "Hall A is 120 seats now. B unchanged",
"sparge at 78 °C this time. mash same", "overnight stays 16", "same cutoff time".

A keyless value in a correction possibly replaces the one earlier value of its unit class,
or marks each of several (``fact_supersession``): "moved it to 8081, admin untouched" after
"ports: web 8080, admin 9090" marked the admin port too, though the user had just said it
stayed. The words of a clause of sameness name the keys it keeps: a value of such a key is
no candidate of the message's corrections (it stays current, unmarked), so the others are
weighed without it ("overnight unchanged" leaves the day's 19.5 the one value 20.5 may
replace).

Structure only: a clause of its own (between marks, under 60 characters) that is one to four
words, then "unchanged", "untouched", "unaltered", "(the) same" or "as before" (a copula
or "stays" between or not), or those words and "stays"/"remains" (and at most a value), or
"same" and the words; the words, less function words, are matched with a key's entity and
attribute words: a key is kept where the words that tell it apart from the keys sharing a
word with it (the correction's own too) are all kept words.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache

from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.fact_words import DETERMINERS, closed
from ollm_desktop.engine.provenance import Found

_MARKS = re.compile(r"[,.;:!?—–\n()]")
_WORDS = r"([a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,3})"
_SAME = r"(?:unchanged|untouched|unaltered|(?:the\s+)?same|as\s+before)"
_KEPT = (re.compile(rf"(?:(?:and|but|so)\s+)?{_WORDS}\s+(?:(?:is|are|stays|stay|remains|"
                    rf"remain)\s+)?{_SAME}"),
         re.compile(rf"(?:(?:and|but|so)\s+)?{_WORDS}\s+(?:stays|remains)(?:\s+(?:at|on|in)"
                    r")?(?:\s+[\w.,%°-]+)?"),
         re.compile(rf"same\s+{_WORDS}"))
_NOT_KEY = DETERMINERS | closed("and is are it everything else rest all others other both "
                                "hers his mine theirs ours yours")


_NEGATED = closed("not no never isn't aren't wasn't weren't hardly")


@lru_cache(maxsize=256)
def kept_words(said: str) -> frozenset[str]:
    """The words of the keys ``said``'s clauses of sameness keep."""
    out: set[str] = set()
    for clause in _MARKS.split(said.lower()):
        clause = clause.strip()
        if not clause or len(clause) >= 60:
            continue
        match = next((m for p in _KEPT if (m := p.fullmatch(clause))), None)
        if match is not None and not _NEGATED & set(match[1].split()):  # ("not the same")
            out |= {w.rstrip("s") for w in match[1].split() if w not in _NOT_KEY}
    return frozenset(out)


def kept_by(new: Fact, words: frozenset[str], facts: Sequence[Fact]) -> Callable[[Fact], bool]:
    """Whether an old fact's key is one the message keeps: the words that tell it apart from
    the keys that share a word with it (the correction's own among them) are all kept words
    ("overnight" of "thermostat overnight" beside "thermostat day"; not "same dentist" for
    "dentist appt" beside "dentist": the appointment's word is not kept). How many current
    keys hold each word is counted once for the ledger, so asking for every fact is linear."""
    if not words:
        return lambda old: False
    held: Counter[str] = Counter()
    times: Counter[int] = Counter()  # (a fact listed twice: each time is no other's key)
    for f in (*facts, new):
        if f.key and (f is new or f.status == "current"):
            held.update(_words(f.key))
            times[id(f)] += 1

    def keeps(old: Fact) -> bool:
        if not old.key:
            return False
        distinct = {w for w in _words(old.key) if held[w] == times[id(old)]}
        return bool(distinct) and distinct <= words
    return keeps


def _words(key: str) -> set[str]:
    return {w.rstrip("s") for w in " ".join(key.lower().split("|")[:2]).split()}


def kept_subjects(found: Sequence[Found], content: str) -> tuple[Found, ...]:
    """The message's facts less a keyless code name that is itself the subject of a clause
    of sameness ("tabSize untouched": the setting's name kept, no value of its own; a value
    restated so, "Fridays unchanged", stays one)."""
    words = kept_words(content)
    return tuple(f for f in found if not (
        words and f.key.split("|")[:2] == ["", ""] and not f.old and f.ref_kind == "code" and
        f.value.lower().rstrip("s") in words))
