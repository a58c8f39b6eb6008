"""A value said to hold since a point in time: "it's 1260 since renewal", "the port is 8443
since the migration", "rent is $1,520 since May", "we're on Java 21 as of this morning"
(issue 28, real text).

A present copula before a value and "since" with a time or an event after it say that the
value began to hold then: what held before was another value, so the sentence corrects its
key as "K is now X" does; the time says when, and is no value of the key. The reading is
grammar over closed classes: the copula (or a pronoun contracted with it) stands before the
value (a determiner or a preposition of state may come between), "since" or "as of" right
after it, and what follows up to the clause's end is a short noun phrase (no pronoun,
auxiliary or verb of being: "since that's the cap", "since we moved" give a reason or a
clause of their own and say nothing of when).
"""

from __future__ import annotations

from collections.abc import Sequence

from ollm_desktop.engine.fact_words import BOUNDARY, DETERMINERS, NOT_NP, Tok, closed

# The present forms of "be" and the pronouns contracted with them (closed classes).
_PRESENT_BE = closed("is are 's it's we're they're that's there's")
_ON = closed("on at in")  # a state's preposition before its value ("we're on v2 since …")
_SHORT = 4  # words of the noun phrase after "since": "the last renewal", "May 3"


def held_since(tokens: Sequence[Tok], first: int) -> set[int]:
    """Where a value after a present copula has "since" (or "as of") and a short noun phrase
    after it: the start offsets of the phrase's own values (when, not what: "since May" is
    no value of the key) and of "since" itself; empty where there is none."""
    for k in range(first + 1, len(tokens) - 1):
        opens = tokens[k].word == "since" or (tokens[k].word == "as" and
                                               tokens[k + 1].word == "of")
        if not opens or tokens[k].value or tokens[k - 1].value is None:
            continue
        at = k + 2 if tokens[k].word == "as" else k + 1
        before = k - 2
        while before > first and (tokens[before].word in DETERMINERS or
                                  tokens[before].word in _ON):  # "we're on Java 21 as of …"
            before -= 1
        if before < first or tokens[before].word not in _PRESENT_BE:
            continue
        phrase = []
        for token in tokens[at:]:
            if token.word in BOUNDARY and not token.value:
                break
            phrase.append(token)
        if 0 < len(phrase) <= _SHORT and not any(
                not t.value and (t.word in NOT_NP or t.word in _PRESENT_BE) for t in phrase):
            return {tokens[k].start} | {t.value[0] for t in phrase if t.value}
    return set()
