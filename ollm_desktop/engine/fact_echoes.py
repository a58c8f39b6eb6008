"""A replaced value mentioned again in the message that replaced it is not stated anew.

"Change the default HTTP port to 8877. We decided to change the default because 8080 is over
used": the first sentence replaces 8080; the second names 8080 only to say why. Read on its own,
that second sentence states "8080" under some key of its own ("default because"), and the old
value would be sent as current beside its replacement. A message that replaces a value and then
names it again is nearly always explaining the change, so such an echo takes the old value's
place: it is replaced by the same replacement, never current. Only where the value is named
as a thing talked about, not stated for a key: as its clause's subject ("…; 8080 clashes"),
after a subordinator ("because 8080 is taken", "since 50 MB was too small") or as the old one
("the old 8080"). "Set the timeout to 60 seconds. The retry delay is 30 seconds" states 30
seconds for another key, and keeps it.
"""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_key_match import family
from ollm_desktop.engine.fact_named_only import same_value
from ollm_desktop.engine.fact_types import Fact

# what may stand before a value that is talked about rather than stated for a key (not ":",
# which labels a value: "the retry delay: 30 seconds")
_TALKED_ABOUT = r"(?:^|[.!?;,(\-–—]\s*|\b(?:because|since|as|although|though|while|whereas|" \
    r"old|previous|former|earlier|original)\s+)(?:the\s+)?"


def echoes_replaced(facts: list[Fact], message_id: str, content: str, turn: int) -> int:
    """Mark as replaced each value this message stated plainly that repeats an earlier value
    this same message replaced (with a replacement still current: a message that takes its own
    change back, "…, no wait, keep 8080", keeps 8080); the number of values marked."""
    own = {f.id for f in facts if f.message_id == message_id and f.status == "current"}
    replaced = [f for f in facts if f.status == "replaced" and f.replaced_by in own
                and f.message_id != message_id and (f.turn or 0) < turn]
    marked = 0
    for fact in facts:
        if fact.message_id != message_id or fact.status != "current":
            continue
        old = next((f for f in replaced if f.replaced_by != fact.id
                    and _kin(family(f), family(fact)) and same_value(f.value, fact.value)),
                   None)
        if old is None or not _talked_about(fact.value, content):
            continue
        fact.status, fact.replaced_by, fact.replaced_turn = "replaced", old.replaced_by, turn
        marked += 1
    return marked


def _kin(old: str, echo: str) -> bool:
    """The echo may be read more loosely than the old value: a bare "8080" is a number where
    the old one was a port."""
    return old == echo or (echo == "number" and old in ("port", "version", "number"))


def _talked_about(value: str, content: str) -> bool:
    return re.search(_TALKED_ABOUT + re.escape(value) + r"(?!\w)", content, re.I | re.M) is not None
