"""A key whose head names only the measure its unit already tells, said again by its owner alone:
"sparge temp 76 °C", then "sparge water at 78 °C this time"; "backup frequency 145.525 MHz",
then "backup is 145.550 MHz"; "venue capacity is 150 people", then "the venue holds 130
people"; "the upload limit is 25 MB", then "upload is 50 MB". The head ("temp", "frequency",
"capacity") says nothing the unit (°C, MHz, people) does not: the two keys are one
(``fact_key_match`` answers "same", ``fact_restatement`` replaces with it).

The head must be a noun of the measure of that very unit class (a closed class per unit: "temp"
of °C, "weight" of kg), the other key's whole noun phrase the owner or its last words ("backup"
of "club field day backup frequency", never a word that marks a sibling: "tyre" of "front
tyre pressure"), and the two unit classes one. A length's nouns are
several dimensions of one thing ("the bedroom width 3 m", "the bedroom is 4 m": its length?),
so a length stays only possibly one key ("maybe"). A head that names a thing ("the kitchen
table is 180 cm", "the kitchen is 350 cm wide") or a part is no measure: two keys, as before.
Apart from ``fact_key_match`` (at its size limit).
"""

from __future__ import annotations

from ollm_desktop.engine.fact_keys import stem
from ollm_desktop.engine.fact_sibling_marks import SIBLING_MARKS
from ollm_desktop.engine.fact_words import closed

_TEMPERATURE = ("temp", "temperature", "heat")
_FREQUENCY = ("frequency", "freq", "channel")
_WEIGHT = ("weight", "mass")
_LENGTH = ("length", "width", "height", "depth", "distance", "size")
_VOLUME = ("volume", "capacity")
_SIZE = ("size", "capacity", "cap", "quota", "limit", "allowance", "storage", "space")
_PEOPLE = ("capacity", "headcount", "size", "count")
_SPEED = ("speed", "limit")

# Words before an owner that say whose or which of its kind it is ("guest bedroom", "kids
# bedroom", "home upload"): the owner without them may be another one (review of stop 53).
_WHOSE = closed("master guest spare main kid kids child children baby home office work "
                "his her their my our your mum mom dad")
# The nouns of each unit class's measure (a closed class).
_MEASURE_NOUNS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("°c", "°f", "c", "f", "degree", "degrees c", "degrees f", "celsius",
                     "fahrenheit"), _TEMPERATURE),
    **dict.fromkeys(("hz", "khz", "mhz", "ghz"), _FREQUENCY),
    **dict.fromkeys(("kg", "g", "lb", "lbs", "oz", "kilo", "pound", "gram", "gramme", "stone"),
                    _WEIGHT),
    **dict.fromkeys(("l", "ml", "litre", "liter", "gallon", "cl"), _VOLUME),
    **dict.fromkeys(("cm", "mm", "m", "km", "in", "ft", "inch", "inche", "feet", "foot", "mile",
                     "metre", "meter", "yard"), _LENGTH),
    "size": _SIZE, "bandwidth": ("speed", "bandwidth"), "people": _PEOPLE,
    "guest": _PEOPLE, "person": _PEOPLE, "seat": _PEOPLE,
    "psi": ("pressure",), "bar": ("pressure",), "rpm": ("speed",),
    **dict.fromkeys(("mph", "km/h", "kph", "kmh"), _SPEED),
    "duration": ("duration", "length", "time"),
}
# Unit classes whose measure has several nouns of one thing (dimensions): only "maybe".
_SEVERAL = frozenset(_u for _u, _nouns in _MEASURE_NOUNS.items() if _nouns is _LENGTH)


def measure_left_out(key_a: str, key_b: str) -> str:
    """"same" where one key is the other's owner with a head that only names the measure of
    their one unit class ("|sparge|°c" and "sparge|temp|°c"); "maybe" for a length's
    (several dimensions); "" otherwise."""
    return _left_out(key_a, key_b) or _left_out(key_b, key_a)


def _left_out(short: str, full: str) -> str:
    parts, full_parts = short.split("|"), full.split("|")
    if len(parts) != 3 or len(full_parts) != 3 or parts[2] != full_parts[2]:
        return ""
    unit = parts[2]
    if full_parts[1] not in _MEASURE_NOUNS.get(unit, ()) or not full_parts[0] or \
            not parts[1] or parts[1] in _MEASURE_NOUNS.get(unit, ()):
        return ""
    phrase = [stem(w) for w in f"{parts[0]} {parts[1]}".split()]
    owner = [stem(w) for w in full_parts[0].split()]
    if owner[-len(phrase):] != phrase or set(full_parts[0].split()[:-len(phrase)]) & \
            (SIBLING_MARKS | _WHOSE):  # the whole owner, or its last words ("backup" of "club field
        return ""  # day backup frequency"), never without its mark ("tyre": the front one?)
    return "maybe" if unit in _SEVERAL else "same"
