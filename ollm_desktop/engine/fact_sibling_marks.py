"""Words that tell siblings apart keep their place in a key.

A key's owner is at most the two words before its head ("monitor speaker" of "input"), so
"ground floor ceiling height 2.6 m, first floor ceiling height 2.4 m" read both as "floor
ceiling height", and "the left monitor speaker ... the right monitor speaker" both as
"monitor speaker input": two siblings of one key, and a later "first floor will be 2.5 m"
replaced both. A closed class of modifiers says which of several alike things is meant: a
side (left, right, front, rear), a level (ground, first, upper, lower, upstairs), a
direction (inbound, outbound), a rank (primary, secondary, main), a role in a trip (pickup,
drop, outbound, return). Such a word that falls off the front of a long owner stays in the
key before the kept words ("ground floor ceiling height"). Everything else is cut as before.
"""

from __future__ import annotations

# The modifiers that set one sibling apart from another (a closed class).
SIBLING_MARKS = frozenset({
    "left", "right", "front", "rear", "back", "top", "bottom", "upper", "lower", "middle",
    "inner", "outer", "inside", "outside", "indoor", "outdoor", "internal", "external",
    "ground", "first", "second", "third", "fourth", "fifth", "1st", "2nd", "3rd", "4th",
    "upstairs", "downstairs", "upstair", "downstair", "basement", "attic",  # (singular: keys)
    "inbound", "outbound", "incoming", "outgoing", "upstream", "downstream",
    "primary", "secondary", "tertiary", "main", "backup", "spare",
    "north", "south", "east", "west", "northern", "southern", "eastern", "western",
    "pickup", "drop", "dropoff", "return",
})  # (not "minimum", "maximum": a bound is part of its measure's name, "minimum Python
# version requirement" is the Python version's)


def marked_owner(words: list[str], size: int = 2) -> list[str]:
    """The last ``size`` of ``words`` (a key's owner, a ledger label), after the last sibling
    mark that falls before them ("ground floor ceiling" -> ground, floor, ceiling)."""
    kept, cut = words[-size:], words[:-size]
    marks = [w for w in cut if w in SIBLING_MARKS]
    return [marks[-1], *kept] if marks and marks[-1] not in kept else kept
