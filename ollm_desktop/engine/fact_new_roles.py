"""A value named as a key's new holder: "VALUE is / will be the new K (for/of OWNER)".

"Newark Showground will be the new venue for The Big Weekend 2024", "Jane Doe is our new
treasurer", "18 is the new minimum Node version". The value is the clause's subject and the
predicate's noun phrase is its key (its head noun the attribute, the words before it and the
owner after "for"/"of" the entity); "new" says the value takes the key over from whatever held
it, so the sentence restates the key with another value: a correction of it, whatever words
the earlier statement used (``fact_supersession`` decides which earlier value has that key).
Only the statement's own structure reads so: a question ("Is Jane the new treasurer?"), a
modal ("Oakwood could be the new venue") or a condition ("if ... is the new venue") has no
subject-copula-"the new" order or no statement mood, and replaces nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ollm_desktop.engine.fact_words import DETERMINERS

# The copula of a present or future statement, then a determiner and "new" (a closed class:
# the verbs that say what the subject is, not what it might be).
_NEW_ROLE = re.compile(
    r"\s+(?:is|are|will\s+be|becomes|has\s+become|is\s+now)\s+(?:the|our|their|its|your|my)"
    r"\s+new\s+(?P<phrase>[^,;:.!?()]+?)\s*(?=[,;:.!?()]|$)", re.IGNORECASE)
# A capitalised name ending where the copula starts ("Newark Showground", "Jane Doe").
_NAME_BEFORE = re.compile(r"(?:\b[A-Z][\w&'.-]*(?:\s+(?:of|de|la|the|&)?\s*[A-Z0-9][\w&'.-]*)*)$")
_OWNER = re.compile(r"\s+(?:for|of)\s+", re.IGNORECASE)
MAX_KEY_WORDS = 5


@dataclass(frozen=True)
class NewRole:
    """A value the sentence names as a key's new holder: where it is, and the key's words."""

    start: int
    end: int
    entity: str
    attribute: str
    phrase_start: int
    phrase_end: int


def new_role(sentence: str, values: list[tuple[int, int]]) -> NewRole | None:
    """The value "VALUE is the new K (for OWNER)" names as K's new holder: a value read
    (``values``: where each starts and ends) that ends where the copula starts, else the
    capitalised name there."""
    for match in _NEW_ROLE.finditer(sentence):
        head = sentence[:match.start()]
        span = next(((a, b) for a, b in values if b == len(head.rstrip())), None)
        if span is None:
            name = _NAME_BEFORE.search(head.rstrip())
            if name is None or (name.start() == 0 and name.group(0).split()[0] in _OPENERS):
                continue
            span = (name.start(), name.end())
        key = _key_words(match.group("phrase"))
        if key is not None:
            return NewRole(*span, *key, match.start("phrase"), match.end("phrase"))
    return None


# A capitalised first word that is no name's: a clause's opener.
_OPENERS = frozenset({"It", "This", "That", "There", "He", "She", "They", "We", "I", "You"})


def _key_words(phrase: str) -> tuple[str, str] | None:
    """(entity, attribute) of "minimum Node version" (minimum node, version) or "venue for
    The Big Weekend 2024" (big weekend 2024, venue)."""
    noun, _, owner = (p.strip() for p in _split_owner(phrase))
    words = [w.lower() for w in noun.split() if w.lower() not in DETERMINERS]
    owner_words = [w.lower() for w in owner.split() if w.lower() not in DETERMINERS]
    if not words or len(words) + len(owner_words) > MAX_KEY_WORDS or \
            not all(w.replace("-", "").isalnum() for w in words + owner_words):
        return None
    return " ".join([*owner_words, *words[:-1]]), words[-1]


def _split_owner(phrase: str) -> tuple[str, str, str]:
    found = _OWNER.search(phrase)
    if found is None:
        return phrase, "", ""
    return phrase[:found.start()], found.group(0), phrase[found.end():]
