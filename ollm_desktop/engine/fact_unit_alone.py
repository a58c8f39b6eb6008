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
"I sleep 7 hours") is an activity of its own. ``fact_restatement`` calls
it where no other reading found the key (a correction's reading of the one value of a unit
is ``fact_supersession``'s own).
"""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_dotted_initials import sentences_once
from ollm_desktop.engine.fact_key_labels import two_labels
from ollm_desktop.engine.fact_key_match import ANY_KIND, family, kinds_differ, listed_unit
from ollm_desktop.engine.fact_topics import two_owners, unrelated
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.provenance import MAX_FACT_TEXT

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


def timed(content: str, sentence: int) -> bool:
    """The message's sentence ``sentence`` (as ``provenance`` counts them) says when its value
    holds ("odometer says 146,200 km as of today", "after the split it has 5 frames"), and
    no person is its subject ("these days I work 9 hours", "today I walked 30 minutes": what
    someone does, an activity of its own)."""
    sentences = sentences_once(content[:MAX_FACT_TEXT])
    return 0 <= sentence < len(sentences) and bool(_WHEN.search(sentences[sentence])) and \
        _PERSON.search(sentences[sentence]) is None


def one_of_its_unit(facts: list[Fact], new: Fact, *, when: bool) -> Fact | None:
    """The one earlier current user value of ``new``'s unit class that ``new`` (a user's
    plain statement whose key met none, ``when``: its sentence says when it holds) may
    restate, or None (see the module's docstring)."""
    unit = new.key.rpartition("|")[2]
    if not when or not new.users or new.source != "user" or unit in _SAYS_NOTHING or \
            listed_unit(new) or family(new) in ("sentence", "question"):
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


def _unit(fact: Fact) -> str:
    return fact.key.rpartition("|")[2] if fact.key.count("|") == 2 else ""
