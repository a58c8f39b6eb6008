"""A correction's value reported from someone who said it ("forget that — vet says 1.5 cups",
"scratch that, physio said cap it at 14 km", "accountant says 4 years instead"): the noun
before the verb of saying names who said it, never what the value is of (stop 52). The
grammar reads "vet" or "physio said cap" as the key, so the value meets no key and its one
earlier value of the unit stays current. Read as a value of no key, it refers back as any
keyless correction does (``fact_supersession``: the one value of its unit, else only
possibly). Only in a correction: a plain report ("the vet says 1.5 cups") is someone
else's word, and what the user does with it is the mood's (``fact_mood_*``). In a module
of its own: ``fact_keys`` and ``fact_grammar``, which read keys, are full.
"""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_types import Fact

# Verbs of saying in the present or the past (a closed class); never "wants", "thinks",
# "suggested" (a wish, an opinion, an offer: the mood's) nor "asked".
SAYING = frozenset({"says", "said", "reckons", "confirmed", "confirms", "told", "tells",
                    "advised", "advises", "insists", "insisted"})
# Things that show a reading (a closed class): what they "say" is a reading of their own,
# a key beside the value set ("the heat is set to 68", "the thermostat says 71 now").
_INSTRUMENTS = frozenset({"thermostat", "gauge", "meter", "scale", "odometer", "app", "screen",
                          "display", "sign", "clock", "watch", "phone", "label", "website",
                          "site", "page", "doc", "docs", "readme", "map", "gps", "sensor",
                          "monitor", "tracker", "dashboard", "thermometer", "counter"})
# A value the report goes on to say something of ("7pm works better for her", "1.5 cups is
# too much"): a view of it, not the value relayed.
_OWN_CLAUSE = re.compile(r"\s*(?:is|are|was|were|would|will|could|should|might|works?|"
                         r"suits?|sounds?|seems?|feels?|looks?)\b")
# What says the report is of a time gone by (a closed class of past markers).
_PAST = re.compile(r"\b(?:last|ago|used to|originally|previously|back then|at first|once)\b")
_OBJECT = r"(?:\s+(?:me|us|him|her|them))?(?:\s+that)?"


def reported_key(new: Fact, said: str) -> bool:
    """``new``'s key ends with who said it: a word of its key is a verb of saying ("physio
    said|cap"), or the key's last word stands before one in ``said`` ahead of the value
    ("vet says 1.5 cups"); never where its clause tells a time gone by ("last year")."""
    parts = new.key.split("|")
    if len(parts) != 3 or not (parts[0] or parts[1]):
        return False
    words = f"{parts[0]} {parts[1]}".split()
    at = said.find(new.value)
    clause = re.split(r"[.;!?\n]", said[:max(at, 0)].lower())[-1]
    if _PAST.search(clause):  # "last year the vet said 1.5 cups": what held once, no change
        return False
    if any(w in SAYING for w in words):
        return True
    if at < 0:
        return False
    if words[-1] in _INSTRUMENTS or _OWN_CLAUSE.match(said[at + len(new.value):].lower()):
        return False  # "the thermostat says 71": a reading; "mom says 7pm works better for
    # her": a view of the value, someone else's, not the value relayed
    verbs = "|".join(sorted(SAYING))
    return bool(re.search(rf"\b{re.escape(words[-1])}\w*\s+(?:{verbs}){_OBJECT}\s*$",
                          said[:at].lower()))
