"""A correction that names no key takes the key of the value it names as replaced.

"It starts at 11:00, not 10:00" says which value 11:00 replaces (10:00) but not what it is a
value of; the ledger knows: "The hackathon starts at 10:00" keyed 10:00 as the hackathon's
time. Without that key the new value is keyless, and a keyless correction is only possibly
the same key as every earlier value of its unit: the team standup's 9:15, another key, was
marked "possibly replaced" by it (found by ``bench.memory --kind corrections --perturb``'s
``history-first``: one more value of another key in the history). Read by structure: the
old value is the grammar's ("X, not Y", "from Y to X", "instead of Y"), the key is the one
current value the ledger holds with that value and unit; with none or several, nothing
changes. A value is met however it is written ("$5000" is "$5,000", "9:15am" is "9:15",
"March 14" is "2027-03-14": ``value_form``).

A bare number that opens its sentence is read as the key of the value after it ("8080 should
be 8081" keys 8081 as "8080"'s): where the ledger holds exactly one current value of a
number's kind (a port, a number) written so, that number is the old value the sentence names,
and its key the new value's (``numeral_named``, stop 43).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ollm_desktop.engine.fact_one_named import keyed_by_one
from ollm_desktop.engine.fact_repair_restated import repairs_restated
from ollm_desktop.engine.fact_side_one import keyed_by_side
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.fact_value_forms import value_form
from ollm_desktop.engine.fact_weekday_owners import keyed_by_weekday
from ollm_desktop.engine.provenance import Found


def keyed_by_named_olds(found: Sequence[Found], facts: Sequence[Fact], content: str = "",
                        ) -> list[Found]:
    """``found`` (the facts of the message ``content``) with each keyless new value keyed as
    the one earlier value its sentence names as replaced (of the same unit), where there is
    exactly one such key."""
    found = numeral_named(repairs_restated(found, content), facts, content)  # ("no, 60. 60 s.")
    found = keyed_by_side(keyed_by_one(found, facts), facts, content)  # "the admin one is
    # 3002": "admin port"'s; "the right one is on input 6": the right speaker's input
    found = keyed_by_weekday(found, facts, content)  # "Wednesday yoga": "wed yoga"'s
    out = list(found)
    for index, item in enumerate(found):
        parts = item.key.split("|")
        if item.old or len(parts) != 3 or parts[0] or parts[1]:
            continue
        olds = {value_form(o.value) for o in found if o.old and o.sentence == item.sentence}
        keys = {f.key for f in facts if f.status == "current" and value_form(f.value) in olds
                and f.key and f.key.split("|")[-1] == parts[2] and f.key.split("|")[1]}
        if len(keys) != 1:
            continue
        key = keys.pop()
        subject = next(f.subject for f in facts if f.key == key and value_form(f.value) in olds)
        out[index] = replace(item, key=key, subject=subject or item.subject)
    return out


def names_an_absent_old(item: Found, found: Sequence[Found], facts: Sequence[Fact]) -> bool:
    """A keyless correction whose sentence names the values it replaces, none of which the
    ledger holds yet (the statement it corrects is read later, at compaction): it replaces
    nothing now, where it would otherwise take the one earlier value of its unit, another
    key's ("It starts at 11:00, not 10:00" is not the standup's 9:15). Its named old value
    meets the statement when that is read. A held value that names an old one, or is named
    by it, is there ("instead of MySQL" names "MySQL 8.0"). A message that states a value of
    the unit before it corrects one tells its own history ("the timeout of 300 was too short;
    600 was too, so it was set to 900"): nothing of it is read later."""
    parts = item.key.split("|")
    if item.old or len(parts) != 3 or parts[0] or parts[1]:
        return False
    if any(not o.old and o.sentence < item.sentence and o.key.split("|")[-1] == parts[2]
           for o in found):
        return False
    olds = [set(value_form(o.value).split()) for o in found
            if o.old and o.sentence == item.sentence]
    return bool(olds) and not any(
        f.status == "current" and _meet(set(value_form(f.value).split()), old)
        for f in facts for old in olds)


def _meet(value: set[str], old: set[str]) -> bool:
    """One names the other: the same words, or one's words among the other's ("MySQL" and
    "MySQL 8.0", "CI Jenkins" and "Jenkins")."""
    return value <= old or old <= value


_NUMERAL_KINDS = ("port", "number")
_FIGURE = re.compile(r"[\d.,:]+(?:\s?[A-Za-z%]{1,5})?")


def _should_be(content: str, number: str, value: str) -> bool:
    """``content`` says "``number`` should (must, needs to) be ``value``" and the clause ends
    there: the number is the value said in its place, nothing else of it (a figure, with a
    unit at most: "8081 next release" says when, a plan)."""
    if not _FIGURE.fullmatch(value):
        return False
    return re.search(rf"(?<![\w.]){re.escape(number)}\s+(?:should|must|needs\s+to|has\s+to)"
                     rf"\s+be\s+{re.escape(value)}\s*(?:[.!;,)]|$)", content,
                     re.IGNORECASE | re.MULTILINE) is not None


def numeral_named(found: Sequence[Found], facts: Sequence[Fact], content: str) -> list[Found]:
    """``found`` with a number keyed by a bare number ("8080 should be 8081": key "8080")
    keyed as the one current value of the ledger that number is, and that value named old
    beside it; unchanged where the ledger holds none or several such values, and where the
    message does not say "N should be X" with X ending its clause ("8080 should be reachable
    from 9090", "1000 should be plenty for 50 users", "8080 should be 8081 next release":
    the stop's review)."""
    out: list[Found] = []
    for item in found:
        parts = item.key.split("|")
        if item.old or item.kind == "question" or len(parts) != 3 or parts[0] or \
                not parts[1].isdigit() or item.ref_kind not in _NUMERAL_KINDS or \
                not _should_be(content, parts[1], item.value):
            out.append(item)
            continue
        held = [f for f in facts if f.status == "current" and f.value == parts[1] and
                f.ref_kind in _NUMERAL_KINDS and f.key]
        if len(held) != 1:
            out.append(item)
            continue
        fact = held[0]
        out.append(Found(item.kind, fact.value, fact.subject, fact.ref_kind, True, old=True,
                         sentence=item.sentence, key=fact.key))
        out.append(replace(item, key=fact.key, subject=fact.subject, correction=True))
    return out
