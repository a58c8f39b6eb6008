"""A number typed again with two neighbouring digits swapped ("CL-55102", later "CL-55120";
"reg no. 08812345", later "reg no. 08812354"; "PIN 5531", later "the code is 5513"): a typo
put right, whatever words either statement keys it by. The value's own shape decides, not
its key: two things of one chat whose numbers differ only by a swap of two neighbours in a
run of three or more digits are too unlikely to be told apart by their phrases (issue 28:
the correction applies however it is phrased). Read by the ledger's state after the message
(``fact_old_subjects.olds_and_echoes``): a user's value of this message replaces the one
earlier current value of the user's (another message, or its own before a self-repair:
"AF 1234.. no hold on, AF 1243") that it swaps so; none where several are. Clock times,
years alone and short runs never count ("10:15" and "10:51", "Jan 12" and "Jan 21" are two
values), nor ports, nor sums of money ("the deposit is £1,250", "the permit costs £1,520":
another figure as likely as a typo); numbers a key holds many of (tickets) only where the
message corrects and the old one was no item of a list ("PAY-1234" and "PAY-1243" may both
be; "INV-2231 and INV-2232", then "sorry, INV-2213": which one is uncertain). Where both
statements name keys of their own and the keys differ, only a message that corrects retypes
("the gym door code is 1234" after "my locker number is 1243" is another thing's number);
elsewhere a retype that does not say it corrects, under another key or none, only marks the old
value "possibly replaced" ("order 48812 arrived", then "order 48821 is still missing").
"""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_grammar import MANY
from ollm_desktop.engine.fact_key_match import family
from ollm_desktop.engine.fact_supersession import mark_possible, replace_or_dispute
from ollm_desktop.engine.fact_types import Fact

_LABEL = re.compile(r"^(?:[A-Za-z]+\.?\s+)+(?=\d)")  # "PIN 5531", "no. 08812345": the number
_TRAIL = re.compile(r"(?<=\d)(?:\s+[A-Za-z]+\.?)+$")  # ("1,384.50 EUR": the number)
_RUNS = re.compile(r"\d+")
_YEAR = re.compile(r"(?:in\s+)?(?:19|20)\d\d")
# A count or a measure, not an identifier: a figure with thousands grouped ("2,134 steps",
# "5,230 m"; no code is written so) or a plural noun after it ("8452 steps", "3412 photos"):
# "2,314 steps this afternoon" is another count, as likely as a typo.
_COUNT = re.compile(r"\d,\d{3}(?!\d)|\d\s+[a-z]{2,}(?<![su])s\b")


def transposed_olds(facts: list[Fact], message_id: str) -> int:
    """Replace each earlier value of the user's that a value of this message retypes with two
    neighbouring digits swapped; how many were replaced."""
    count = 0
    for new in [f for f in facts if f.message_id == message_id and _typed(f) and f.users]:
        if (new.ref_kind in MANY and not new.from_correction) or _replaced_one(facts, new):
            continue
        olds = [old for old in facts if old.status == "current" and old is not new
                and old.users and old.source == "user" and _typed(old)
                and (old.message_id != message_id or _repaired(old, new)) and not old.pinned
                and old.source != "manual" and (old.turn or 0) <= (new.turn or 0)
                and swapped(_core(old.value), _core(new.value))
                and (new.from_correction or not _keyed_apart(old, new))]
        if new.ref_kind in MANY:  # (an item of a list is never the one it retypes)
            olds = [old for old in olds if not _listed(facts, old)]
        if len(olds) == 1 and (new.from_correction or olds[0].key == new.key):
            count += replace_or_dispute(new, olds[0], facts)
        elif len(olds) == 1:  # ("order 48812 arrived", "order 48821 is still missing": two
            mark_possible(new, olds)  # orders, or one retyped; a guess is marked, never made)
    return count


def _replaced_one(facts: list[Fact], new: Fact) -> bool:
    """The value already replaced an old value of its own key ("my locker is 1342", then
    "sorry, my locker is actually 1243"): another key's swapped number ("the gym door code is
    1234") is another thing's, not the one this correction put right."""
    return any(f.replaced_by == new.id for f in facts)


def _keyed_apart(old: Fact, new: Fact) -> bool:
    """Both values name a key of their own and the keys differ ("my locker number is 1243",
    later "the gym door code is 1234"; "my PIN is 5531", later "my husband's PIN is 5513"):
    two things, unless the later message says it corrects ("the code is actually 5513")."""
    return all(f.key.rsplit("|", 1)[0].strip("|") for f in (old, new)) and \
        old.key.rsplit("|", 1)[0] != new.key.rsplit("|", 1)[0]


def _repaired(old: Fact, new: Fact) -> bool:
    """One message's self-repair: the later value read as a correction ("my flight is AF
    1234.. no hold on, AF 1243"); two numbers of one message otherwise are a list ("rooms
    1214 and 1241")."""
    return new.from_correction and old.sequence < new.sequence and not old.from_correction


def _listed(facts: list[Fact], fact: Fact) -> bool:
    """Its message states another value of its kind ("INV-2231 and INV-2232")."""
    return any(f.message_id == fact.message_id and f is not fact and f.ref_kind == fact.ref_kind
               for f in facts)


def _typed(fact: Fact) -> bool:
    return fact.status == "current" and fact.source == "user" and \
        fact.ref_kind != "time" and family(fact) not in ("port", "sentence", "question") \
        and not fact.key.endswith("|money") and not _COUNT.search(fact.value) \
        and any(ch.isdigit() for ch in fact.value)


def _core(value: str) -> str:
    """The number a label leads or a word trails ("PIN 5531", "5501782 sorry": the number)."""
    return _TRAIL.sub("", _LABEL.sub("", value.strip()))


def swapped(a: str, b: str) -> bool:
    """``b`` is ``a`` with two neighbouring, different digits swapped, inside a run of three
    or more digits, in a value of four or more digits."""
    if len(a) != len(b) or a == b or sum(ch.isdigit() for ch in a) < 4 or \
            _YEAR.fullmatch(a) or _YEAR.fullmatch(b):  # ("born 1958", "born 1985": two)
        return False
    diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    if len(diff) != 2 or diff[1] != diff[0] + 1:
        return False
    i = diff[0]
    if not (a[i].isdigit() and a[i + 1].isdigit() and a[i] == b[i + 1] and a[i + 1] == b[i]):
        return False
    return any(m.start() <= i and i + 1 < m.end() and m.end() - m.start() >= 3
               and not (_YEAR.fullmatch(m.group()) and _YEAR.fullmatch(b[m.start():m.end()]))
               for m in _RUNS.finditer(a))  # (a date's year: "12/03/1985", "12/03/1958": two)
