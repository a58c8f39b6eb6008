"""A plain restatement of a key (no correction's shape): what it replaces, or only marks
"possibly replaced" (``facts.absorb`` applies it; corrections are ``fact_supersession``'s).

Where the key is certain (its owner and attribute named: "the parameter sweep is named X"
after "call the parameter sweep Y") the user's new value replaces the older one; where it
names no owner, or is named in other words (``fact_topics``), the older is only possibly
replaced, never silently; links and paths are lists, except what "the K is" names and the
one link the user gave for the very same key.
"""

from __future__ import annotations

from collections.abc import Set
from typing import TYPE_CHECKING

from ollm_desktop.engine.fact_generic_heads import generic_owner, generic_owners
from ollm_desktop.engine.fact_key_match import family, key_match, listed_unit
from ollm_desktop.engine.fact_keyless import keyless, referred_back
from ollm_desktop.engine.fact_measure_heads import measure_left_out
from ollm_desktop.engine.fact_owner_alone import owner_alone
from ollm_desktop.engine.fact_owner_dropped import owner_dropped
from ollm_desktop.engine.fact_owner_named import owner_named_before
from ollm_desktop.engine.fact_supersession import (
    certain_key,
    mark_possible,
    named_otherwise,
    replace_or_dispute,
    stated_before,
)
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.fact_unit_alone import one_of_its_unit

if TYPE_CHECKING:
    from ollm_desktop.engine.provenance import Found


def restated(facts: list[Fact], new: Fact, *, single: bool = False,
             live: set[str] | None = None, when: str = "") -> int:
    """A plain statement of a key that already has another value (no correction's shape).
    Where the key is certain (the same owner and attribute: "the parameter sweep is named
    X" after "call the parameter sweep Y") the user's new value replaces the older one, as
    the user means it; where the key names no owner ("the port is 9443") the older is only
    possibly replaced, never silently. An earlier value its own sentence states again as
    it stands (``live``: "map port 5000 to 2000", "forward 5000 to 2000") is not taken back:
    the sentence names both as holding. Returns how many it replaced."""
    if live:
        facts = [f for f in facts if f.id not in live]
    parts = new.key.split("|")
    if len(parts) == 3 and not parts[1]:  # "it's 6 May": only its statement names its key
        return _restated_otherwise(facts, new, single=single, when=when)
    if family(new) in ("sentence", "question") or len(parts) != 3:
        return 0
    if not single and listed_unit(new):
        return _one_link_restated(facts, new)
    olds = [old for old in facts if old.key == new.key and old is not new  # same key first:
            and old.status == "current" and old.value != new.value  # the cheap tests
            and family(old) == family(new) and stated_before(old, new)
            and not _stated_together(old, new)]
    certain = [old for old in olds if certain_key(new, single=single) and new.users
               and not old.pinned and old.source != "manual"
               and old.possibly_replaced_by != new.id]  # (judged uncertain when first read:
    # a key lent by a statement in other words stays "possibly"; reading again is idempotent)
    if not olds:  # the key named in other words ("Cache purge: I've turned it up to ...")
        dropped = owner_dropped(facts, new) if certain_key(new, single=single) else None
        dropped = dropped or owner_alone(facts, new)  # "front should be 35 psi"
        dropped = dropped or owner_named_before(facts, new)  # "my weekday alarm is 5:50"
        dropped = dropped or generic_owner(facts, new)  # "Q2 figure is £2,890"
        if dropped is not None:  # "the fridge space is 70 cm" after "the kitchen fridge
            return replace_or_dispute(new, dropped, facts)  # space is 68 cm": one key
        if several := generic_owners(facts, new):  # "Q2 figure" beside "Q2 revenue", "Q2
            mark_possible(new, several)  # tax": which one is uncertain
            return 0
        if met := _keys_met(facts, new):
            return _met(facts, new, met, single=single)
        return _restated_otherwise(facts, new, single=single, when=when)
    count = 0 if any(old.users for old in olds) else _met(  # a reply's echo of this key
        facts, new, _keys_met(facts, new), single=single)  # ("backup 145.525 MHz") only
    mark_possible(new, [old for old in olds if old not in certain])
    return count + sum(replace_or_dispute(new, old, facts) for old in certain)


def _met(facts: list[Fact], new: Fact, met: list[Fact], *, single: bool) -> int:
    """One key written two ways, where no value of the user's has this very key: where it
    names its owner and attribute the older value is replaced ("the db port is 5432", then
    "the database port is 5433"; "Dad's phone is X", then "Father's phone is Y"), as the
    same key written alike is; else only possibly ("mom: Ann", then "my mother is called
    Anne")."""
    if certain_key(new, single=single) or (len(met) == 1 and all(  # ("backup is 145.550
            measure_left_out(new.key, old.key) == "same" for old in met)):  # MHz": one key)
        return sum(replace_or_dispute(new, old, facts) for old in met)
    mark_possible(new, met)
    return 0


