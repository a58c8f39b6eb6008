"""A value named by its place in a list the user gave: "Next session is 2026-12-05, then
2026-12-19, then ...", then "scratch that, the second one is 2026-12-20". The key "the second
one" (an ordinal and the pronoun "one", or an ordinal and the list's own noun: "the second
session") names no noun phrase of its own; it points at the list's second value of its unit.
Ordinals are a closed class of English words.
"""

from __future__ import annotations

from collections.abc import Sequence

from ollm_desktop.engine.fact_keys import stem
from ollm_desktop.engine.fact_types import Fact

ORDINALS = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "sixth": 5,
            "seventh": 6, "eighth": 7, "ninth": 8, "tenth": 9, "1st": 0, "2nd": 1, "3rd": 2,
            "4th": 3, "5th": 4, "last": -1, "final": -1}


def place_named(new: Fact) -> int | None:
    """The list place ``new``'s key names ("the second one": 1, "the last one": -1)."""
    parts = new.key.split("|")
    if len(parts) != 3:
        return None
    entity, attribute, _ = parts
    words = entity.split()
    if len(words) != 1 or words[0] not in ORDINALS or not attribute:
        return None
    return ORDINALS[words[0]]


def meant_by_place(new: Fact, candidates: Sequence[Fact]) -> Fact | None:
    """The earlier value ``new`` names by its place: in the latest message that gave two or
    more values of its unit class, the value at that place, where the key's noun is "one" or
    a word of that list's keys."""
    place = place_named(new)
    unit = new.key.split("|")[-1]
    if place is None or not unit:
        return None
    alike = [f for f in candidates if f.key.split("|")[-1] == unit and f.message_id]
    by_message: dict[str, list[Fact]] = {}
    for fact in alike:
        by_message.setdefault(fact.message_id or "", []).append(fact)
    lists = [v for v in by_message.values() if len(v) >= 2]
    if not lists:
        return None
    latest = sorted(max(lists, key=lambda v: max((f.turn or 0, f.sequence) for f in v)),
                    key=lambda f: f.sequence)
    noun = new.key.split("|")[1]
    nouns = {stem(w) for f in latest for w in f.key.split("|")[0:2] for w in w.split()}
    if noun not in ("one", "ones") and stem(noun) not in nouns:
        return None
    if not -len(latest) <= place < len(latest):
        return None
    return latest[place]
