"""A key restated with its owner in the noun phrase, where the first statement named that
owner elsewhere in its clause ("alarm's set for 6:10 on weekdays", then "my weekday alarm is
5:50"): one key, the attribute and unit class alike and every owner word of the new phrase a
word of the old statement (its topic), where it is the only such earlier key
(``fact_restatement`` applies it to a plain restatement). An owner the old statement never
named may be another thing ("the alarm is 6:10", then "the weekday alarm is 5:50"): that is
left to the rules of keys, which do not replace it.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_key_match import family
from ollm_desktop.engine.fact_keys import stem
from ollm_desktop.engine.fact_types import Fact


def owner_named_before(facts: list[Fact], new: Fact) -> Fact | None:
    """The one earlier current value of the user's whose key is ``new``'s attribute and unit
    with fewer owner words, and whose statement names ``new``'s other owner words; None when
    there is none or more than one such key."""
    parts = new.key.split("|")
    if len(parts) != 3 or not parts[0] or not parts[1] or new.source != "user":
        return None
    entity, attribute, unit = parts
    owner = {stem(w) for w in entity.split()}
    meant: list[Fact] = []
    for old in facts:
        old_parts = old.key.split("|")
        if old is new or len(old_parts) != 3 or old.status != "current" or \
                old_parts[2] != unit or stem(old_parts[1]) != stem(attribute):
            continue
        had = {stem(w) for w in old_parts[0].split()}
        if had < owner and owner - had <= set(old.topic.split()):
            meant.append(old)
    if len({f.key for f in meant}) != 1 or any(
            f.from_correction and f.message_id == new.message_id for f in facts):
        return None  # (a correction's message: its plain values are what it leaves as is)
    old = meant[0]
    if not old.users or old.pinned or old.source == "manual" or old.value == new.value or \
            family(old) != family(new) or old.message_id == new.message_id or \
            (old.turn or 0, old.sequence) >= (new.turn or 0, new.sequence):
        return None
    return old
