"""A key's owner named alone for its whole noun phrase ("front tyre pressure 33 psi, rear
tyre pressure 38 psi", then "front should be 35 psi"), or a key named by its owner alone
first and in full later ("kitchen window 120 cm, bathroom window 60 cm" read as "kitchen",
"bathroom"; then "bathroom window is 65 cm"): one key, where it is the only key of the
user's of that unit class the owner begins, and a sibling of another owner stands beside it
("rear tyre pressure", the list's "kitchen"; ``fact_restatement`` applies it to a plain
restatement). Without a sibling the word names a thing of its own ("The kitchen table is 180
cm", then "The kitchen is 350 cm wide"). The owner is a word of the noun phrase's own
("front"), never a word shared anywhere else in it: "the rear" never meets "front tyre", and
two keys the owner begins ("Leo's piano lesson" and "Leo's swim lesson") are two, neither
taken back. A bare number or a name says nothing of its kind ("Client on this matter is X",
then "the matter number is Y"): never so met.
"""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_key_match import ANY_KIND, family
from ollm_desktop.engine.fact_keys import stem
from ollm_desktop.engine.fact_sibling_marks import SIBLING_MARKS
from ollm_desktop.engine.fact_types import Fact


def owner_alone(facts: list[Fact], new: Fact) -> Fact | None:
    """The one earlier current value of the user's, of ``new``'s unit class, whose key
    ``new``'s key names by its owner alone (``new`` "|front|psi", the older "front|tyre|psi")
    or names in full where the older named the owner alone (``new`` "bathroom|window|cm",
    the older "|bathroom|cm"); None when there is none or more than one such key."""
    parts = new.key.split("|")
    if len(parts) != 3 or not parts[1] or parts[2] in ("", *ANY_KIND) or new.source != "user" or \
            any(f.from_correction and f.message_id == new.message_id for f in facts):
        return None  # (a correction's message: its plain values are what it leaves as is)
    entity, attribute, unit = parts
    meant: list[Fact] = []
    for old in facts:
        old_parts = old.key.split("|")
        if old is new or len(old_parts) != 3 or old.status != "current" or \
                old_parts[2] != unit or not _begins(old_parts, entity, attribute):
            continue
        meant.append(old)
    if len({f.key for f in meant}) != 1:
        return None
    old = meant[0]
    if not old.users or old.pinned or old.source == "manual" or _part_of(new.value, old.value) or \
            family(old) != family(new) or old.message_id == new.message_id or \
            (old.turn or 0, old.sequence) >= (new.turn or 0, new.sequence) or \
            not _sibling(facts, old):
        return None
    return old


def _sibling(facts: list[Fact], old: Fact) -> bool:
    """``old`` stands beside a current value of the user's of one noun and unit with another
    owner ("front|tyre|psi" beside "rear|tyre|psi"; "|bathroom|cm" beside the "|kitchen|cm"
    of its own list): only then does an owner named alone tell the one from the other. A
    word that merely begins one key ("The kitchen table is 180 cm", then "The kitchen is 350
    cm wide"; "Leo's piano lesson", then "Leo is in bed by 8pm") names a thing of its own."""
    entity, attribute, unit = old.key.split("|")
    for other in facts:
        parts = other.key.split("|")
        if other is old or len(parts) != 3 or other.status != "current" or \
                other.source != "user" or parts[2] != unit or other.key == old.key:
            continue
        if entity and parts[0] and parts[1] == attribute and \
                stem(parts[0].split()[0]) != stem(entity.split()[0]):
            return True
        if not entity and not parts[0] and " " not in parts[1] and \
                other.message_id == old.message_id:
            return True
    return False


def _part_of(value: str, other: str) -> bool:
    """``value`` restates ``other`` or a part of it ("Senior still the 17th" of "17 June",
    "the 17th" of "17 June"; an ordinal day is its number): no new value."""
    words = {_ORDINAL.sub(r"\1", w) for w in other.lower().split()}
    return all(_ORDINAL.sub(r"\1", w) in words for w in value.lower().split())


_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th)$")


def _begins(old_parts: list[str], entity: str, attribute: str) -> bool:
    """One key's owner, a single word named alone as the other's whole phrase, begins the
    other's owner: (no owner, "front") beside ("front", "tyre"), ("leo piano", "lesson")."""
    old_entity, old_attribute = old_parts[0], old_parts[1]
    if not entity and " " not in attribute and old_entity:
        return stem(old_entity.split()[0]) == stem(attribute)
    if entity and not old_entity and " " not in old_attribute and old_attribute:
        return stem(entity.split()[0]) == stem(old_attribute)
    return _marked_part(f"{entity} {attribute}".split(), old_entity.split())


def _marked_part(phrase: list[str], owner: list[str]) -> bool:
    """Two words named alone, a sibling mark and a noun ("first floor", "south wing"), that
    begin a longer owner ("first floor ceiling" of "first floor ceiling height")."""
    return len(phrase) == 2 and phrase[0] in SIBLING_MARKS and len(owner) > 2 and \
        [stem(w) for w in owner[:2]] == [stem(w) for w in phrase]
