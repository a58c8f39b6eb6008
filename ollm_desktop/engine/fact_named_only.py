"""A correction that names its old value replaces only that value (issue 28).

"Pick-up not 2026-12-19 but 2026-12-18" and "from 10% to 20%" say which earlier value they
take back. The chat reads a correction as soon as it is said and the statements before it
only when they are compacted, so the earlier values arrive after it; a value of the same unit
read then (the tasting date 2026-12-05) is no value the correction named, and stays current
(``fact_supersession.replaced_by_later`` asks here).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ollm_desktop.engine.fact_keys import unit_class
from ollm_desktop.engine.fact_setting_names import named_setting
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.fact_value_forms import value_form
from ollm_desktop.engine.reference_words import WEEKDAYS


def names_another_old(facts: list[Fact], correction: Fact, new: Fact) -> bool:
    """``correction`` named its old value in its own words ("pick-up not 2026-12-19 but
    2026-12-18", "from 10% to 20%") and ``new`` is not that value: a correction that names
    what it replaces replaces only that, never another value of its unit read later (the
    tasting date 2026-12-05 stays). A value the named one begins or ends is still it
    ("instead of MySQL": "MySQL 8.0"), and so is one of the same number ("Version 1.27 is
    wrong": "Kubernetes 1.27")."""
    named = _named(facts, correction)
    value = new.value.lower()
    return bool(named) and not any(_is_named(value, old) or setting_named(
        value, old, correction.key) or named_setting(new, old) for old in named)


def names_its_old(facts: list[Fact], correction: Fact, new: Fact) -> bool:
    """``new``, read after ``correction``, is the old value it named, as said or in other
    words: "grad accum is 32 not 16" named "16", and "gradient accumulation 16" is read later
    ("it's 3300 not 3000": the port 3000). It is replaced whatever its key's words ("grad
    accum" beside "gradient accumulation") and its family (a port named as a number)."""
    value = new.value.lower()
    return any((_is_named(value, old) or setting_named(value, old, correction.key) or
                named_setting(new, old)) and
               not _named_beside(facts, correction, new, old)
               for old in _named(facts, correction))


def setting_named(value: str, said: str, key: str) -> bool:
    """``value`` is a NAME=value setting that holds ``said`` ("redis_db=2" of "2"), and its
    name shares a word with ``key`` (the correction's: "db index"): one setting of several
    that may hold the number. Or ``said`` is the setting's name ("set LOG_LEVEL to warn":
    the change's object names the setting, its value goes)."""
    setting = _SETTING.fullmatch(value)
    return setting is not None and (setting[1].lower() == said or (
        same_value(setting[2].lower(), said) and
        meet(set(re.split(r"[\W_]+", setting[1].lower())), key_words(key))))


def _named_beside(facts: list[Fact], correction: Fact, new: Fact, old: str) -> bool:
    """Another value of ``new``'s message holds ``old`` too, and ``new``'s key does not meet
    the correction's ("gym Monday 6pm, swimming Friday 6pm", then "gym moved from 6pm to
    7pm": the swimming's "Friday 6pm" is not the one it named; "moved it from 6pm to 7pm":
    which one is not said, and neither is taken)."""
    return not meet(key_words(new.key), key_words(correction.key)) and any(
        f is not new and f.message_id == new.message_id and _is_named(f.value.lower(), old)
        and f.value.lower() != old for f in facts)


def key_words(key: str) -> set[str]:
    """The words of a key's entity and attribute."""
    return set(re.split(r"[\s_]+", " ".join(key.lower().split("|")[:2])))


def meet(one: set[str], other: set[str]) -> bool:
    """Two sets of words share one (of two letters or more; "accum" meets "accumulation")."""
    return any(a.startswith(b) or b.startswith(a) for a in one for b in other
               if len(a) > 1 and len(b) > 1)


_SETTING = re.compile(r"([A-Za-z][\w.-]*)\s*[=:]\s*(\S+)")


def _named(facts: list[Fact], correction: Fact) -> list[str]:
    """The old values ``correction`` named in its own message (lower case)."""
    return [f.value.lower() for f in facts if f.replaced_by == correction.id
            and f.message_id == correction.message_id and f.value != correction.value]


def _is_named(value: str, old: str) -> bool:
    """``value`` is ``old`` in other words: one value however written ("19 December 2026" of
    "2026-12-19", "15:00" of "3pm", "10 percent" of "10%"), or it begins or ends with it
    ("MySQL 8.0" of "MySQL", "accumulation 16" of "16"), or both hold one dotted number
    ("Kubernetes 1.27" of "Version 1.27"; not "30 September" of "30 June": a day is no
    version)."""
    return same_value(value, old) or begins_or_ends(value, old) or clock(value) == old or \
        same_quantity(value, old) or (bool(_dotted(old)) and _dotted(old) == _dotted(value))


def same_quantity(one: str, other: str) -> bool:
    """One quantity in other spellings (lower case): a weekday and its plural ("thursday",
    "thursdays"), or the same number of one unit written in full, short, plural or as a
    compound adjective ("7 days", "7-day"; "40 min", "40 minutes"; "2 hrs", "2 hours")."""
    if _WEEKDAY.fullmatch(one) and _WEEKDAY.fullmatch(other):
        return one.rstrip("s") == other.rstrip("s")
    a, b = _QUANTITY.fullmatch(one), _QUANTITY.fullmatch(other)
    return a is not None and b is not None and a[1] == b[1] and _unit(a[2]) == _unit(b[2])


def _unit(word: str) -> str:
    """A unit's one spelling: its short form where it has one, else its singular."""
    word = word.rstrip(".")
    return _SHORT_UNITS.get(word, word[:-1] if len(word) > 3 and word.endswith("s") else word)


_WEEKDAY = re.compile(rf"{WEEKDAYS}s?")
_QUANTITY = re.compile(r"(\d[\d.,]*)(?:\s|-)?([a-z]+\.?)")
# The units of time and of length and weight people shorten: one spelling each.
_SHORT_UNITS = {
    **dict.fromkeys(("min", "mins", "minute", "minutes"), "min"),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), "h"),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), "s"),
    **dict.fromkeys(("wk", "wks", "week", "weeks"), "week"),
    **dict.fromkeys(("yr", "yrs", "year", "years"), "year"),
    **dict.fromkeys(("km", "kms", "kilometre", "kilometres", "kilometer", "kilometers"), "km"),
    **dict.fromkeys(("kg", "kgs", "kilo", "kilos", "kilogram", "kilograms"), "kg"),
}


