"""A key restated with fewer of its owner's words ("the kitchen fridge space is 68 cm", then
"the fridge space is 70 cm"; "the piano exam fee", then "the exam fee"): one key, where it is
the only key of its attribute and unit that the shorter phrase names (``fact_restatement``
applies it to a plain restatement). The shorter phrase still names an owner: a bare "the
space" or "the fee" names none and only possibly replaces (issue 28, point 2). Two keys the
shorter phrase could both mean ("the frontend dev server", "the backend dev server", then
"the dev server is on 5175") are two: neither is taken back.
"""

from __future__ import annotations

from collections.abc import Callable

from ollm_desktop.engine.fact_key_match import family
from ollm_desktop.engine.fact_keys import stem
from ollm_desktop.engine.fact_types import Fact


def owner_dropped(facts: list[Fact], new: Fact) -> Fact | None:
    """The one earlier current value of the user's whose key ``new``'s key names with
    fewer owner words, the words it keeps ending the owner as they end the older one's
    ("fridge" of "kitchen fridge"), the attribute and unit class alike; None when there is
    none or more than one such key."""
    return one_owner_key(facts, new, lambda had, kept, old: len(had) > len(kept) and
                         had[-len(kept):] == kept)


def one_owner_key(facts: list[Fact], new: Fact,
                  owns: Callable[[list[str], list[str], Fact], bool]) -> Fact | None:
    """The one earlier current value of the user's, of ``new``'s attribute and unit class,
    whose owner's word stems ``owns`` accepts beside ``new``'s (and the older fact, for its
    statement's words); None when there is none, more than one such key, or ``new``'s own
    message corrects something (its plain values are what it leaves as is)."""
    parts = new.key.split("|")
    if len(parts) != 3 or not parts[0] or not parts[1] or new.source != "user":
        return None
    entity, attribute, unit = parts
    kept = [stem(w) for w in entity.split()]
    meant: list[Fact] = []
    for old in facts:
        old_parts = old.key.split("|")
        if old is new or len(old_parts) != 3 or old.status != "current" or \
                old_parts[2] != unit or stem(old_parts[1]) != stem(attribute):
            continue
        if owns([stem(w) for w in old_parts[0].split()], kept, old):
            meant.append(old)
    if len({f.key for f in meant}) != 1 or any(
            f.from_correction and f.message_id == new.message_id for f in facts):
        return None
    old = meant[0]
    if not old.users or old.pinned or old.source == "manual" or old.value == new.value or \
            family(old) != family(new) or old.message_id == new.message_id or \
            (old.turn or 0, old.sequence) >= (new.turn or 0, new.sequence):
        return None
    return old
