"""A key whose head names no attribute, only that a value is meant: "the Q2 figure", "the lab
B amount", "the 1043 number" (stop 52). Such a head says nothing of what the value is of; its
owner words do, as "one" does in "the bathroom one" (``fact_key_pronouns``). "Q1 sales tax
paid £3,410; Q2 sales tax paid £2,980", then "Q2 figure is £2,890": the Q2 money value.

The owner's words must all stand in the older key's phrase (owner or attribute) and the unit
class must be one and say something of the value's kind (money, a duration, a size: never a
bare number or a name, which any key may hold). Two keys the owner names ("Q2 revenue" and
"Q2 tax") are two: each only possibly replaced, never silently (``key_match`` answers
"maybe", and one such key alone is the one meant: ``fact_supersession._same_key``). A head
with no owner ("the figure is £2,890") names nothing here. In a kept module of its own:
``fact_key_match`` holds the rules of heads named alike, this one a head named by its owner.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_keys import stem
from ollm_desktop.engine.fact_types import Fact

# Heads that name no attribute, only "the value of" their owner (a closed class); never
# "total" (a total is a value of its own beside the parts) nor "count"; "number" only beside a
# unit that tells a kind (a count's "number" is ``fact_key_match``'s).
GENERIC_HEADS = frozenset({"figure", "figures", "amount", "sum", "value", "number"})

# Unit classes that say nothing of a value's kind: any key may hold them.
_NO_KIND = frozenset({"", "number", "name"})


def generic_meets(key: str, other: str) -> bool:
    """``key`` has a head of ``GENERIC_HEADS`` and an owner whose every word's stem stands
    in ``other``'s owner or attribute, ``other`` a key of its own attribute in the same unit
    class (one that tells a kind: money, a duration, a temperature); or ``key``'s head is
    its unit class's own word ("payroll date", "dinner time", "jacket price") and its owner
    ends ``other``'s whole phrase ("payroll", "the monthly payroll"): the thing itself."""
    parts, other_parts = key.split("|"), other.split("|")
    if len(parts) != 3 or len(other_parts) != 3:
        return False
    entity, attribute, unit = parts
    if not entity or unit in _NO_KIND or other_parts[2] != unit or not other_parts[1] or \
            other_parts[1] in GENERIC_HEADS or other_parts[1] in _CLASS_HEADS.get(unit, ()):
        return False
    phrase = [stem(w) for w in f"{other_parts[0]} {other_parts[1]}".split()]
    owner = [stem(w) for w in entity.split()]
    if attribute in _CLASS_HEADS.get(unit, ()):
        return phrase[-len(owner):] == owner
    return attribute in GENERIC_HEADS and all(w in phrase for w in owner)


# The words that name a unit class itself (``fact_keyless._CLASS_WORDS``, which imports
# this module's importer): as a head they say what the value is, their owner whose it is.
_CLASS_HEADS = {"time": ("time", "hour"), "date": ("date", "day"),
                "money": ("price", "cost", "fee")}


def generic_owner(facts: list[Fact], new: Fact) -> Fact | None:
    """The one earlier current value of the user's whose key ``new``'s generic head names by
    its owner (a plain restatement: "Q2 figure is £2,890"); None when there is none or more
    than one such key (``generic_owners``: each only possibly replaced)."""
    meant = generic_owners(facts, new)
    return meant[0] if len(meant) == 1 else None


def generic_owners(facts: list[Fact], new: Fact) -> list[Fact]:
    """The earlier current values of the user's whose keys ``new``'s generic head names by
    its owner; none where ``new``'s own message corrects something (its plain values are
    what it leaves as is)."""
    if new.source != "user" or any(f.from_correction and f.message_id == new.message_id
                                   for f in facts):
        return []
    return [old for old in facts if old is not new and old.status == "current"
            and generic_meets(new.key, old.key) and old.users and not old.pinned
            and old.source != "manual" and old.value != new.value
            and old.message_id != new.message_id
            and (old.turn or 0, old.sequence) < (new.turn or 0, new.sequence)]