def _keys_met(facts: list[Fact], new: Fact) -> list[Fact]:
    """The user's earlier current values (of other messages) whose key is ``new``'s written
    otherwise (``fact_key_match.key_match`` "same": a short form, "db" and "database", "dad"
    and "father"; a verb and its event noun, "arrive" and "arrival"): the one such key's
    values, none where several keys are. A key only possibly the same ("the port" beside
    "the API port", "my doctor" beside "my mum's doctor") is never met here: a plain
    statement of it is as likely another thing's."""
    if not new.users or new.source != "user":
        return []
    met = [old for old in facts if old.status == "current" and old is not new and old.users
           and old.key and old.key != new.key and old.value != new.value
           and old.message_id != new.message_id and not old.pinned and old.source != "manual"
           and old.possibly_replaced_by is None  # (marked by a closer reading: it stays)
           and family(old) == family(new) and stated_before(old, new)
           and key_match(new, old) == "same"]
    return met if len({old.key for old in met}) == 1 else []


def restated_as_is(said: str, key: str, new: Found | None = None) -> bool:
    """A correction's sentence restates a current value with no key ("Fridays unchanged")
    or with its own: the sentence states it as current, it is never what the sentence
    replaces (with another key, "Thursday is the darts league", it is given to that key;
    but a keyless name, ``new``, never replaces a name its sentence gives a key: "The
    restaurant at Granvia closed, we eat at Nobu now")."""
    parts = said.split("|")
    return said == key or (len(parts) == 3 and not parts[0] and not parts[1]) or (
        new is not None and new.key == "||name" and len(parts) == 3 and bool(parts[1])
        and parts[2] == "name")


def one_port_taken_back(new: Fact, facts: list[Fact], beside: Set[str]) -> None:
    """A correction's sentence that states two ports of one key and names neither as old
    ("there was a typo, this PR fixes it (port 3000 should be 5000)"): the second takes the
    first back, possibly, as in a plain statement (``_stated_together``)."""
    if family(new) == "port":
        mark_possible(new, [old for old in facts if old.id in beside and old.key == new.key
                            and old.sequence < new.sequence])


def _stated_together(old: Fact, new: Fact) -> bool:
    """Two values of one key in one message: the message states both (a name and its
    place, "the warehouse is Depot Zuid in Antwerp"; a list; a range; a plan beside the
    state), it restates neither. A port is the one value of its key: a second port of the
    same key in one message takes the first back ("port 3000 should be 5000"), possibly."""
    return old.message_id is not None and old.message_id == new.message_id and \
        family(new) != "port"


def _restated_otherwise(facts: list[Fact], new: Fact, *, single: bool = False,
                        when: str = "") -> int:
    """A plain statement of a key named in other words: the earlier value is possibly
    replaced (never silently), and one earlier value lends the new one its key (one line
    per key: "cache purge run: 2 minutes (possibly replaced 10 minutes)")."""
    meant = named_otherwise(facts, new, single=single)
    back = None if meant else referred_back(new, facts)
    if back is not None:  # "it should be 8080" after "the port is 8081": the port, possibly
        meant = [back]
    if len(meant) == 1:
        new.key, new.subject = meant[0].key, meant[0].subject
    alone = None if meant else one_of_its_unit(facts, new, when=when)  # "odometer says X"
    if alone is not None and keyless(new):  # "after the split it has 5 frames": "it" is
        new.key, new.subject = alone.key, alone.subject  # the one thing of its unit
        return replace_or_dispute(new, alone, facts)
    mark_possible(new, meant or ([alone] if alone is not None else []))
    return 0


def _one_link_restated(facts: list[Fact], new: Fact) -> int:
    """A link or path the user gives for a key that names its owner and attribute, where
    the user gave one other for the very same key ("the status page is at X", then "status
    page lives at Y"): the older is possibly replaced, never silently (two links in one
    message are a list: neither is marked)."""
    if not certain_key(new, single=True) or not new.users or _several(facts, new):
        return 0
    olds = [old for old in facts if old.key == new.key and old is not new
            and old.status == "current" and old.value != new.value and old.users
            and old.ref_kind == new.ref_kind and stated_before(old, new)
            and old.message_id != new.message_id and not _several(facts, old)]
    if len(olds) == 1:
        mark_possible(new, olds)
    return 0


def _several(facts: list[Fact], fact: Fact) -> bool:
    """Its message states another link (path...) of its kind: a list ("the docs are at X
    and Y", where Y's key is left unsaid)."""
    return any(f.ref_kind == fact.ref_kind and f is not fact and f.message_id == fact.message_id
               and f.value != fact.value for f in facts)
