"""Two values one message stated side by side under one key: a correction replaces neither
silently (issue 28).

"ferry out at 7:40, ferry back at 18:10" reads both times as the ferry's: the words that
told them apart ("out", "back") are no part of the key. One message that gives a key two
values at once states two things, so a correction that names neither ("the ferry is 17:25
now") cannot be told which of them it takes back by the key alone: taking both would lose
the one it did not mean. Both stay current, marked "possibly replaced"
(``fact_supersession.supersede`` asks here of the values of its key; what the correction
names as old is still replaced, ``facts``). Where the correction's words name one of them
and no other, that one is replaced: a word of its own statement, or a round trip's leg in
other words ("return ferry" names "ferry back", "outbound" names "out"; stop 52).
"""

from __future__ import annotations

from ollm_desktop.engine.fact_named_only import same_value
from ollm_desktop.engine.fact_types import Fact


def side_by_side(same: list[Fact], maybe: list[Fact], new: Fact,
                 done: list[Fact]) -> tuple[list[Fact], list[Fact]]:
    """(``same`` less the values one user message stated side by side under one key, ``maybe``
    with them), unless the words of one of them meet the correction's and no other's do
    ("bus there at 8:05, bus home at 17:40", then "the bus home is now 18:10": 17:40 only);
    ``done``: what ``new`` replaced when first read (a message read again)."""
    group = _stated_together(same + done)
    pairs = [f for f in same if f in group]
    if not pairs:  # a pair only possibly of the correction's key ("ferry out", "ferry back"
        group = _stated_together(maybe + done)  # beside "the return ferry"): the one its
        told = told_apart(group, new) if group else None  # words name, else all marked
        if told is None:
            return same, maybe
        return same + [f for f in maybe if f is told], [f for f in maybe if f not in group]
    told = told_apart(group, new)
    if told is not None:
        return [f for f in same if f not in pairs or f is told], maybe
    return [f for f in same if f not in pairs], maybe + pairs


def _stated_together(facts: list[Fact]) -> list[Fact]:
    """The user's values of ``facts`` that one message stated under one key with another."""
    return [f for f in facts if f.users and any(
        g is not f and g.users and g.message_id == f.message_id and g.key == f.key
        and not same_value(g.value.lower(), f.value.lower()) for g in facts)]


def told_apart(group: list[Fact], correction: Fact) -> Fact | None:
    """The one value of ``group`` whose own statement's words (its topic) share a word with
    the correction's that no other value of the group has, if exactly one."""
    mine = _legs(correction.topic)
    own = {f.id: _legs(f.topic) for f in group}
    hits = [f for f in group if (own[f.id] & mine) - set().union(
        *(own[g.id] for g in group if g is not f))]
    return hits[0] if len(hits) == 1 else None


def beside_taken(facts: list[Fact], new: Fact, correction: Fact) -> bool:
    """``new``, read after ``correction`` (a correction is read at once, the statement it
    corrects when compacted), has a value of its message beside it under its key that the
    correction already replaced, though it named no old value: neither is replaced, both
    are marked (True); where the words of one tell it apart (``told_apart``), that one is
    replaced and the other kept (True when ``new`` is the other)."""
    if not new.users or any(f.replaced_by == correction.id and f.message_id ==
                            correction.message_id for f in facts):
        return False  # ("return ferry is 17:25, not 18:10": it says which)
    taken = [f for f in facts if f is not new and f.replaced_by == correction.id and f.users
             and f.message_id == new.message_id and f.key == new.key
             and not same_value(f.value.lower(), new.value.lower())]
    if not taken:
        return False
    told = told_apart([*taken, new], correction)
    if told is not None and told is not new:
        return True  # (the one it took is the one its words name)
    for fact in [*taken, new]:
        fact.status, fact.replaced_by, fact.replaced_turn = "current", None, None
        fact.possibly_replaced_by = None if told is not None else correction.id
    return told is None


# The two legs of a round trip, each in its words (a closed class): "ferry back" is the
# "return ferry", "flight out" the "outbound flight".
_LEGS = {"return": "back", "returning": "back", "back": "back", "outbound": "out",
         "outward": "out", "out": "out"}


def _legs(topic: str) -> set[str]:
    """A topic's words, with a round trip's leg named in one word: "return" is "back", and
    a noun compounded with its leg ("ferriback": the topic's "ferri" and "back") names it."""
    words = set(topic.split())
    legs = {_LEGS[w] for w in words if w in _LEGS} | {
        _LEGS[w[len(s):]] for w in words for s in words if s != w and w.startswith(s)
        and w[len(s):] in _LEGS}
    return words | legs
