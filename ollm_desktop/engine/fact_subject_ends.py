"""Where a subject ends, for a value its predicate places: "our layover on the way to Tokyo
is in Frankfurt" (a copula and a preposition), "the standup for the design team moved up to
10am", "kickoff for the opener is moving up to noon" (a change verb with no object, its
particles and "to", after its auxiliaries). The subject before that point may go on with a
prepositional phrase ("for the design team"): its head is the key, the phrase's noun its
owner (``fact_keys._head_of_located``)."""

from __future__ import annotations

from ollm_desktop.engine.fact_words import COPULAS, PARTICLES, PREPOSITIONS, Tok, closed, is_change

# The auxiliaries of a change's verb group, which stand between its subject and the verb ("is
# moving", "has been changed", "will be pushed"). One set for every reader of a change's
# subject (``fact_change_olds`` reads the same verb group).
AUXILIARY = closed("is are was were be been being has have had will would should must can "
                   "could")


def subject_end(tokens: list[Tok], i: int, first: int) -> int:
    """The index where the subject of the value at ``i`` ends, or -1 (see the module's
    docstring)."""
    if i - 2 < first:
        return -1
    if tokens[i - 1].word in PREPOSITIONS and tokens[i - 2].word in COPULAS:
        return i - 2
    if tokens[i - 1].word != "to":
        return -1
    k = i - 2
    while k > first and tokens[k].word in PARTICLES:
        k -= 1
    if not is_change(tokens[k].word):
        return -1
    while k - 1 > first and tokens[k - 1].word in AUXILIARY:
        k -= 1
    return k
