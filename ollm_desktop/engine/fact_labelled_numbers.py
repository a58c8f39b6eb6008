"""A number read as a name with a word before it: "rank 16", "Track 3", "default 9090".

The value finder reads "rank 16, alpha 32" or "change port to default 9090" as names (a word
and a number), while "bump the rank to 64" or "the port is 9090" give a bare number. Both
are values of one key: the number is the value, and the word before it is the key's own
attribute ("rank 16" of the key "rank") or a modifier of a value whose attribute names its
unit ("default 9090" of the key "port"). ``fact_supersession`` compares such a name by the
unit of its number, so a correction that names the key meets it (issue 28).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ollm_desktop.engine.fact_keys import stem, unit_class
from ollm_desktop.engine.fact_label_keys import PLACE_NOUNS
from ollm_desktop.engine.fact_named_only import same_value
from ollm_desktop.engine.fact_types import Fact

# A number alone: digits with a decimal point or separators, no unit.
_NUMBER = re.compile(r"\d[\d.,_]*")
# A version number alone: "3.10", "20", "1.27.4".
_VERSION = re.compile(r"\d+(?:\.\d+)*")
# Attributes that name the unit class of a bare number (``fact_keys.unit_class``).
_UNIT_ATTRIBUTES = ("port", "version")


@lru_cache(maxsize=16384)  # asked of every pair of facts a correction meets (issue 28, point 7)
def counted_unit(value: str, key: str) -> str:
    """The unit class of the number in a name value of ``key`` ("entity|attribute|name")
    that is a label and a number ("rank 16" of rank: number; "default 9090" of port:
    port), or "version" for a bare dotted number whose key's noun phrase names a version
    ("the minimum Python version requirement to 3.10"); "" for any other value (a name
    stays a name: "Hotel 55", "Studio 54" of "venue")."""
    parts = key.split("|")
    if len(parts) == 3 and parts[2] == "number" and _VERSION.fullmatch(value) and \
            "version" in f"{parts[0]} {parts[1]}".split():
        return "version"
    if len(parts) != 3 or parts[2] != "name" or not parts[1]:
        return ""
    words = value.split()
    if len(words) != 2 or not _NUMBER.fullmatch(words[1]) or not words[0].isalpha():
        return ""
    attribute = parts[1].split()[-1]
    if attribute in _UNIT_ATTRIBUTES or stem(words[0].lower()) == stem(attribute) or \
            words[0].lower() in PLACE_NOUNS:  # "room 118" of "grandpa" (fact_label_keys)
        return unit_class(words[1], "number", attribute)
    return ""


def same_number(a: Fact, b: Fact) -> bool:
    """Two values of which one restates the other: the same text, or a label and number
    whose number is the other value ("default 9090" of "9090"; compared by written form)."""
    return a.value == b.value or same_value(_number_of(a), _number_of(b))


def _number_of(fact: Fact) -> str:
    """The number of a label and number ("9090" of "default 9090"), else the value."""
    return fact.value.split()[1] if counted_unit(fact.value, fact.key) not in ("", "version") \
        else fact.value


def labelled_for(value: str, key: str, other_key: str) -> bool:
    """A label and number ("accumulation 16" of "gradient|accumulation|name") whose label
    ``other_key`` names, in full or cut short ("grad accum" names "accumulation"; "alpha"
    does not name "rank"): a bare number said as the old value of ``other_key`` ("grad accum
    is 32 not 16") is that value, not another label's ("rank 16")."""
    if not counted_unit(value, key):
        return False
    label = value.split()[0].lower()
    words = [w for w in other_key.split("|")[:2] for w in w.split()]
    return any(len(w) >= 3 and (label.startswith(w) or w.startswith(label)) for w in words)


def owners_port(new: Fact, earlier: list[Fact]) -> Fact | None:
    """The one port among the user's ``earlier`` values open to change (current, stated
    before, neither pinned nor entered by hand: ``fact_supersession.users_earlier``) of the
    thing a bare number's key names ("the API runs on 8000 and the admin UI on 8001", then
    "the admin UI moved to 9001": the admin UI's port), where its noun phrase is that port's
    owner, word stems alike; None where the number is no port number, or several ports or
    none have that owner."""
    entity, _, attribute = new.key.partition("|")
    attribute, _, unit = attribute.partition("|")
    if unit != "number" or not attribute or not new.users or not new.value.isdecimal() \
            or not 0 < int(new.value) < 65536:
        return None
    owner = [stem(w) for w in f"{entity} {attribute}".split()]
    ports = [f for f in earlier if f.key.endswith("|port") and f.key.count("|") == 2
             and [stem(w) for w in f.key.split("|")[0].split()] == owner]
    return ports[0] if len({f.key for f in ports}) == 1 and len(ports) == 1 else None
