"""One thing's two names in a key: a closed class of head nouns and their short forms that
name the same attribute or owner ("the db port" / "the database listens on"; "home internet
plan" / "our fiber's 1 Gbps now"). Not "pay" (a verb in most chat: "we pay $1,400 now"),
"wage" ("the minimum wage"), "iteration" or "repo" (other things too): stop 49's review.
Keys compare word stems through it, so a correction phrased in the other word meets its
key; two words that may name two things ("doctor" and "GP", "budget" and "cost") are never
in it: a false supersession is worse than a missed one.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_keys import stem

# Each group: words that name one thing wherever a key uses them. The first is the name
# the group's stems are compared as.
_GROUPS = (
    "database db",
    "extension ext",
    "configuration config conf cfg",
    "environment env",
    "production prod",
    "directory dir",
    "password passwd pwd",
    "address addr",
    "salary paycheck",  # (not "pay" or "wage": "we pay $1,400 now", "the minimum wage")
    "internet broadband fiber fibre",
)

_CANON: dict[str, str] = {}
for _group in _GROUPS:
    _words = _group.split()
    for _word in _words:
        _CANON[stem(_word)] = stem(_words[0])


def canon(stemmed: str) -> str:
    """The stem a key compares ``stemmed`` (a word's stem) as: its group's first word's."""
    return _CANON.get(stemmed, stemmed)


def key_stem(word: str) -> str:
    """A key word's stem, one for each group of names of one thing."""
    return canon(stem(word))


def phrase_named(phrase: str) -> str:
    """A key's owner or attribute phrase with each word of a group written as its group's
    first word ("db" as "database"); every other word as it is."""
    words = phrase.split()
    if not any(stem(w) in _CANON for w in words):
        return phrase
    return " ".join(_FIRST[_CANON[stem(w)]] if stem(w) in _CANON else w for w in words)


_FIRST = {stem(group.split()[0]): group.split()[0] for group in _GROUPS}
