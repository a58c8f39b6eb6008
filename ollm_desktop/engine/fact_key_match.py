"""Which key a value is of: what can replace what (ports by ports, versions by versions) and
whether two values' keys are one ("same"), possibly one ("maybe") or two; ``fact_supersession``
applies the answer. One shared word never makes a key.
"""

from __future__ import annotations

from functools import lru_cache

from ollm_desktop.engine.fact_generic_heads import generic_meets
from ollm_desktop.engine.fact_grammar import MANY
from ollm_desktop.engine.fact_key_acronyms import initials_meet
from ollm_desktop.engine.fact_key_pronouns import pronoun_key, pronoun_match
from ollm_desktop.engine.fact_key_synonyms import phrase_named, whole_named
from ollm_desktop.engine.fact_keys import stem
from ollm_desktop.engine.fact_label_keys import relabelled
from ollm_desktop.engine.fact_labelled_numbers import counted_unit
from ollm_desktop.engine.fact_measure_heads import measure_left_out
from ollm_desktop.engine.fact_types import SENTENCE_KINDS, Fact
from ollm_desktop.engine.fact_version_keys import product_of, two_runners
from ollm_desktop.engine.provenance import Found

# Unit classes that do not tell one kind of value from another: a bare number, a name.
ANY_KIND = frozenset({"number", "name"})


def family(fact: Fact | Found) -> str:
    """What can replace what: ports by ports, versions by versions, amounts by amounts."""
    return _family(fact.kind, fact.ref_kind, fact.value, fact.key)


@lru_cache(maxsize=16384)  # a correction asks it of every current fact (issue 28, point 7)
def _family(kind: str, ref_kind: str, value: str, key: str) -> str:
    if kind in SENTENCE_KINDS:
        return "sentence"
    if kind == "question":
        return "question"
    counted = counted_unit(value, key)  # ("rank 16": the number of "rank"; "the
    if counted:  # Python version requirement to 3.10": a version)
        return counted if counted in ("port", "version") else "number"
    if ref_kind in ("number", "date", "time") or kind == "number":
        return "number"
    if key.endswith("|name"):  # "CircleCI" and "Buildkite": names, however they were found
        return "name"
    return ref_kind or kind


def subjects_meet(a: str, b: str, family_name: str) -> bool:
    shared = set(a.split()) & set(b.split())
    return len(shared) >= (2 if family_name == "sentence" else 1)


def key_match(a: Fact | Found, b: Fact | Found) -> str:
    """"same": one key (entity, attribute and unit class alike); "maybe": the same attribute
    and unit where one side names no entity ("the port" beside "the API port"); "": two keys.
    One shared word never makes a key: "API port" and "admin port" are two. Two kinds of
    value are two keys however alike their noun phrases: a function never possibly replaces
    an environment variable or a word ("the setting is read from ..." beside "the helper
    is hydrate_retry_queues_792()")."""
    found = _key_match(a, b)
    return "" if found == "maybe" and kinds_differ(a, b) else found


def kinds_differ(a: Fact | Found, b: Fact | Found) -> bool:
    """Two kinds of identifier, or an identifier and a word ("to JWT" is no helper function,
    whatever it corrects). A name in code marks is a name where both keys' phrases call
    their values names ("the CLI binary is named ollm", "rename the binary to `ollmd`")."""
    if _called(a) and _called(b):
        return False
    return a.ref_kind != b.ref_kind and (a.ref_kind in MANY or b.ref_kind in MANY)


def _called(fact: Fact | Found) -> bool:
    """A value its key's phrase calls a name ("is called", "named", "renamed to"), written
    plain or in code marks: which of the two says nothing of its kind."""
    return fact.key.endswith("|name") and fact.ref_kind in ("name", "code")


