"""Values whose sentence names no noun phrase for them ("make that 12 people", "Hotel in
Lisbon is €140 a night" where the key went unread): which key they may be.

Such a value refers back, so a correction may mean it; but beside a key the correction
certainly meets, or beside a value of its unit that has a key, it is possibly that key only
where the two statements share a content word ("Standup moved to 10:00" is not "retro at 15:00";
"Porto is €110 now" is not "Hotel in Lisbon is €140 a night" beside Porto's "€95").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ollm_desktop.engine.fact_key_match import family
from ollm_desktop.engine.fact_labelled_numbers import counted_unit
from ollm_desktop.engine.fact_topics import key_words, unrelated
from ollm_desktop.engine.fact_types import SENTENCE_KINDS, Fact
from ollm_desktop.engine.provenance import Found


def keyless(fact: Fact) -> bool:
    """A value whose sentence names no noun phrase for it at all ("make that 12 people",
    "scratch that, Friday"): it refers back to what was said."""
    parts = fact.key.split("|")
    return len(parts) == 3 and not parts[0] and not parts[1]


# The words that name a unit class itself ("the time", "the date", "the price"): a key of
# only such a word names what the value is, not whose it is.
_CLASS_WORDS = {"time": {"time", "hour"}, "date": {"date", "day"}, "port": {"port"},
                "money": {"price", "cost", "fee"}, "version": {"version"},
                "duration": {"duration", "length"}, "size": {"size"},
                "percent": {"percentage", "percent"}, "name": {"name"}}  # ("her name is X")


def class_named(fact: Fact) -> bool:
    """A value whose key is only its unit class's own word, with no owner ("change the time
    to 4pm", "they moved the date back to April 20"): like a keyless value it refers back to
    the one thing of its kind said before."""
    parts = fact.key.split("|")
    return len(parts) == 3 and not parts[0] and parts[1] in _CLASS_WORDS.get(parts[2], ())


def possibly_meant(new: Fact, maybe: Sequence[Fact], same: Sequence[Fact],
                   candidates: Sequence[Fact]) -> list[Fact]:
    """``maybe`` without the values of no attribute that ``new`` cannot be said to mean:
    where a key is found (``same``) or its unit has a value with a key beside them, one
    whose statement shares no content word with ``new``'s (several values of no key at all
    stay possibly meant: which one is uncertain)."""
    unit = new.key.rpartition("|")[2]
    several = bool(same) or any(f.key.rpartition("|")[2] == unit and f.key.split("|")[1:2]
                                not in ([""], []) for f in candidates)
    return [f for f in maybe if f.key.split("|")[1:2] != [""] or not several
            or not unrelated(new, f)]


# Unit classes a bare number never stands for (it always carries its unit or its form).
_CARRY_THEIR_FORM = frozenset({"version", "path", "url", "setting", "time", "hash", "ticket",
                               "date", "duration", "size", "percent", "money", "name"})
_WHOLE_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")


def referred_back(new: Fact, facts: Sequence[Fact]) -> Fact | None:
    """The value a keyless bare number in a correction takes back ("Correction: it is 8080",
    "sorry, it's 16 now", "no wait, 16"): the one value a bare number can stand for (a port,
    a count) in the latest message before it that stated values; None where that message
    states none or several, or the number is no whole number. "It" points at what was
    just said, and a bare number can only mean a number there; anything else is a guess."""
    current = _stood_for(new, facts)
    if len(current) != 1 or not current[0].users or current[0].pinned or \
            current[0].source == "manual" \
            or current[0].value.split()[-1] == new.value:  # ("8080 is busy": the value itself)
        return None
    if family(current[0]) != "port" and _YEAR.fullmatch(new.value):
        return None  # "it is 2024" after "the team has 11 players": a year, not a count
    return current[0]


def referred_back_among(new: Fact, facts: Sequence[Fact]) -> list[Fact]:
    """The values of several keys a keyless bare number in a correction may take back ("We
    ordered 4 chairs and 2 tables. Actually make it 3."): the latest message's current values
    a number stands for, where they are of two keys or more; none is meant for sure, each is
    possibly replaced (stop 43)."""
    current = [f for f in _stood_for(new, facts, several=True) if f.users and not f.pinned
               and f.source != "manual" and f.value.split()[-1] != new.value]
    return current if len({f.key for f in current}) > 1 and not _YEAR.fullmatch(new.value) \
        else []


def _stood_for(new: Fact, facts: Sequence[Fact], *, several: bool = False) -> list[Fact]:
    """The current user's values of the latest message before ``new`` a bare number stands
    for: one key's ("from 8080 to 8081"), or with ``several`` those of every key."""
    if not keyless(new) or not new.users or not _WHOLE_NUMBER.fullmatch(new.value) \
            or new.kind == "question":  # ("64 is too big": a value turned down takes nothing)
        return []
    earlier = [f for f in facts if f is not new and f.status != "forgotten" and f.key
               and f.kind not in SENTENCE_KINDS and f.kind != "question"
               and (f.turn or 0, f.sequence) < (new.turn or 0, new.sequence)]
    if not earlier:
        return []
    latest = max(f.turn or 0 for f in earlier)  # (its own message, where it states values
    # before: "The port was 3000. Change it to 3001." — one value a number stands for, as below)
    nearest = [f for f in earlier if (f.turn or 0) == latest]
    meant = [f for f in nearest if _a_number_stands_for(f)]
    current = [f for f in meant if f.status == "current"]  # (one key: "from 8080 to 8081")
    if not several and len({f.key for f in meant}) != 1:
        return []
    return current


# A four-digit number of this or the last century reads as a year, not a count.
_YEAR = re.compile(r"(?:19|20)\d\d")


def _a_number_stands_for(fact: Fact) -> bool:
    """A value of a key that a bare number can restate: a port, a count of a named thing
    ("12 replicas"); never a date, a time, an amount, a version (each carries its form)."""
    parts = fact.key.split("|")
    words = fact.value.split()
    if len(parts) != 3 or not (parts[1] or len(words) > 1):  # ("3 pizzas": a count its
        return False  # noun names, though no owner does)
    unit = counted_unit(fact.value, fact.key) or parts[2]
    if unit == "port":  # ("8081", "default 9090"; a name the finder keyed a port is none)
        return bool(words) and bool(_WHOLE_NUMBER.fullmatch(words[-1]))
    hour = unit == "time" and fact.value.isdigit()  # (a bare hour, "at 9": fact_hour_places)
    return (hour or (unit not in _CARRY_THEIR_FORM and fact.ref_kind in ("number", None, ""))) \
        and bool(words) and bool(_WHOLE_NUMBER.fullmatch(words[0]))


def other_changes(item: Found, fact: Fact, made: Sequence[tuple[Found, Fact]],
                  found: Sequence[Found]) -> set[str]:
    """A keyless change whose sentence names its own old value ("the return sailing,
    originally at 7.15pm, will leave at 8pm") refers to that value, not back to the message's
    other changes that name theirs ("the 3pm sailing will instead leave at 4pm"): those
    (their facts' ids) stand beside it, never replaced by it."""
    def own_old(one: Found) -> bool:
        return any(i.old and i.sentence == one.sentence and family(i) == family(one)
                   for i in found)
    if not keyless(fact) or not own_old(item):
        return set()
    return {f.id for i, f in made if i.correction and own_old(i) and f is not fact}


# A person's full name as written: two or three capitalised words of letters, a title's
# dot allowed ("Derek Moss", "Mrs. Ana Costa"); not a firm ("Moss & Pryor"), a code, a word.
_PERSON = re.compile(r"(?:(?:Mr|Mrs|Ms|Dr|Prof)\.? )?[A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?"
                     r"(?: [A-Z][a-z]+(?:[-'][A-Z]?[a-z]+)?){1,2}")


def persons_alike(new: Fact, candidates: Sequence[Fact]) -> list[Fact]:
    """Where ``new`` is a keyless person's full name that no key meets ("it's Funmi Adeyemi
    now" after "my accountant is Derek Moss at Moss & Pryor"), the user's earlier names of
    a person, where they are of one key (the accountant, not the firm): possibly the one it
    corrects. The shape of a value is a guess at its kind, so it is only marked; two keys of
    persons' names leave each as it is."""
    if not keyless(new) or not new.key.endswith("|name") or not _PERSON.fullmatch(new.value):
        return []
    persons = [f for f in candidates if f.key.endswith("|name") and f.users and f.key != new.key
               and f.key.split("|")[1:2] != [""] and _PERSON.fullmatch(f.value)]
    if _TITLED.match(new.value):  # "Dr Hallam": a titled name beside "Dr Okonkwo", never
        titled = {w for f in persons if _TITLED.match(f.value) for w in _named(f)}  # ("the
        persons = [f for f in persons if _TITLED.match(f.value) or  # "Riverside Surgery"
                   not _named(f) & titled]  # GP is at; "my sister is Sarah Jones" a person)
    return persons if len({f.key for f in persons}) == 1 else []


_TITLED = re.compile(r"(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.? [A-Z]")


def _named(fact: Fact) -> set[str]:
    """The words a fact's key names its subject by ("gp|at|name": the GP and "at")."""
    return {w for part in fact.key.split("|")[:-1] for w in part.split()} - {""}


# A clause that says a thing stayed as it was: "same firm", "time same", "location unchanged".
# The message is split at its clauses' marks first and each clause matched whole: one pattern
# over the whole text tried a match at every mark and scanned the blanks after it (a message
# of 20,000 newlines took 15 s).
_CLAUSE_MARKS = re.compile(r"[,.;:!?—–\n()]")
_KEPT_CLAUSE = re.compile(r"(?:(?:the|and|but)\s+)?(?:same\s+([a-z]+)|"
                          r"([a-z]+)\s+(?:same|unchanged|stays the same))", re.IGNORECASE)


# The nouns of a body a name may be (a closed class): what "same firm" says stayed is one.
_BODIES = frozenset({"firm", "company", "agency", "practice", "business", "provider", "supplier",
                     "bank", "school", "team", "shop", "store", "chain", "group", "brand",
                     "club", "network", "carrier", "insurer", "lender", "employer",
                     "surgery", "clinic", "partnership", "organisation", "organization"})


def kept_unknown(new: Fact, facts: Sequence[Fact], said: str) -> bool:
    """The message of a keyless name says in a clause of its own that something stayed
    ("…moved to their Sheffield office, same firm"), what stayed is a body a name may be
    (``_BODIES``), and it is no key the ledger holds: the one name said so far may be the
    body kept, so the new name only possibly replaces it (where "same" names another key or
    no body, "same price", the guess stands)."""
    if not keyless(new) or not new.key.endswith("|name"):
        return False
    found = (_KEPT_CLAUSE.fullmatch(clause.strip()) for clause in _CLAUSE_MARKS.split(said)
             if len(clause) < 60)
    kept = {(m.group(1) or m.group(2)).lower() for m in found if m} & _BODIES
    known = set().union(*(key_words(f) for f in facts if f.status == "current" and f.key))
    return bool(kept) and not any(w in known or w.rstrip("s") in known for w in kept)
