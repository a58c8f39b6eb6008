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

from ollm_desktop.engine.fact_verbs import SUBORDINATORS, finite_verb
from ollm_desktop.engine.fact_words import (
    AUXILIARIES,
    BOUNDARY,
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    NOT_NP,
    PREPOSITIONS,
    PRONOUNS,
    Tok,
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
    for token in tokens[i + 1:i + 3]:
        word = token.word
        if token.value or not word.isalpha() or word in DETERMINERS or word in PREPOSITIONS \
                or word in COPULAS or word in CONJUNCTIONS or word in NOT_NP or \
                word in AUXILIARIES or word in PRONOUNS or word in SUBORDINATORS or \
                is_change(word) or word in _WHEN:  # ("to 9443 if 8443 clashes": no count
            # of "if"; "moved the port to 9090 yesterday": no count of days said by name)
            break
        end = token.end
        token.word = "·"  # part of the value now
    if end != value[1]:
        tokens[i].value = (value[0], end, sentence[value[0]:end], "number")


def _subject_of_verb(tokens: list[Tok], i: int) -> bool:
    """The number opens a subordinate clause and the word after it is a verb in -s with a
    preposition, a boundary or nothing after it: "since 8080 clashes with the proxy"."""
    if i == 0 or tokens[i - 1].word not in SUBORDINATORS or i + 1 >= len(tokens) or \
            not finite_verb(tokens[i + 1]):
        return False
    after = tokens[i + 2] if i + 2 < len(tokens) else None
    return after is None or after.word in BOUNDARY or (
        after.word in PREPOSITIONS and after.word not in ("of", "per"))
