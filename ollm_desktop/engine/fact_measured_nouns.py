"""A measured value followed by its noun is that noun's: "8gb ram and 50gb disk", "a VPS with
16 GB RAM", "2 cups flour, 1 cup sugar".

In a list of measured things the unit comes first and the thing it measures after it, so
the words *before* the value ("I have", "and") name no key. Reading them gave the disk's
50gb the key of the RAM before it ("have ram"), and "upgraded the disk to 100gb" then
replaced nothing. The shape is closed: the value carries its unit (a figure alone, "3
kids", is a count whose noun is its own unit), it stands where a list item begins (the
clause's start, a conjunction, a comma, or a verb of having), and its noun is one word that
ends the noun phrase (a boundary, a conjunction, a preposition or the sentence's end after it).
Whose the thing is, the subject of the verb of having says ("the prod server has 32gb ram":
the prod server's RAM, not the staging server's; "I have": no owner).
"""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_keys import noun_phrase, phrase_before, singular
from ollm_desktop.engine.fact_words import (
    AUXILIARIES,
    BOUNDARY,
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    NOT_NP,
    PARTICLES,
    PREPOSITIONS,
    Tok,
    closed,
)

_HAVING = closed("has have had got gets need needs")
# Where a list item of measured things begins: a conjunction or a comma (``BOUNDARY``), or a
# verb of having or needing ("has 8gb ram", "with 16 GB RAM", "needs 2 cups flour").
_OPENERS = CONJUNCTIONS | _HAVING | closed("with plus")
# Adverbs that may close the item ("give it 8gb memory instead", "has 64gb ram now").
_CLOSING = closed("instead now too then also today please")
# Verbs that give a thing its measure: "give the container 8gb memory", "allocate the VM 4 GB RAM".
_GIVING = closed("give gives gave giving allocate allocates allocated assign assigns assigned")
# Words after a unit that are no noun of their own: time and degree ("5 minutes early").
_NOT_NOUNS = closed("early late ago later earlier long old tall wide deep high each total "
                    "more less left extra max min free")


def measured_noun(tokens: list[Tok], i: int, start: int) -> tuple[str, str] | None:
    """(owner, noun) for the measured value at ``i`` whose noun follows it, else None."""
    value = tokens[i].value
    if value is None or value[3] != "number" or not _has_unit(value[2]):
        return None
    given = _given_to(tokens, i, start)
    if i > start and tokens[i - 1].word not in _OPENERS and tokens[i - 1].word not in BOUNDARY \
            and given is None:
        return None
    if i + 1 >= len(tokens) or tokens[i + 1].value is not None:
        return None
    noun = tokens[i + 1].word
    if not noun.isalpha() or len(noun) < 2 or noun in _NOT_NOUNS or noun in NOT_NP or \
            noun in PREPOSITIONS or noun in DETERMINERS or noun in CONJUNCTIONS or \
            noun in COPULAS or noun in AUXILIARIES or noun in PARTICLES:
        return None
    after = tokens[i + 2].word if i + 2 < len(tokens) else "."
    if tokens[i + 2:i + 3] and tokens[i + 2].value is not None:
        return None
    if after not in BOUNDARY and after not in CONJUNCTIONS and after not in PREPOSITIONS and \
            after not in _CLOSING:
        return None
    return (given if given is not None else _owner(tokens, i, start)), singular(noun)


def _has_unit(text: str) -> bool:
    """A figure with letters of a unit after it ("8gb", "16 GB", "2 cups"), not a name."""
    head = text.lstrip("$€£¥~≈")
    return bool(head[:1].isdigit()) and any(c.isalpha() for c in head)


def _owner(tokens: list[Tok], i: int, start: int) -> str:
    """The noun phrase before the clause's verb of having, if it is no pronoun."""
    verb = next((k for k in range(i - 1, start - 1, -1) if tokens[k].word in _HAVING), None)
    if verb is None:
        return ""
    entity, attribute = noun_phrase(phrase_before(tokens, verb, start))
    return " ".join(w for w in (entity, attribute) if w)


def _given_to(tokens: list[Tok], i: int, start: int) -> str | None:
    """The receiver of a verb of giving right before the value ("give the container 8gb
    memory": the container), else None."""
    verb = next((k for k in range(i - 1, max(start, i - 5) - 1, -1)
                 if tokens[k].word in _GIVING), None)
    if verb is None or any(t.value is not None for t in tokens[verb + 1:i]):
        return None
    words = [t.word for t in tokens[verb + 1:i] if t.word not in DETERMINERS]
    if not words or len(words) > 3 or not all(w.isalpha() and w not in NOT_NP for w in words):
        return None
    entity, attribute = noun_phrase(words)
    return " ".join(w for w in (entity, attribute) if w)


# A rate read whole with what it holds ("3 cups of coffee a day", "2 bags of ice a week"):
# the words after "of" are its owner, as they were when the rate's amount stood alone.
_RATE_OF = re.compile(r"\sof\s([a-z'-]+\s(?:a|an|per|each|every)\s[a-z]+)$", re.I)


def rate_held(tokens: list[Tok], i: int) -> tuple[str, str] | None:
    """(owner, attribute) of the rate at ``i`` that holds a thing ("3 cups of coffee a day":
    coffee's, per day, so "1 cup of coffee a day now" meets it), else None."""
    value = tokens[i].value
    held = _RATE_OF.search(value[2]) if value is not None and value[3] == "number" else None
    if held is None:
        return None
    return noun_phrase([singular(w.lower()) for w in held[1].split()
                        if w.lower() not in DETERMINERS])
