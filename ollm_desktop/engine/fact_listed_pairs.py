"""A list of sibling numbers, each after the noun phrase it is the value of: "read replica max
connections 500, primary max connections 200", "electric bill 94, water bill 41".

A user's shorthand list of keys and their numbers: items joined by a comma, a semicolon or
"and", each a noun phrase of two words or more (no verb, no determiner, no preposition) and a
bare number that ends it. Each number is its noun phrase's value, as "the primary max
connections are 200" says, so that "bumped primary max connections to 400" replaces 200 and
leaves the replica's 500. One word and its number ("track 3, rank 16") are
``fact_phrase_forms``' and ``fact_settings_lists``' reading; a single item is none (a list
gives the reading: "the meeting room 4" is a room).
"""

from __future__ import annotations

from ollm_desktop.engine.fact_phrase_words import plain_word
from ollm_desktop.engine.fact_words import Tok, numeric

_JOINS = frozenset({",", ";", "and"})
_WORDS = (2, 5)  # the noun phrase's words before its number


def listed_pair(tokens: list[Tok], i: int, first: int) -> bool:
    """The number at ``i`` ends an item "noun phrase N" of such a list: a neighbouring item,
    across a join, is one too."""
    start = _opening(tokens, i, first)
    if start < 0:
        return False
    if start - 2 >= first and tokens[start - 1].word in _JOINS and \
            _opening(tokens, start - 2, first) >= 0:
        return True
    k = i + 2  # after the join, the next item's words and its number
    if i + 1 >= len(tokens) or tokens[i + 1].word not in _JOINS:
        return False
    while k < len(tokens) and k <= i + 2 + _WORDS[1] and plain_word(tokens[k]):
        k += 1
    return k < len(tokens) and _opening(tokens, k, first) == i + 2


def _opening(tokens: list[Tok], i: int, first: int) -> int:
    """Where the item whose number is at ``i`` opens (-1: no such item)."""
    if not _number(tokens[i]) or (i + 1 < len(tokens) and tokens[i + 1].word not in (
            *_JOINS, ".", "!")):
        return -1
    k = i - 1
    while k >= first and i - k <= _WORDS[1] and plain_word(tokens[k]):
        k -= 1
    opened = k < first or tokens[k].word in _JOINS or tokens[k].word == "—"
    return k + 1 if opened and i - k - 1 >= _WORDS[0] else -1


def _number(token: Tok) -> bool:
    if token.value is not None:
        return token.value[2].replace(",", "").replace(".", "").isdigit()
    return numeric(token.word)

