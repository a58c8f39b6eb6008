"""A fronted adverbial before a clause's subject: no part of the key.

"in the morning it has 5 frames", "after the split it has 5 frames now", "at the vet he
weighed 12 kg", "today the scale said 83.6 kg", "this morning the gauge showed 30 psi": the
clause opens with a time or a place ("in the morning", "after the split", "today", "this
morning") and its subject follows (a pronoun, or a noun phrase opened by its determiner). The
key is the subject's, not the adverbial's noun ("morning", "split", "vet" were keys, so "8
frames" stayed current beside "5 frames"). An interjection of chat that opens the clause
("lol yes 12 Aug 2027", "yes 4 people") is no subject either (the keys were "yes", "lol").
A gerund with its object may stand in the adverbial ("after talking to my partner it's CHF
34,000"), and after a time adverbial "it's" refers back (stop 51; not after a place: "in
Zurich it's CHF 34,000" is Zurich's). ``fact_keys`` is full (420 lines): the reading lives
here.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_words import (
    DETERMINERS,
    PREPOSITIONS,
    PRONOUNS,
    Tok,
    closed,
)

# Prepositions that open a fronted adverbial of time or place ("of", "to", "for", "as"
# and the like open no clause: "for the API the port ...", a purpose, stays).
_OPENERS = closed("in at after before during on since following over by until till "
                  "throughout within")
# Words that are a time adverbial alone ("today the scale said ..."), or open one with a noun
# ("this morning", "these days", "last week").
_ALONE = closed("today yesterday tonight now lately recently currently")
_OPENING = closed("this these last next every")
# The words of the adverbial's noun phrase at most (past its determiner): "after the
# second split" (2), "in the early morning" (2), "at the vet's" (1).
_MAX_WORDS = 3
# Interjections of chat that open a clause ("lol yes", "haha yeah"): no noun.
_INTERJECTIONS = closed("lol lmao haha hahaha yes yeah yep yup nope nah ya omg wow")
# Subject pronouns that follow a fronted adverbial ("you" is often an object: "at the
# gate you get ..." still reads right).
_SUBJECTS = PRONOUNS
# A pronoun and its copula written as one word ("after the call it's CHF 34,000").
_PRONOUN_IS = closed("it's it’s that's that’s")
# The openers of a time (or an event's) adverbial: before "it's" the pronoun refers back.
_TIMED = closed("after before during since following until till")


def after_fronted(clause: list[Tok]) -> list[Tok]:
    """The clause from its subject where it opens with a fronted adverbial of time or place
    followed by a pronoun or a determiner (see the module's docstring); else the clause.
    An interjection that opens it is no subject either ("lol yes 12 Aug 2027")."""
    while clause and clause[0].word in _INTERJECTIONS and not clause[0].value:
        clause = clause[1:]
    if len(clause) < 3 or any(t.value for t in clause[:2]):
        return clause
    first = clause[0].word
    timed = first in _ALONE or first in _TIMED  # (not a place:
    if first in _ALONE:  # "in Zurich it's CHF 34,000" is Zurich's)
        at = 1
    elif first in _OPENING or first in _OPENERS:
        at = 1 + (first in _OPENERS and clause[1].word in DETERMINERS)
        verbed = _gerund_object(clause, at) if first in _OPENERS and at == 1 else at
        # (a gerund right after the opener: "in the morning", "after the meeting" are nouns)
        timed, at = timed or verbed > at, verbed
        nouns = 0
        while at < len(clause) and nouns < _MAX_WORDS and _noun(clause[at]):
            at, nouns = at + 1, nouns + 1
        if not nouns:
            return clause
    else:
        return clause
    referred = timed and at < len(clause) and clause[at].word in _PRONOUN_IS
    if at >= len(clause) - (not referred):
        return clause
    follows = clause[at].word
    if follows in _SUBJECTS or referred or (
            follows in DETERMINERS and follows not in ("that", "this")):
        return clause[at:]
    return clause


def _gerund_object(clause: list[Tok], at: int) -> int:
    """Past a gerund and its preposition after the opener ("after talking to my partner it's
    CHF 34,000", "after checking with the landlord it's 1,200 a month"): where the
    adverbial's noun phrase starts (stop 51)."""
    word = clause[at].word if at < len(clause) else ""
    if not (word.endswith("ing") and len(word) > 5 and word.isalpha()) or clause[at].value:
        return at
    at += 1
    at += at < len(clause) and clause[at].word in PREPOSITIONS
    return at + (at < len(clause) and clause[at].word in DETERMINERS)


def _noun(token: Tok) -> bool:
    word = token.word[:-2] if token.word.endswith(("'s", "’s")) else token.word
    return not token.value and word.isalpha() and word not in DETERMINERS and \
        word not in PREPOSITIONS and word not in PRONOUNS
