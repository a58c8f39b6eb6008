"""A numbered place named by its noun and number ("room 118", "ext 4421", "input 6", "gate
15") as the value of a key that names only its owner ("they moved grandpa to room 118",
"Miss Tran is on ext 4421"): the noun is the key's attribute and the owner its owner, so
"grandpa|room|number" meets "grandpa's room number is 214" and "miss tran|extension|number"
meets "Miss Tran's phone extension is 4412" (stop 52). A key whose attribute is "number" and
whose owner ends in such a noun ("grandpa room|number") is that noun's key too.

Only nouns of numbered places and lines (a closed class): "iPhone 13", "Hotel 55" or "Studio
54" are names, never a number of an "iphone" or a "hotel" key. Two owners' numbers stay
two keys ("grandma's room", "grandpa's room"). Split from ``fact_key_match``, which asks it
before comparing two keys.
"""

from __future__ import annotations

import re

# Nouns whose number names one of a row of places or lines (a closed class).
PLACE_NOUNS = frozenset({
    "room", "ext", "extension", "input", "output", "dock", "gate", "bay", "berth", "platform",
    "seat", "table", "locker", "floor", "level", "flat", "apartment", "apt", "channel", "slot",
    "lane", "pitch", "court", "desk", "suite", "shelf", "aisle", "row", "ward", "bed", "cabin",
    "stall", "plot", "pier", "hangar",
})
_LABELLED = re.compile(r"([A-Za-z]+)\.?\s+#?(\d+)")
_NUMBER_HEADS = ("number", "no", "num", "nr")


def relabelled(value: str, key: str) -> str:
    """``key`` as the numbered place's key: "grandpa|room|number" for "room 118" of
    "|grandpa|name", "grandpa|room|number" for "grandpa room|number|number"; ``key`` as
    it is for any other value or key."""
    parts = key.split("|")
    if len(parts) != 3:
        return key
    entity, attribute, unit = parts
    found = _LABELLED.fullmatch(value.strip())
    if unit == "name" and found and found.group(1).lower() in PLACE_NOUNS and \
            found.group(1).lower() != attribute.rsplit(" ", 1)[-1] and (entity or attribute):
        return f"{' '.join(w for w in (entity, attribute) if w)}|{found.group(1).lower()}|number"
    owner = entity.split()
    if unit == "number" and attribute in _NUMBER_HEADS and owner and owner[-1] in PLACE_NOUNS \
            and value.strip().isdigit():
        return f"{' '.join(owner[:-1])}|{owner[-1]}|number"
    return key
