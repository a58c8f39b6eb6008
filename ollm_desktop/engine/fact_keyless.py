"""Values whose sentence names no noun phrase for them ("make that 12 people", "Hotel in
Lisbon is €140 a night" where the key went unread): which key they may be.

Such a value refers back, so a correction may mean it; but beside a key the correction
certainly meets, or beside a value of its unit that has a key, it is possibly that key only
where the two statements share a content word ("Standup moved to 10:00" is not "retro at 15:00";
"Porto is €110 now" is not "Hotel in Lisbon is €140 a night" beside Porto's "€95").
"""

from __future__ import annotations

from collections.abc import Sequence

from ollm_desktop.engine.fact_topics import unrelated
from ollm_desktop.engine.fact_types import Fact


def keyless(fact: Fact) -> bool:
    """A value whose sentence names no noun phrase for it at all ("make that 12 people",
    "scratch that, Friday"): it refers back to what was said."""
    parts = fact.key.split("|")
    return len(parts) == 3 and not parts[0] and not parts[1]


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
