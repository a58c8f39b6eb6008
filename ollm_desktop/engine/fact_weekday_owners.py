"""A weekday before a noun owns the noun's value: "Wednesday yoga is 6:30 pm now".

"Mon yoga is at 7 pm, Wed yoga is at 6 pm" keys the two times by their days ("wed yoga"),
as siblings told apart by a day. A later "Wednesday yoga is 6:30 pm now" read the day as a
value of its own (a date) and the time as plain "yoga"'s, which only possibly replaced
both days' times. A weekday written right before the noun its sentence's time (or other
value) is keyed by ("Wednesday yoga", "thursday swim") says which of them: it is the key's
owner, not a date. And a day is one day however it is written: "Wednesday", "wed" and
"Weds" name one owner, so the value takes the one current key of the ledger whose owner is
that day in any spelling (with the same noun and unit class); with none, the day as
written. The weekday read as a date is then no value of the sentence ("moved yoga to
Wednesday" keeps its date: no noun follows the day).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.fact_unit_alone import sentence_at
from ollm_desktop.engine.provenance import Found

# Each weekday's spellings (a closed class), by its full name.
_DAYS = {"monday": ("mon",), "tuesday": ("tue", "tues"), "wednesday": ("wed", "weds"),
         "thursday": ("thu", "thur", "thurs"), "friday": ("fri",), "saturday": ("sat",),
         "sunday": ("sun",)}
_DAY_OF = {form: day for day, forms in _DAYS.items() for form in (day, *forms)}


def day_of(word: str) -> str:
    """The full name of the weekday ``word`` spells ("wed" -> "wednesday"), or ""."""
    return _DAY_OF.get(word.lower().rstrip("."), "")


def keyed_by_weekday(found: Sequence[Found], facts: Sequence[Fact],
                     content: str) -> list[Found]:
    """``found`` with a value of no owner keyed by the weekday right before its noun, and a
    value whose owner is a weekday keyed as the ledger's one key of that day in another
    spelling (see the module's docstring)."""
    out = list(found)
    days = _days_before(found, content)
    owners: set[int] = set()  # the weekdays read as owners (no values of their own)
    for index, item in enumerate(found):
        parts = item.key.split("|")
        if item.old or len(parts) != 3 or not parts[1] or " " in parts[0]:
            continue
        day, at = (day_of(parts[0]), -1) if parts[0] else days.get(index, ("", -1))
        if not day:
            continue
        if at >= 0:
            owners.add(at)
        keys = {f.key for f in facts if f.status == "current" and f.key.count("|") == 2
                and f.key.split("|")[1:] == parts[1:] and day_of(f.key.split("|")[0]) == day}
        key = keys.pop() if len(keys) == 1 else "|".join([parts[0] or day, *parts[1:]])
        out[index] = replace(item, key=key, subject=f"{day} {parts[1]}" if at >= 0 else
                             item.subject)
    return [f for k, f in enumerate(out) if k not in owners]


def _days_before(found: Sequence[Found], content: str) -> dict[int, tuple[str, int]]:
    """For each value of no owner (by its index in ``found``), the weekday written right
    before its key's noun, and that weekday's index in ``found`` (read as a date of its
    own): the n-th "<day> <noun>" of a sentence is its n-th such value's; none where the
    counts differ."""
    out: dict[int, tuple[str, int]] = {}
    groups: dict[tuple[int, str], list[int]] = {}
    for index, item in enumerate(found):
        parts = item.key.split("|")
        if not item.old and len(parts) == 3 and not parts[0] and parts[1]:
            groups.setdefault((item.sentence, parts[1]), []).append(index)
    for (number, noun), indices in groups.items():
        written = [m.group(1) for m in re.finditer(
            rf"\b([A-Za-z]+)\.?\s+{re.escape(noun)}\b", sentence_at(content, number), re.I)
            if day_of(m.group(1))]
        dates = [k for k, f in enumerate(found) if f.sentence == number and not f.old and
                 f.ref_kind == "date" and day_of(f.value) and f.key.split("|")[:2] == ["", ""]]
        if len(written) != len(indices):
            continue
        for index, word in zip(indices, written, strict=True):
            at = next((k for k in dates if found[k].value.lower() == word.lower()), -1)
            if at >= 0:
                dates.remove(at)
                out[index] = (day_of(word), at)
    return out
