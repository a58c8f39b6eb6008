"""A key's noun phrase followed by a contact relative clause (issue 28, stop 54).

English drops the relative pronoun of an object clause: "the collection code the courier
texted is actually 5513", "the pin the bank gave me is 4471", "the room we booked is Hall
B". The noun phrase before the copula is then two: the head ("the collection code") and the
clause that says where it came from ("the courier texted", "we booked"). The key is the
head's, never the clause's subject or verb ("courier texted" names nothing of the value).
``fact_clauses.clause_key`` asks this first; it finds the head where such a clause ends
the phrase before the value's copula (its own module: ``fact_keys`` is full).

The clause is read by closed classes only: a subject pronoun, or a determiner and at most
two plain words, then one verb (after a determiner's subject it must be inflected as a past:
"-ed" or an irregular past of a closed class, so "the code the courier app is" is one
phrase), then at most one object pronoun. The head is a determiner and one to three plain
words before it, opening its clause.
"""

from __future__ import annotations

from collections.abc import Sequence

from ollm_desktop.engine.fact_changed_subjects import changed_subject
from ollm_desktop.engine.fact_keys import noun_phrase
from ollm_desktop.engine.fact_words import (
    BOUNDARY,
    COPULAS,
    DETERMINERS,
    NOT_NP,
    PREPOSITIONS,
    Tok,
    closed,
)

_SUBJECTS = closed("we i you they he she")
_OBJECTS = closed("me us you him her them")
# Irregular pasts of verbs that give, send or settle a value (a closed class).
_PASTS = closed("sent gave told quoted wrote said got put set chose picked paid bought "
                "found gave read left made took sold rang brought")


def _plain(token: Tok) -> bool:
    word = token.word
    return token.value is None and word.isalpha() and word not in DETERMINERS and \
        word not in NOT_NP and word not in PREPOSITIONS and word not in COPULAS and \
        word not in _OBJECTS


def _past(word: str) -> bool:
    return word in _PASTS or (len(word) > 4 and word.endswith("ed"))


def relative_head(tokens: Sequence[Tok], end: int, first: int) -> list[str]:
    """The head noun phrase's words (its determiner first) where the words before ``end`` (a
    copula) are "HEAD SUBJECT VERB [OBJECT]": "the collection code the courier texted";
    [] where they are not."""
    k = end - 1
    if k >= first and tokens[k].word in _OBJECTS and tokens[k].value is None:
        k -= 1  # "gave me"
    if k < first or not _plain(tokens[k]):
        return []
    verb = tokens[k].word
    k -= 1
    if k >= first and tokens[k].word in _SUBJECTS:  # "the room we booked"
        k -= 1
    else:  # "the collection code the courier texted": a past after a determiner's noun
        words = 0
        while k >= first and words < 2 and _plain(tokens[k]):
            words, k = words + 1, k - 1
        if not words or k < first or tokens[k].word not in DETERMINERS or not _past(verb):
            return []
        k -= 1
    stop = k
    while k >= first and stop - k < 3 and _plain(tokens[k]):
        k -= 1
    if k == stop or k < first or tokens[k].word not in DETERMINERS:
        return []
    if k > first and tokens[k - 1].word not in BOUNDARY and tokens[k - 1].word != "and":
        return []  # (the head opens its clause: not a verb's object)
    return [t.word for t in tokens[k:stop + 1]]


def relative_key(tokens: Sequence[Tok], i: int, first: int) -> tuple[str, str] | None:
    """(entity, attribute) of the value at ``i`` after "HEAD SUBJECT VERB [OBJECT] is
    [now|actually|still] [the]": the head's ("the pin the bank gave me is 4471": pin); None
    where the clause before the value's copula has no such shape."""
    j = i - 1
    while j > first and (tokens[j].word in _BEFORE_VALUE or tokens[j].word in DETERMINERS):
        j -= 1
    if j <= first or tokens[j].word not in _COPULAS:
        return None
    head = relative_head(tokens, j, first)
    entity, attribute = noun_phrase(head) if head else ("", "")
    return (entity, attribute) if attribute else None


_BEFORE_VALUE = closed("now actually still really")
_COPULAS = closed("is are was were")


def changed_key(tokens: Sequence[Tok], i: int, first: int) -> tuple[str, str] | None:
    """(entity, attribute) of a leading clause that says its key changed, where the value at
    ``i`` follows with no noun phrase of its own ("the number plate's changed, I got a
    private one: K4 TSY": the number plate's; ``fact_changed_subjects``); else None.
    After "one" ("a private one", "the new one") the value is the new thing's: no key."""
    words = changed_subject(tokens, i, first)
    if words and any(t.word in ("one", "ones") for t in tokens[first:i]):
        return "", ""  # "the fob's changed, the new one is X": the new thing's value, of
        # the key the old one's had (a value of no noun phrase refers back to it)
    entity, attribute = noun_phrase(words)
    return (entity, attribute) if attribute else None
