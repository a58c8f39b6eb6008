"""A reply's restatement of the user's value stands for it when a correction takes it back
(issue 28).

"retention.ms = 7 days", then the reply "Noted: 7-day retention", then "we bumped retention
on orders.v1 to 14 days": the correction's key meets the reply's words ("retention", the
topic), not the user's (a setting's code name), so it replaced only the reply's "7-day
retention". The reply said back the user's own value in other words, one quantity (the same
number of the same unit, "7-day" and "7 days") of the user's message it answered: what
replaces the restatement replaces the value it restated. Only where exactly one current
value of the user's in that message is that quantity (two would leave it unsaid which);
``fact_supersession.replace_or_dispute`` asks here when it replaces a reply's value.
"""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_named_only import same_value
from ollm_desktop.engine.fact_types import Fact

_QUANTITY = re.compile(r"(\d[\d.,]*)\s?-?\s?([a-z]+)")


def restated_by(old: Fact, facts: list[Fact]) -> Fact | None:
    """The user's value of ``old``'s turn that ``old`` (a reply's value, just replaced)
    restated, if exactly one."""
    if old.source != "assistant" or old.users:
        return None
    turn = max((f.turn or 0 for f in facts if f.source == "user" and (f.turn or 0) <= (
        old.turn or 0)), default=None)  # (the user's message the reply answered)
    said = [f for f in facts if f.source == "user" and f.status == "current" and f.turn ==
            turn and _one_quantity(f.value, old.value)]
    return said[0] if len(said) == 1 else None


def _one_quantity(one: str, other: str) -> bool:
    """The same number of the same unit however written ("7 days", "7-day retention")."""
    if same_value(one.lower(), other.lower()):
        return True
    a, b = _QUANTITY.match(one.lower()), _QUANTITY.match(other.lower())
    return a is not None and b is not None and a[1] == b[1] and len(a[2]) > 2 and \
        a[2].rstrip("s") == b[2].rstrip("s")
