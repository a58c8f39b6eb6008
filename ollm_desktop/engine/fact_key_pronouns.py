"""A key named by the pronoun "one": "the kitchen quote is £4,200 and the bathroom quote is
£2,800", then "the bathroom one is £3,100 now". The noun phrase's head is left out, its owner
stays: the key is the owner's key of that unit (the bathroom's quote), never another
owner's (the kitchen's). An ordinal before "one" names a place in a list instead
(``fact_ordinals``).
"""

from __future__ import annotations

from ollm_desktop.engine.fact_keys import stem

# Unit classes a bare number never stands for (it stands for a port or a count).
_NOT_A_COUNT = frozenset({"version", "path", "url", "setting", "time", "hash", "ticket",
                          "date", "duration", "size", "percent", "money", "name"})


def pronoun_key(key: str) -> bool:
    """The key's head is the pronoun "one" ("api|one|number")."""
    parts = key.split("|")
    return len(parts) == 3 and parts[1] in ("one", "ones")


def pronoun_match(one: str, other: str) -> str:
    """How the key ``one`` (head "one") meets ``other``: "same" where ``other`` names the
    same owner in the same unit class; "maybe" where ``one``'s value is a bare number beside
    a port or a count of that owner (its noun left out); "" otherwise."""
    entity, _, unit = one.split("|")
    owner, attribute, unit_other = other.split("|")
    if not entity or not attribute or attribute in ("one", "ones") or \
            {stem(w) for w in entity.split()} != {stem(w) for w in owner.split()}:
        return ""
    if unit == unit_other:
        return "same"
    return "maybe" if unit == "number" and unit_other not in _NOT_A_COUNT else ""
