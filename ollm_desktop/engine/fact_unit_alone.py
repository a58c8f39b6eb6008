"""A plain statement whose key meets no earlier one, beside the one earlier value of its unit.

"the van has 143,000 km on it", then "odometer says 146,200 km as of today"; "weighed in at
84.2 kg this morning", then "today the scale said 83.6 kg"; "I water the fiddle leaf fig every
7 days", then "the ficus only gets a drink every 12 days": one thing named in other words, so
the two keys never meet and the older value stayed current beside the newer. Where the chat
holds exactly one earlier user value of the new value's unit class (a measured unit: not a
bare number, a name or a list), the new message states one value of it, and its sentence
says when it holds ("now", "today", "as of", "after the split", "these days": a reading
that changed, not another thing's: "the dog weighs 30 kg" after "my bike weighs 9 kg"),
the new value may be that key's: the older is only marked "possibly replaced", never
replaced (issue 28: where two keys may be one but it is not certain, both stay). Two keys
that each name an owner the other does not ("the API port" / "the admin port"), two labels
("Hall A" / "Hall B") and a frequency of another activity ("I swim twice a week" / "I go
to yoga three times a week") never meet here. What a person does ("these days I work 9 hours" after
"I sleep 7 hours") is an activity of its own; so is another thing named as the subject (a
thing the user has, "my phone lasts 20 hours now" after "the laptop battery lasts 8 hours"; a
second one, "the new hive has 5 frames"; a reading of that moment, "today the sea was 19 C"
after "the pool is 28 C"), unless it is a measuring device ("the scale said", "the odometer
says"); and a reading with its cause ("it took 65 minutes because of snow") or one the user
doubts ("the scale said 81 kg, but it's always off") is a one-off. ``fact_restatement`` calls
it where no other reading found the key (a correction's reading of the one value of a unit
is ``fact_supersession``'s own).
"""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_key_labels import two_labels
from ollm_desktop.engine.fact_key_match import ANY_KIND, family, kinds_differ, listed_unit
from ollm_desktop.engine.fact_leads import admits
from ollm_desktop.engine.fact_message_lines import said_sentences_once
from ollm_desktop.engine.fact_topics import two_owners, unrelated
from ollm_desktop.engine.fact_types import Fact

# Unit classes that say nothing of what a value is a value of: a bare number, a name, a
# word, a date or time of day (many things of a chat have one), an amount of money.
_SAYS_NOTHING = ANY_KIND | frozenset({"date", "time", "money", "percent", "version", ""})
# Unit classes that are always some activity's or some person's: another's only where the
# two statements share a word.
_WHOSE = frozenset({"frequency"})


# The words by which a sentence says when its value holds: now, since a time, after an event.
_WHEN = re.compile(r"\b(?:now|today|tonight|currently|lately|recently|these days|nowadays|"
                   r"as of|anymore|any more|this (?:morning|week|month|year|season)|"
                   r"since|after|in (?:winter|summer|spring|autumn|fall))\b", re.I)

# A person as a clause's subject, with its verb.
_PERSON = re.compile(r"\b(?:i|we|you|he|she|they)\s+[a-z]", re.I)
# A reading of one occasion: its cause, or the user's doubt of what showed it.
_ONE_OFF = re.compile(r"\b(?:because|due to|thanks to)\b|\bbut\b.*\b(?:off|wrong|broken|"
                      r"inaccurate|unreliable|lying|wonky|miscalibrated|not (?:right|accurate))"
                      r"\b", re.I)
# What measures a thing: a value its subject shows is a reading of another's.
_DEVICE = re.compile(r"\b(?:scales?|gauge|(?:odo|thermo|speedo|baro|hygro|pedo|multi|volt)meter|"
                     r"the meter|thermostat|tracker|watch|monitor|sensor|counter|display|"
                     r"readout|reading|dial|app|cuff|dipstick)\b", re.I)
# A subject's words that name a thing of the user's or a second thing of a kind.
_ANOTHER = frozenset({"my", "our", "your", "his", "her", "their", "new", "other", "another",
                      "second", "spare", "old", "extra"})
# A past verb after a subject: its value was that thing's at one moment.
_PAST = frozenset({"was", "were", "took", "lasted", "ran", "got", "came", "hit", "reached",
                   "measured", "weighed", "held", "used", "cost", "stood"})


def timed(content: str, sentence: int, value: str = "") -> str:
    """The message's sentence ``sentence`` (as ``provenance`` counts them) if it says when its
    value holds ("odometer says 146,200 km as of today", "after the split it has 5 frames"),
    no person is the subject of the clause that holds ``value`` ("these days I work 9 hours",
    "today I walked 30 minutes": what someone does, an activity of its own; a person in a
    clause beside it, "odometer says 146,200 km as of today, I did a long trip", is not the
    value's subject) and it is no one-off reading; else ""."""
    text = sentence_at(content, sentence)
    return text if _WHEN.search(text) and _PERSON.search(_clause_of(text, value)) is None \
        and _ONE_OFF.search(text) is None else ""


# Where a sentence's clauses part in writing: a comma or semicolon before a space (not
# "146,200"), a dash.
_CLAUSE_BREAK = re.compile(r"[,;](?=\s)|\s[-\u2013\u2014]\s|\u2014")  # (no "\s*" around it:
# quadratic on a run of blanks)