def clock(time: str) -> str | None:
    """The clock reading of a time said with its meridiem ("7:30" of "7:30pm", "7:30 p.m."):
    the user's shorthand for it, as "not 7:30" names "Wednesdays at 7:30pm"."""
    match = _MERIDIEM.search(time)
    return match[1] if match is not None else None


# (at the value's end: "7:30pm", a weekday's "Wednesdays at 7:30pm")
_MERIDIEM = re.compile(r"(?:^|\s)(\d{1,2}[:.]\d\d)\s?[ap]\.?m\.?$", re.IGNORECASE)


def begins_or_ends(value: str, said: str) -> bool:
    """``value`` begins or ends with the words ``said`` ("MySQL 8.0" of "MySQL", "Milan
    Malpensa" of "Malpensa"): the one test ``facts`` also asks of a named old value."""
    return value.startswith(said + " ") or value.endswith(" " + said)


@lru_cache(maxsize=16384)  # asked of every pair of facts a correction meets (issue 28, point 7)
def same_value(a: str, b: str) -> bool:
    """Two written forms of one value: the same ``value_form`` (a date, a clock time, a
    grouped number), or the same number of the same unit ("10%" and "10 percent"; a class
    that holds several units, a duration, a size, an amount of money, says nothing)."""
    if value_form(a) == value_form(b):
        return True
    number_a, number_b = _LEADING_NUMBER.match(a), _LEADING_NUMBER.match(b)
    return number_a is not None and number_b is not None and \
        number_a.group() == number_b.group() and \
        unit_class(a, "number", "") == unit_class(b, "number", "") not in _SEVERAL_UNITS


_SEVERAL_UNITS = frozenset({"number", "duration", "size", "money"})
# The number a value begins with ("10" of "10 percent"), a fraction whole ("1/2" of "1/2
# teaspoon": not "1", which "1/4 teaspoon" and "1 teaspoon" also begin with), a dilution or
# a size whole ("1:500" is not "1:1000", "30x40" not "30x50"), a grouped number whole ("1,800"
# is not "1,650").
_LEADING_NUMBER = re.compile(r"\d(?:[\d.]|,(?=\d{3}))*(?<!\.)(?:/\d+|:\d+|(?:[x×]\d+(?:\.\d+)?)+)?")


def _dotted(value: str) -> set[str]:
    """The dotted numbers of a value ("1.27" of "Kubernetes 1.27")."""
    return {word for word in value.split() if "." in word.strip(".")
            and any(c.isdigit() for c in word)}
