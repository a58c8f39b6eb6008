"""The words of a noun-phrase value: which words a phrase is made of, where it ends, how it
becomes one value token (``fact_phrases`` reads where such a phrase is a value).

Closed classes only (determiners, prepositions, copulas, degree adverbs, adjectives of
identity); any other word may be a noun of the phrase.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_words import (
    AUXILIARIES,
    BOUNDARY,
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    NOT_NP,
    PARTICLES,
    PREPOSITIONS,
    TIMES,
    Tok,
    closed,
    is_change,
)

# Degree adverbs before an adjective ("too slow", "very late"): a closed class; a phrase
# with one is a state, not a value.
DEGREE = closed("too very so quite pretty rather really fairly extremely more less most least "
                "kinda sorta")  # (chat's "kind of", "sort of")
# Adjectives of identity ("the same", "a different one"): they point at another value, they
# are none.
IDENTITY = closed("same different other another own such")
# The words that end a value's phrase inside its clause besides a boundary and a preposition.
PHRASE_END = closed("now instead not rather anymore")
# The prepositions that put the phrase's key after it ("puff pastry for the tart base").
KEY_AFTER = closed("for in on at")
# The verb whose object is the value the user takes up ("use 443 as the port", "using
# Postgres instead"): a verb, never a label noun of the number after it.
USING = closed("use using")
# The prepositions of a place a copula or a verb puts a thing in ("is at the taco place").
PLACED = closed("at in on under behind beside near inside outside above below")
MAX_PHRASE = 4
# Determiners of a thing already known (a key) and of a new one (a value).
DEFINITE = closed("the our my your their his her its this these those")
INDEFINITE = closed("a an")

def plain_word(token: Tok) -> bool:
    """A word that can be part of a noun phrase: no closed-class word, no value, no adverb."""
    word = token.word
    return bool(word) and not token.value and word[:1].isalpha() and word not in DETERMINERS \
        and word not in PREPOSITIONS and word not in NOT_NP and word not in COPULAS \
        and word not in CONJUNCTIONS and word not in AUXILIARIES and word not in DEGREE \
        and word not in TIMES and word not in PHRASE_END and not is_change(word) \
        and word not in IDENTITY and word not in PARTICLES \
        and not word.endswith("ly") and word != "·"


def phrase_ends(tokens: list[Tok], at: int, *, prepositions: bool = True) -> bool:
    """The phrase's clause (or its noun phrase) ends at ``at``."""
    if at >= len(tokens):
        return True
    word = tokens[at].word
    return word in BOUNDARY or word in PHRASE_END or (prepositions and word in PREPOSITIONS)


def phrase_span(tokens: list[Tok], at: int, *, prepositions: bool = True) -> tuple[int, int] | None:
    """[start, end) of a noun phrase's words after its optional determiner, up to where it
    ends: None if there is none, it is longer than MAX_PHRASE words, or it runs into a
    word that is no noun's (a verb after it: "the shortcrust kept cracking")."""
    determined = at < len(tokens) and tokens[at].word in DETERMINERS
    at += determined
    end = at
    while end < len(tokens) and end - at < MAX_PHRASE and (plain_word(tokens[end]) or (
            not prepositions and end > at and tokens[end].word == "of" and
            end + 1 < len(tokens) and plain_word(tokens[end + 1])) or (
            determined and end == at and tokens[end].word in PARTICLES and
            end + 1 < len(tokens) and plain_word(tokens[end + 1]))):
        end += 1  # (where the phrase runs to its clause's end, "of" inside it: "a bottle of
        # wine"; a particle as a modifier after a determiner: "the back garden")
    if end == at or not phrase_ends(tokens, end, prepositions=prepositions):
        return None
    if participle(tokens[end - 1].word) or (tokens[at].word.endswith("ing") and
                                             participle(tokens[at].word)):
        return None  # a participle: what happens to K ("is tagged", "is getting old"; a
        # gerund's compound, "the meeting room", too: more often a key's words than a value)
    return at, end


def participle(word: str) -> bool:
    return word.endswith(("ing", "ed")) and len(word) > 4


def mark_value(sentence: str, tokens: list[Tok], a: int, b: int) -> None:
    """The words [a, b) as one name value on the last token, the others part of it (as a
    labelled name's noun is: "room B12"), where a key's reading looks back from it."""
    start, end = tokens[a].start, tokens[b - 1].end
    for token in tokens[a:b - 1]:
        token.word = "·"
    tokens[b - 1].value = (start, end, sentence[start:end], "name")
    tokens[b - 1].word = ""


def clauses_of(tokens: list[Tok], first: int) -> list[tuple[int, int]]:
    """[start, end) of each clause from ``first``, cut at boundaries."""
    out, start = [], first
    for k in range(first, len(tokens) + 1):
        if k == len(tokens) or tokens[k].word in BOUNDARY:
            if k > start:
                out.append((start, k))
            start = k + 1
    return out
