"""An old value a correction names that is one part of an earlier value (issue 28).

A correction names its old value as the user thinks of it, not as the ledger wrote it down:
"the teacher moved him from 4:30 to 5:15" names the time of "Thursdays at 4:30" (a weekday
and its time read as one value), and "db index is 4 not 2" names the value of the setting
``REDIS_DB=2``. Either is the earlier value the correction takes back: the pair gives way to
the new time (its day holds on: ``fact_day_times.kept_day``), the setting to the new number.

A setting's value is named only where the setting's name shares a word with the
correction's key ("db index" and ``REDIS_DB``; "port" and ``REDIS_PORT``): a bare "2" said
of nothing in particular would name every setting that holds 2. ``facts._names`` asks here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ollm_desktop.engine.fact_day_times import time_of_pair
from ollm_desktop.engine.fact_named_only import (
    clock,
    key_words,
    meet,
    same_quantity,
    same_value,
    setting_named,
)
from ollm_desktop.engine.fact_setting_names import not_the_name
from ollm_desktop.engine.fact_types import Fact

if TYPE_CHECKING:  # (provenance reads the keys these compare)
    from ollm_desktop.engine.provenance import Found


def part_named(said: str, value: str, said_kind: str, key: str) -> bool:
    """``said`` (a correction's old value, lower case) names a part of ``value`` (an earlier
    fact's, lower case): the time of a weekday-time pair, or the value of a setting whose
    name shares a word with ``key`` (the replacement's), or a setting's name; a clock time
    said without its meridiem names the time said with one."""
    time = time_of_pair(value)
    if time is not None:
        return said_kind == "time" and any(c.isdigit() for c in said) and (
            same_value(time, said) or clock(time) == said)
    return setting_named(value, said, key) or (said_kind == "time" and clock(value) == said) \
        or same_quantity(value, said)  # ("Thursday" of "Thursdays", "7-day" of "7 days")


def one_part(olds: list[Fact], said: str, kind: str, replacement: Fact) -> list[Fact]:
    """``olds`` (the values the named old value ``said`` names) less the pairs, settings and
    clock times it names a part of in another key's values, where it names such parts in
    several keys' values and some key meets the replacement's ("gym Monday 6pm, swimming
    Friday 6pm", then "gym moved from 6pm to 7pm": the gym's pair only). One named value
    replaces one value, not two. (Values named as said are left as they were: narrowed by
    key too, a held-out set lost a case.)"""
    said = unstopped(said).lower()
    olds = not_the_name(olds, said, kind, replacement)  # "Set MAX_CONN to 200": not the name
    parts = [f for f in olds if part_named(said, f.value.lower(), kind, replacement.key)
             and not same_value(f.value.lower(), said)]
    mine = key_words(replacement.key)
    if len({f.key for f in parts}) < 2 or not any(meet(key_words(f.key), mine) for f in parts):
        return olds
    return [f for f in olds if f not in parts or meet(key_words(f.key), mine)]


def unstopped(value: str) -> str:
    """A value read with the full stop that ends its sentence ("not 2:40 pm."): the value."""
    return value[:-1] if value.endswith(".") and not value.endswith("..") else value


def other_setting(old: Found, new: Found) -> bool:
    """``old`` and ``new`` are the names of two settings ("set TIMEOUT_MS to 5000 and
    RETRIES_MAX to 3"): the one is no new name of the other (``facts``' replacement of a
    named old value asks; "rename MAX_CONN to MAX_CONNECTIONS" is a renaming)."""
    return old.ref_kind == new.ref_kind == "env" and old.key.count("|") == 2 and \
        new.key.count("|") == 2 and "" != old.key.split("|")[1] != new.key.split("|")[1] != ""
