"""Two values one message stated side by side under one key: a correction replaces neither
silently (issue 28).

"ferry out at 7:40, ferry back at 18:10" reads both times as the ferry's: the words that
told them apart ("out", "back") are no part of the key. One message that gives a key two
values at once states two things, so a correction that names neither ("return ferry is
actually 17:25") cannot be told which of them it takes back by the key alone: taking both
would lose the one it did not mean. Both stay current, marked "possibly replaced"
(``fact_supersession.supersede`` asks here of the values of its key; what the correction
names as old is still replaced, ``facts``).
"""

from __future__ import annotations

from ollm_desktop.engine.fact_named_only import same_value
from ollm_desktop.engine.fact_types import Fact


def side_by_side(same: list[Fact], maybe: list[Fact]) -> tuple[list[Fact], list[Fact]]:
    """(``same`` less the values one user message stated side by side under one key, ``maybe``
    with them)."""
    pairs = [f for f in same if f.users and any(
        g is not f and g.users and g.message_id == f.message_id and g.key == f.key
        and not same_value(g.value.lower(), f.value.lower()) for g in same)]
    if not pairs:
        return same, maybe
    return [f for f in same if f not in pairs], maybe + pairs


def beside_taken(facts: list[Fact], new: Fact, correction: Fact) -> bool:
    """``new``, read after ``correction`` (a correction is read at once, the statement it
    corrects when compacted), has a value of its message beside it under its key that the
    correction already replaced, though it named no old value: neither is replaced, both
    are marked (True)."""
    if not new.users or any(f.replaced_by == correction.id and f.message_id ==
                            correction.message_id for f in facts):
        return False  # ("return ferry is 17:25, not 18:10": it says which)
    taken = [f for f in facts if f is not new and f.replaced_by == correction.id and f.users
             and f.message_id == new.message_id and f.key == new.key
             and not same_value(f.value.lower(), new.value.lower())]
    for fact in [*taken, new]:
        fact.status, fact.replaced_by, fact.replaced_turn = "current", None, None
        fact.possibly_replaced_by = correction.id
    return bool(taken)
