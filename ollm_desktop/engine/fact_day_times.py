"""A weekday and its time read as one value ("Thursday 9pm", ``reference_value_wholes``) whose
time alone is corrected ("pushed raids back to 9:30pm"): the new time replaces the pair, and
the weekday, which nothing corrected, holds on as a value of its own (a slice of what the
user said, with the pair's key, class "date"), so the ledger still shows the day. Whose day
alone is corrected ("moved it to Friday"): before the new day meets it, the pair gives way to
its two values (the day, class "date", for the new one to replace, and the time, kept); the
pair stays in the ledger as replaced by its day, so a message read again finds it.

Split from ``fact_supersession`` (which calls it where a correction replaces a value) so the
reading of a pair stays beside its one exception.
"""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_types import Fact, _fact_id
from ollm_desktop.engine.reference_words import WEEKDAYS

_SHORT = "mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun"
_DAY_TIME = re.compile(rf"((?i:{WEEKDAYS}|{_SHORT})s?\.?)\s(?:at\s)?(\d.*)")
_DAY = re.compile(rf"\b(?i:{WEEKDAYS}|{_SHORT})s?\b")


def kept_day(new: Fact, old: Fact, facts: list[Fact]) -> None:
    """The weekday of ``old`` ("Thursday 9pm") as a current value of its own, where ``new``
    (which replaced it) is a time that names no day."""
    pair = _DAY_TIME.fullmatch(old.value)
    if pair is None or old.ref_kind != "time" or new.ref_kind != "time" or \
            _DAY.search(new.value) or not old.key:
        return
    key = "|".join([*old.key.split("|")[:2], "date"])
    if any(f.status == "current" and f.key == key and f.value.lower() == pair[1].lower()
           for f in facts):
        return
    facts.append(old.model_copy(update={
        "id": _fact_id(), "value": pair[1], "ref_kind": "date", "key": key,
        "status": "current", "replaced_by": None, "replaced_turn": None,
        "possibly_replaced_by": None, "disputed_by": None}))


def taken_day(new: Fact, old: Fact, facts: list[Fact]) -> None:
    """Where a weekday with its time (``new``: "Moved: Tuesday 10:15.") replaced a time said
    without its day ("10:15 on Monday", read as two values), the one weekday said alone in
    that message, of the time's key or of none, is replaced by the pair too: it said the
    day the pair now says."""
    if new.ref_kind != "time" or old.ref_kind != "time" or not _DAY_TIME.fullmatch(new.value) \
            or _DAY.search(old.value):
        return
    days = [f for f in facts if f.status == "current" and f.ref_kind == "date" and
            f.message_id == old.message_id and _DAY.fullmatch(f.value) and
            _owners_meet(f.key, old.key)]
    if len(days) == 1:
        day = days[0]
        day.status, day.replaced_by, day.replaced_turn = "replaced", new.id, new.turn


def day_taken_later(facts: list[Fact], new: Fact) -> int:
    """``taken_day`` for a weekday absorbed after the pair replaced its message's time (a
    correction is read at once, the statement it corrects when compacted): 1 if replaced."""
    if new.ref_kind != "date" or not _DAY.fullmatch(new.value):
        return 0
    by_id = {f.id: f for f in facts}
    pairs = {f.replaced_by for f in facts if f.status == "replaced" and f.ref_kind == "time"
             and f.message_id == new.message_id and not _DAY.search(f.value)
             and _owners_meet(f.key, new.key)}
    took = [by_id[i] for i in pairs if i in by_id and by_id[i].status == "current"
            and _DAY_TIME.fullmatch(by_id[i].value)]
    if len(took) != 1 or any(f is not new and f.ref_kind == "date" and _DAY.fullmatch(f.value)
                             and f.message_id == new.message_id for f in facts):
        return 0
    new.status, new.replaced_by, new.replaced_turn = "replaced", took[0].id, took[0].turn
    return 1


def _owners_meet(one: str, other: str) -> bool:
    """Two keys' owners are one, or either key names none."""
    a, b = one.rsplit("|", 1)[0] if one else "|", other.rsplit("|", 1)[0] if other else "|"
    return a == b or "|" in (a, b)


def split_pair(new: Fact, facts: list[Fact]) -> None:
    """Before a weekday said alone by a correction (``new``) meets the ledger: the earlier
    pairs of a weekday and its time of its key (or the one such pair, where its key is none
    of theirs: "I moved it to Friday") become the time and, beside it, the weekday (see
    the module's docstring). A day said plainly ("The game is Saturday." after "Soccer
    practice is Wed 5pm.") is another thing's: no pair splits."""
    if new.ref_kind != "date" or not _DAY.fullmatch(new.value) or not new.users or \
            new.kind == "question" or not new.from_correction:
        return
    pairs = [f for f in facts if f.status == "current" and f.ref_kind == "time" and f.key and
             (f.turn or 0) < (new.turn or 0) and _DAY_TIME.fullmatch(f.value)]
    mine = [f for f in pairs if f.key.rsplit("|", 1)[0] == new.key.rsplit("|", 1)[0]]
    for pair in mine or (pairs if len(pairs) == 1 else []):
        _split(pair, facts, new.turn)


def split_before_later(facts: list[Fact], new: Fact) -> list[Fact]:
    """A pair read after a later weekday alone that may correct it (a correction is read at
    once, the statement it corrects when compacted: "Thursday 2 pm", then "Scratch that, on
    Friday"): split as ``split_pair`` does; its day, for the later one to meet."""
    if new.ref_kind != "time" or not new.key or not _DAY_TIME.fullmatch(new.value):
        return []
    owner = new.key.rsplit("|", 1)[0]
    later = [f for f in facts if f.status == "current" and f.ref_kind == "date" and f.users
             and f.kind != "question" and f.from_correction and _DAY.fullmatch(f.value)
             and (f.turn or 0) > (new.turn or 0) and f.key.rsplit("|", 1)[0] in (owner, "|")]
    return [_split(new, facts, later[0].turn)] if later else []


def _split(pair: Fact, facts: list[Fact], turn: int | None) -> Fact:
    """The pair replaced by its day, the day and the time added as values (the day returned)."""
    day, time = _DAY_TIME.fullmatch(pair.value).groups()  # type: ignore[union-attr]
    entity_attribute = pair.key.split("|")[:2]
    day_fact = pair.model_copy(update={"id": _fact_id(), "value": day, "ref_kind": "date",
                                       "key": "|".join([*entity_attribute, "date"])})
    facts += [day_fact, pair.model_copy(update={"id": _fact_id(), "value": time})]
    pair.status, pair.replaced_by, pair.replaced_turn = "replaced", day_fact.id, turn
    return day_fact


def time_of_pair(value: str) -> str | None:
    """The time of a weekday-time pair ("4:30" of "Thursdays at 4:30"), else None."""
    pair = _DAY_TIME.fullmatch(value)
    return pair[2] if pair is not None else None


def one_day(old: str, old_kind: str, new: str, new_kind: str) -> bool:
    """A weekday and a weekday with its time are values of one kind ("Monday, sorry, Tuesday
    at 3pm": a self-repair of the day)."""
    return {old_kind, new_kind} == {"date", "time"} and all(
        _DAY.fullmatch(v) or _DAY_TIME.fullmatch(v) for v in (old, new))