def _key_match(a: Fact | Found, b: Fact | Found) -> str:
    if not a.key or not b.key:  # a state saved before keys: the old rule, as uncertain
        return "maybe" if family(a) == family(b) != "sentence" and \
            subjects_meet(a.subject, b.subject, family(a)) else ""
    key_a, key_b = relabelled(a.value, a.key), relabelled(b.value, b.key)  # ("room 118")
    entity_a, attribute_a, unit_a = map(phrase_named, key_a.split("|"))  # ("db" and
    entity_b, attribute_b, unit_b = map(phrase_named, key_b.split("|"))  # "database": one)
    unit_a = counted_unit(a.value, a.key) or unit_a  # "rank 16" beside "bump the rank to 64"
    unit_b = counted_unit(b.value, b.key) or unit_b
    if (initials := initials_meet(entity_a, attribute_a, entity_b, attribute_b)) is not None:
        return initials if unit_a == unit_b else ""  # "bp" beside "blood pressure": maybe
    if unit_a != unit_b and (counts := _count_of(a.key, unit_a, b.key, unit_b) or
                             _count_of(b.key, unit_b, a.key, unit_a)):
        return counts  # "the shard count is 12", then "resharded to 24 shards"
    if not attribute_a:
        return ""
    if pronoun_key(a.key) or pronoun_key(b.key):  # "the bathroom one is £3,100": its key
        return pronoun_match(a.key, b.key) if pronoun_key(a.key) else \
            pronoun_match(b.key, a.key)
    if generic_meets(a.key, b.key) or generic_meets(b.key, a.key):
        return "maybe"  # "the Q2 figure" beside "Q2 sales tax" (the one such key: the same)
    if not attribute_b and unit_b in ANY_KIND:  # a name or bare number of no noun phrase:
        return ""  # no key ("Pulumi in place of Terraform" never meets "at the Hotel
    # Flandria"); a time or a date of none may still be the one of its key ("dinner ... at
    # 20:00", then "dinner is at 20:30")
    product = product_of(a) if unit_a == unit_b == "version" else ""
    if product and product == product_of(b) and not two_runners(a, b, product):
        return "same"  # "Node 18" and "Node 20" (or "Node is now 20"), whatever the phrase
    if unit_a != unit_b:
        # a bare number beside a counted one of the same noun phrase ("the pool has 8
        # workers", "bump the pool to 12"): the count, its noun left out
        counted = {unit_a, unit_b} - {"number"}
        measure = next(iter(counted)) if len(counted) == 1 else ""
        loose = bool(measure) and "number" in (unit_a, unit_b) and (
            measure not in _MEASURES or (measure in _UNIT_DROPPED and bool(entity_a) and
                                         attribute_a.rsplit(" ", 1)[-1] in _UNIT_NOUNS))
        # (or of its owner named with fewer words: "fridge space is actually 70" after
        # "kitchen fridge space 68 cm", never "garage fridge space")
        return "maybe" if loose and attribute_a == attribute_b and _owner_kept(
            entity_a.split(), entity_b.split()) else ""
    if entity_a == entity_b and stem(attribute_a) == stem(attribute_b):
        return "same"
    if left := measure_left_out(key_a, key_b):  # "sparge temp 76 °C", "sparge at 78 °C"
        return left
    if _extends(entity_a, attribute_a, entity_b) or _extends(entity_b, attribute_b, entity_a) \
            or whole_named(entity_a, attribute_a, entity_b, attribute_b):  # ("ssid": "wifi name")
        return "maybe"  # "the CPU alert" beside "the CPU alert threshold" (one more head noun)
    if stem(attribute_a) != stem(attribute_b):
        # "production" (the owner alone) beside "the production server"
        owner = (not entity_a and attribute_a == entity_b) or \
            (not entity_b and attribute_b == entity_a)
        return "maybe" if owner else ""
    if entity_a == entity_b:
        return "same"
    words_a, words_b = set(entity_a.split()), set(entity_b.split())
    # one side names no owner, or fewer words of it ("submission" in "paper submission")
    return "maybe" if words_a <= words_b or words_b <= words_a else ""


def _owner_kept(a: list[str], b: list[str]) -> bool:
    """One owner's words, or the last of them kept ("fridge" of "kitchen fridge")."""
    short, long = sorted((a, b), key=len)
    return short == long or (bool(short) and long[-len(short):] == short)


# Unit classes a bare number never stands for (they always carry their unit or form).
_MEASURES = frozenset({"port", "version", "path", "url", "setting", "time", "hash", "ticket",
                       "date", "duration", "size", "percent", "money", "name"})
# Measures whose unit a change of the same noun phrase may leave out, where the phrase has
# an owner and its head names the measure ("the max upload size is 250 MB", then "bump max
# upload size to 300"); "move the standup to 10" is a clock time, not 10 minutes.
_UNIT_DROPPED = frozenset({"size", "duration", "percent", "money"})
_UNIT_NOUNS = frozenset({"size", "limit", "timeout", "delay", "quota", "cap", "ttl",
                         "interval", "budget", "fee", "rate"})


def _extends(entity: str, attribute: str, other_entity: str) -> bool:
    """Whether a key's whole noun phrase is the other's owner, word stems alike: "cpu alert"
    (cpu, alert) and "cpu alert threshold" (cpu alert, threshold); "raw events are retained
    for 90 days" (raw, event) and "raw event retention"; the owner may name more ("the
    museum" and "the museum opening time") or be the verb the phrase ends with ("orders
    ship within" (order, ship) and "shipping time")."""
    if not other_entity or not attribute:
        return False
    phrase = [stem(w) for w in f"{entity} {attribute}".split()]
    owner = [stem(w) for w in other_entity.split()]
    return owner[:len(phrase)] == phrase or phrase[-len(owner):] == owner


def listed_unit(fact: Fact | Found) -> bool:
    """A value of a unit class of which a key holds many (``MANY``: paths, links, tickets),
    not a count of things whose noun spells such a class ("7 tickets", "3 classes": a number,
    one count of its key)."""
    unit = fact.key.rpartition("|")[2]
    return fact.ref_kind in MANY or (unit in MANY and fact.ref_kind != "number")


# The heads of a key that name the count of what its owner names ("the shard count", "the
# number of replicas" read as replica|number): a closed class.
_COUNT_HEADS = frozenset({"count", "number", "total"})


def _count_of(key: str, unit: str, other: str, other_unit: str) -> str:
    """``other`` counts the noun that ``key`` names the count of: "same" where ``other`` has
    no noun phrase of its own ("24 shards" beside "shard count: 12"), "maybe" where it has
    one ("the cluster has 24 shards"); "" where it counts something else."""
    entity, attribute, _ = key.split("|")
    if unit != "number" or attribute not in _COUNT_HEADS or not entity or \
            other_unit in _MEASURES or other_unit in ANY_KIND or not other_unit:
        return ""
    if stem(entity.split()[-1]) != stem(other_unit.split()[-1]):
        return ""
    return "maybe" if other.split("|")[1] else "same"
