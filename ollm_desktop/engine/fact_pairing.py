"""Which new value of a sentence an old value named in it gives way to.

The nearest value read (``found``'s order) is the first guess: "Dana has the total as 412,
not 421" pairs 421 with 412, not with the name that opens the sentence. Where a sentence
makes two changes side by side, the nearest in reading order may belong to the other change:
in "fees rise from $30 to $35 for the first bag and from $40 to $45 for the second", $40 is as
near to $35 as to $45. A change and its old value stand in one conjunct, so a new value that
an "and", a "but" or a semicolon parts from the old one comes after those that none
does ("$35 instead of $30 and $45 instead of $40" pairs $30 with $35 the same way).
"""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.provenance import Found

# What ends a conjunct between two values: a coordinating "and" or "but", a semicolon (the
# sentences are the finder's to split: a value it reads in one sentence stays a candidate).
_PARTED = re.compile(r"\band\b|\bbut\b|;")


def nearest(old: Found, found: list[Found], near: list[tuple[Found, Fact]],
            text: str) -> Fact | None:
    """The value ``old`` gives way to among ``near``: one in its own conjunct of ``text``
    first, then the nearest in reading order (ties: the earlier read, as before). Where a
    value is written twice, or not as read, it cannot be placed: reading order alone."""
    if not near:
        return None
    at = {id(item): n for n, item in enumerate(found)}
    where = at.get(id(old), 0)
    placed = all(text.count(value) == 1 for value in [old.value, *(i.value for i, _ in near)])
    return min(near, key=lambda pair: (placed and _parted(text, old.value, pair[0].value),
                                       abs(at.get(id(pair[0]), 0) - where)))[1]


def _parted(text: str, old: str, new: str) -> bool:
    """The text between the two values (each written once) holds a conjunct's end."""
    a, b = text.index(old), text.index(new)
    between = text[a + len(old):b] if a < b else text[b + len(new):a]
    return _PARTED.search(between) is not None