def _clause_of(text: str, value: str) -> str:
    """The clause of ``text`` that holds ``value`` (the whole sentence where none does)."""
    if value:
        for clause in _CLAUSE_BREAK.split(text):
            if value in clause:
                return clause.strip()
    return text


def sentence_at(content: str, sentence: int) -> str:
    """The message's sentence ``sentence`` (as ``provenance`` counts them), or ""."""
    sentences = said_sentences_once(content)
    return sentences[sentence] if 0 <= sentence < len(sentences) else ""


def another_thing(new: Fact, sentence: str) -> bool:
    """``new``'s key names a subject of its own in ``sentence`` that no device is: the user's
    ("my phone"), a second one ("the new hive"), or one as it was ("the sea was");
    ``fact_supersession`` asks it too, of a correction's one earlier value of its unit."""
    named = " ".join(new.key.split("|")[:2]).split()
    if not named or _DEVICE.search(sentence):
        return False
    if _ANOTHER & set(named):
        return True
    words = re.findall(r"[\w']+", sentence.lower())
    at = next((k for k, w in enumerate(words) if w.startswith(named[-1])), None)
    if at is None:
        return False
    first = at - len(named) + 1 if words[max(at - len(named) + 1, 0):at + 1] == named else at
    return (first > 0 and words[first - 1] in _ANOTHER) or (
        at + 1 < len(words) and words[at + 1] in _PAST)


def one_of_its_unit(facts: list[Fact], new: Fact, *, when: str) -> Fact | None:
    """The one earlier current user value of ``new``'s unit class that ``new`` (a user's
    plain statement whose key met none, ``when``: its sentence, where it says when it holds)
    may restate, or None (see the module's docstring)."""
    unit = new.key.rpartition("|")[2]
    if not when or not new.users or new.source != "user" or unit in _SAYS_NOTHING or \
            listed_unit(new) or family(new) in ("sentence", "question") or \
            another_thing(new, when):
        return None
    if sum(1 for f in facts if f.message_id == new.message_id and _unit(f) == unit) != 1:
        return None  # ("the bike is 9 kg and the trailer 14 kg": two things, a list)
    alike = [f for f in facts if f is not new and _unit(f) == unit and f.status != "forgotten"
             and f.users and f.source == "user" and f.message_id != new.message_id
             and (f.turn or 0, f.sequence) < (new.turn or 0, new.sequence)]
    if len(alike) != 1:
        return None
    old = alike[0]
    if old.status != "current" or old.pinned or old.source == "manual" or \
            old.value == new.value or family(old) != family(new) or kinds_differ(new, old) \
            or two_labels(new.key, old.key) or two_owners(new, old) or \
            (unit in _WHOSE and unrelated(new, old)):
        return None
    return old


# The nouns of a measure itself: a correction's key that names one ("the living area") may
# be the one measure of a thing named otherwise before ("the flat has 68 square meters").
_MEASURES = frozenset(("area", "size", "space", "footage", "length", "width", "height", "depth",
                       "volume", "capacity", "weight", "distance", "measurement", "dimensions"))


def measured(fact: Fact, sentence: str) -> bool:
    """A value of a measured unit class (a volume, a length, an area, a size: not a bare
    number, a name, a date or time, money, nor an activity's frequency) in a ``sentence``
    that says the user's own word was wrong ("I had it wrong", "typo", "I misread") and
    whose value's clause has no person as its subject (what someone does is an activity of
    its own): a correction of that unit whose key meets none possibly corrects the user's
    one such value so far, though the two statements share no word ("the flat has 68 square
    meters", then "the living area is 72 m², I had it wrong from the advertisement"). A
    change with no error ("the freezer is at -18°C now" after "the fridge is at 4°C") may be
    another thing's; ``fact_supersession`` asks it."""
    unit = _unit(fact)
    named = fact.key.split("|")[1].split() if fact.key.count("|") >= 1 else []
    if named and named[-1] not in _MEASURES:  # ("the balcony is 6 m²": another place's area)
        return False
    return bool(unit) and unit not in _SAYS_NOTHING and unit not in _WHOSE and \
        not listed_unit(fact) and admits(set(re.findall(r"[\w']+", sentence.lower()))) and \
        _PERSON.search(_clause_of(sentence, fact.value)) is None


def echoes_left_out(alike: list[Fact]) -> list[Fact]:
    """``alike`` without the assistant's keyless echoes of a user's value among them (the
    reply "68 m² with 3 rooms is a good size!" after "The flat has 68 square meters"): the
    same number of the same unit class is the user's one value, not a second key's."""
    users = {_number(f.value) for f in alike if f.users}
    return [f for f in alike if f.users or f.key.split("|")[:2] != ["", ""]
            or _number(f.value) not in users]


def _number(value: str) -> str:
    found = re.match(r"[-+~]?\d[\d.,]*", value)
    return found.group().rstrip(".,").replace(",", "") if found else value


def _unit(fact: Fact) -> str:
    return fact.key.rpartition("|")[2] if fact.key.count("|") == 2 else ""
