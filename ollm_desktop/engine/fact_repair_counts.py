"""A count that is all of a self-repair: "no, sorry, 8 workers.", "sorry, 12 cans in a pack",
"actually 68 square metres, I checked the lease"; and a correction's "it's 3300".

After a correction's lead the clause may drop its subject and verb and give only the number
and the noun it counts: the value meant instead of the one just said. Without the lead such a
fragment ("3 things to check") is a heading or a list's item, not a value, so the lead is what
makes it one. Structure only: the number opens the clause right after the lead, one or two
plain words follow it (the noun, with a modifier: "square metres"), then the clause ends or a
preposition opens its complement ("in a pack").
"""

from __future__ import annotations

from ollm_desktop.engine.fact_value_spans import ends_clause, opening_count
from ollm_desktop.engine.fact_words import COPULAS, DETERMINERS, NOT_NP, PREPOSITIONS, Tok

_NOUN_WORDS = 2


def repaired_count(tokens: list[Tok], i: int, first: int, lead: bool) -> bool:
    """The number at ``i`` opens a clause after a correction's lead and counts the one or
    two plain words after it ("sorry, 12 cans in a pack"): a value, as "it's 12 cans" is."""
    if not lead or i != first or first == 0 or not tokens[i].word.isdigit():
        return False
    for k in range(i + 1, min(len(tokens), i + 1 + _NOUN_WORDS)):
        word = tokens[k].word
        if not word.isalpha() or word in DETERMINERS or word in PREPOSITIONS or \
                word in NOT_NP or word in COPULAS:
            return False
        if ends_clause(tokens, k) or (k + 1 < len(tokens) and tokens[k + 1].word in PREPOSITIONS):
            return True
    return False


def restated_as_it(tokens: list[Tok], i: int, first: int, lead: bool) -> bool:
    """A number that ends its clause after "it's" or "that's" in a correction ("sorry, it's
    3300.", "ah no, we moved it, it's 3300"): the value meant, as "it is 3300" is. Without
    a lead "It's 3300." names nothing it is a value of, and is not read."""
    return lead and first <= i - 1 and tokens[i - 1].word in _IT_IS and ends_clause(tokens, i)


_IT_IS = frozenset({"it's", "that's"})


def counted_opening(tokens: list[Tok], i: int, first: int, lead: bool) -> bool:
    """A number that opens its sentence's clause as a count: after the conjunction that adds
    it to a list ("And 2 people on the front desk.", ``opening_count``) or as all of a
    self-repair (``repaired_count``); or a correction's "it's N" (``restated_as_it``)."""
    return tokens[i].word.isdigit() and (opening_count(tokens, i, first) or
                                         repaired_count(tokens, i, first, lead) or
                                         restated_as_it(tokens, i, first, lead))
