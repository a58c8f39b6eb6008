"""A subject whose noun phrase goes on with a preposition and a name just before its copula:
"log retention in Loki is 14 days", "the statement timeout on the DB is 5 s". The name is
the phrase's owner (Loki's log retention, the DB's statement timeout), never where the key
ends: the phrase before the preposition is the head (``fact_keys.key_of`` asks it where no
plain noun phrase stands before the copula).
"""

from __future__ import annotations

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
)

# The prepositions of where a thing lives ("retention in Loki", "the timeout on the DB"); a
# route's ends ("the return train from Vienna", "the flight to Lisbon") are shared by the
# trips that run between them and name no one owner.
_WHERE = frozenset({"in", "on", "at", "inside", "within"})


def named_owner(tokens: list[Tok], end: int, first: int) -> list[str]:
    """The words "HEAD NAME" of "HEAD in [the] NAME" ending just before ``end`` (the
    copula), or [] where the phrase is no such noun phrase (a verb, a pronoun, a value or
    more than three words before the preposition)."""
    k = end - 1  # (a verb "is", "are": a label's colon is no copula, "order for X: 60")
    value = tokens[k].value if k > first else None
    if value is None or value[3] != "name" or end >= len(tokens) or \
            not tokens[end].word.isalpha():
        return []
    name = value[2].lower()
    k -= 1
    if tokens[k].word in DETERMINERS:
        k -= 1
    if k <= first or tokens[k].word not in _WHERE:
        return []
    head: list[str] = []
    for token in reversed(tokens[first:k]):
        word = token.word
        if token.value is not None or word in BOUNDARY or word in COPULAS or \
                word in PREPOSITIONS or word in DETERMINERS or word == "·":
            break
        head.insert(0, word)
    if not head or len(head) > 3 or any(
            w in NOT_NP or w in AUXILIARIES or w in CONJUNCTIONS or w in PRONOUNS
            or is_change(w) or not w.isalpha() for w in head):
        return []
    return [*head, name]


def as_manner(rest: list[Tok]) -> bool:
    """"as" right after a value opens a manner clause, no role's noun phrase ("in Room 4 as
    planned", "as originally arranged", "as usual", "as we agreed"): the words after it name
    no owner of the value (``fact_keys.after_owner``; "demo-2 as the demo server" does)."""
    after = rest[1].word if len(rest) > 1 and rest[0].word == "as" else ""
    if after.endswith("ly") and len(rest) > 2 and rest[2].word.endswith("ed"):
        return True  # "as originally arranged"
    then = rest[2].word if len(rest) > 2 else ""  # (a noun after "-ed" is the role's:
    ended = not then or not then.isalpha() or then in _AS_MANNER  # "as shared storage")
    return (after.endswith(("ed", "ly")) and ended) or after in _AS_MANNER


_AS_MANNER = frozenset(("usual", "always", "ever", "said", "told", "written", "set", "well",
                        "such", "we", "i", "you", "they", "it", "before"))
