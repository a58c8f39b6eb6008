"""A label of novelty with no copula or colon: "new NP VALUE" opening a clause.

"New room: C3" and "the new date is X" read as the key's new value (``fact_surface.unrenewed``:
"new" is no word of the key and makes the value a correction), but the same label written
without its colon ("band postponed. new date 2025-09-13", "they asked to push it, new time
19:30", "new start date 3 March") kept "new" as the key ("new: 11am") or as its owner, so
it met no earlier value. Here "new" opens its clause and one to three plain words stand
between it and the value (nothing else: no verb, no preposition): those words are the key,
and "new" says its value replaces the key's earlier one, as "X has a new NP: V" does
(``fact_clauses.has_new``, which asks this too). A separate module: fact_clauses is near its
size limit.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_keys import noun_phrase
from ollm_desktop.engine.fact_verbs import finite_verb, plain
from ollm_desktop.engine.fact_words import BOUNDARY, CONJUNCTIONS, Tok

_NEW = frozenset({"new", "updated", "revised"})
_MAX_WORDS = 3
# What may stand between the label's noun and its value: nothing, or a colon's kin.
_MARKS = frozenset({":", "-", "—", "–"})


def new_label(tokens: list[Tok], i: int, first: int) -> tuple[str, str] | None:
    """(entity, attribute) of the value at ``i`` where its clause opens "new NP" right before
    it ("new date 2025-09-13", "…, new time 19:30"); None otherwise (also "a new car, a Tesla":
    an article before "new" makes a thing, not a label)."""
    end = i - (i > 0 and tokens[i - 1].word in _MARKS)
    at = end
    while at > first and end - at < _MAX_WORDS and plain(tokens[at - 1]) and \
            tokens[at - 1].word not in _NEW:
        at -= 1
    if at == end or at - 1 < first or tokens[at - 1].word not in _NEW or \
            any(finite_verb(t) for t in tokens[at:end]):  # ("new hire Sarah starts Monday":
        return None  # a clause, its verb no word of a label; a plural too, to be safe)
    opened = at - 1 == first or tokens[at - 2].word in BOUNDARY or \
        tokens[at - 2].word in CONJUNCTIONS
    if not opened:
        return None
    entity, attribute = noun_phrase([t.word for t in tokens[at:end]])
    return (entity, attribute) if attribute else None
