"""A name said to have failed, beside a new name: the old value (issue 28, names).

A user often corrects a name by saying why the old one is out rather than "not Y": "booked
Mitsui Garden instead, Granvia was full", "the old Bosch died, the thing that washes our
plates is a Miele now", "went with La Bella. the D'Addarios are off". The failed name is
the old value of the message's new name, as "instead of Granvia" would make it.

Structure only: a capitalised name of one to three words ([determiner] [old] NAME, or its
owner "NAME's N"), then at most two auxiliaries or adverbs of a closed class, then a word of
failing (a closed class: "died", "cancelled", "broke", "quit", "bailed"; after "be": "full",
"taken", "off", "dead", "broken", "gone") that ends its clause. It is read only in a user's
message that states a new name (a current value of the name kind, not the failed one), never
in a question, a condition ("if Granvia is full"), a suggestion or another's message; the
failed name goes with the nearest sentence that states the new name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ollm_desktop.engine.fact_dotted_initials import sentences
from ollm_desktop.engine.fact_message_lines import unwrapped
from ollm_desktop.engine.provenance import MAX_FACT_TEXT, Found

_NAME = r"[A-Z][\w'’.-]*"
_FAILED = re.compile(
    r"(?<![\w'’])(?:(?:the|my|our|her|his|their|old)\s+){0,2}"
    rf"(?P<name>{_NAME}(?:\s+{_NAME}){{0,2}})(?:['’]s\s+[a-z]+)?\s+"
    r"(?:(?:is|are|was|were|has|have|had|just|got|been|already|totally|completely)\s+){0,2}"
    r"(?:died|cancell?ed|broke|quit|bailed|full|taken|off|dead|broken|gone)"
    r"(?=\s*(?:[,;.!—–-]|$|\s(?:so|and|but|now)\b))")
# Words that put the clause under a condition, a doubt or a proposal (a closed class).
UNASSERTED = re.compile(r"\b(?:if|unless|in case|maybe|perhaps|might|could|would|should|"
                         r"suppose|what if|whether)\b", re.IGNORECASE)
_PRONOUNS = frozenset({"I", "We", "It", "They", "He", "She", "You", "This", "That", "There"})


# The words by which a message tells that one thing took another's place ("booked Mitsui
# Garden instead", "... is a Miele now", "went with La Bella"): without one, a name that
# failed beside another name is news of its own ("The band is The Blue Notes. Marco
# cancelled." replaces no DJ).
_CHANGED = re.compile(r"\b(?:instead|now|went with|going with|switched|swapped|replaced|booked"
                      r"|hired|changed)\b", re.IGNORECASE)


def failed_olds(found: Sequence[Found], content: str, role: str) -> tuple[Found, ...]:
    """The message's facts with each failed name beside a new name added as an old value."""
    news = [f for f in found if f.kind == "name" and not f.old]
    if role != "user" or not news or _CHANGED.search(content[:MAX_FACT_TEXT]) is None:
        return tuple(found)  # (no word of a change: "We're eating at Nobu. Tom is off.")
    out = list(found)
    for number, sentence in enumerate(sentences(unwrapped(content[:MAX_FACT_TEXT]))):
        for match in _FAILED.finditer(sentence):
            name = match.group("name")
            before = sentence[:match.start()]
            if name.split()[0] in _PRONOUNS or "?" in sentence[match.end():] or \
                    UNASSERTED.search(before):
                continue
            low = name.lower().rstrip("s")
            said = match.group(0).lower().split()
            others = [f for f in news if low not in f.value.lower()  # ("off" of "are off"
                      and f.value.lower().rstrip("s") not in low  # is no new name)
                      and f.value.lower() not in said]
            if not others or any(f.old and f.value.lower().rstrip("s") == low for f in out):
                continue
            near = min(others, key=lambda f: (abs(f.sentence - number), -f.sentence))
            plural = re.search(r"\s(?:are|were|have)\s", match.group(0)) is not None
            value = name[:-1] if plural and name.endswith("s") else name  # "the D'Addarios
            # are off": the brand
            out.append(Found("name", value, "", "name", True, old=True,
                             sentence=near.sentence, key=near.key, guessed=True))
            out = [replace(f, correction=True) if f is near else f for f in out
                   if not (f.sentence == number and f.value.lower() == said[-1])]  # ("off")
    return tuple(out)
