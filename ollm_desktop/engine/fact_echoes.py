"""A replaced value mentioned again in the message that replaced it is not stated anew.

"Change the default HTTP port to 8877. We decided to change the default because 8080 is over
used": the first sentence replaces 8080; the second names 8080 only to say why. Read on its own,
that second sentence states "8080" under some key of its own ("default because"), and the old
value would be sent as current beside its replacement. A message that replaces a value and then
names it again is nearly always explaining the change, so such an echo takes the old value's
place: it is replaced by the same replacement, never current. A version may be named with
its product on one side only ("… to v22.11. Drop support for Node v20." after "v20").
"""

from __future__ import annotations

from ollm_desktop.engine.fact_key_match import family
from ollm_desktop.engine.fact_named_only import same_value
from ollm_desktop.engine.fact_types import Fact


def echoes_replaced(facts: list[Fact], message_id: str, turn: int) -> int:
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
                    and _kin(family(f), family(fact)) and _names_again(f, fact)), None)
        if old is None:
            continue
        fact.status, fact.replaced_by, fact.replaced_turn = "replaced", old.replaced_by, turn
        marked += 1
    return marked


def _kin(old: str, echo: str) -> bool:
    """The echo may be read more loosely than the old value: a bare "8080" is a number where
    the old one was a port."""
    return old == echo or (echo == "number" and old in ("port", "version", "number"))


def _names_again(old: Fact, echo: Fact) -> bool:
    """The echo names the old value: the same value, or a version with its product named on
    one side only ("drop support for Node v20" after "the minimum Node.js version is v20")."""
    if same_value(old.value, echo.value):
        return True
    return "version" in (old.ref_kind, echo.ref_kind) and (
        echo.value.endswith(f" {old.value}") or old.value.endswith(f" {echo.value}"))
