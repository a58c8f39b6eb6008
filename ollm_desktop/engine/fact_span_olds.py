"""An old value a change names as its own object or as the start of a bare "Y to X" (issue 28,
stop 43, real text).

``fact_change_olds.moved_olds`` reads the value of the thing a change moves before the verb
("the 3pm meeting moved to 4pm"). Commit titles and notices as often put the old value right
after the verb, with its noun, and the new one after "to": "fix 6GB RAM to 16GB RAM", "correct
the 8.1.4 release date 2025-10-09 to 2025-10-03", "bump Node 16 to 18". And a figure's change is
written without a verb, its words after it: "Funland: $15 to $30 — 100% increase". Read as two
values of one key both would stay current. Both shapes are read over a sentence's values (their
spans, finder kinds and unit classes), never over its words: Y and X of one kind and one unit
class, Y the verb's object (past a determiner), at most two plain words between Y and "to", and
no mark between; for the verbless shape, a noun of change after a dash or a comma ("— 100%
increase", ", a 25% rise"). A time's or a date's "Y to X" is as often a span ("open 9am to
2pm", "extended the hours Monday to Friday") and is left to the readers of moves.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ollm_desktop.engine.fact_words import closed, is_change

# The verbs that set a value right ("fix the port to 8081", "correct the year to 2016"), beside
# ``fact_words.CHANGE``'s verbs of change.
_SETTING = closed("fix fixed fixes fixing correct corrected corrects correcting swap swapped")
# Words that are no label of the verb's object: prepositions and pronouns ("increase it to",
# "moved from", "raised by").
_NOT_LABEL = closed("to from by for with of in on at it them this that me us")
# A figure's change named after it: "$15 to $30 — 100% increase".
_CHANGE_NOUN = re.compile(r"[—–,]\s*(?:an?\s+)?(?:\S+\s+)?(?:increase|decrease|rise|hike|jump|"
                          r"drop|cut|reduction)\b", re.IGNORECASE)
# Kinds whose "Y to X" is a span of the value itself, not a change.
_SPANS = closed("time date weekday duration")
_DETERMINERS = closed("the a an our my its their this that")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
# (the plain words between Y and "to": letters only, no mark, no value)
_PLAIN = re.compile(r"^(?:\s+[A-Za-z][A-Za-z'-]*){0,2}\s+to\s+(?:the\s+)?$", re.IGNORECASE)

Span = tuple[int, int, str, str]  # start, end, finder kind, unit class

# A value a participle of planning names before a change ("the concert scheduled for Estádio
# Serra Dourada on February 21 is being moved to Goiânia Arena"): where the thing was to be.
_PLANNED = re.compile(r"\b(?:scheduled|slated|planned|set|booked)\s+(?:for|at|in)\s+(?:the\s+)?$",
                      re.IGNORECASE)
# A change verb's "to"/"until" and the value it takes ("is being moved to Goiânia Arena").
_TO = re.compile(r"\b([A-Za-z]+)\s+(?:(?:back|up|forward|over)\s+)?(?:to|until)\s+(?:the\s+)?$",
                 re.IGNORECASE)


def span_olds(sentence: str, spans: Sequence[Span]) -> set[int]:
    """Indices of ``spans`` that are the old value of a "V Y … to X" or a "Y to X — increase"
    in ``sentence`` (see the module's docstring)."""
    olds: set[int] = set()
    for k in range(len(spans) - 1):
        start, end, kind, unit = spans[k]
        after, _, kind_after, unit_after = spans[k + 1]
        if kind != kind_after or unit != unit_after or \
                _PLAIN.match(sentence[end:after]) is None:
            continue
        if kind in _SPANS or unit in _SPANS:
            continue
        if _verb_before(sentence, start) or (
                sentence[end:after].strip().lower() == "to" and
                _CHANGE_NOUN.search(sentence, spans[k + 1][1]) is not None):
            olds.add(k)
    return olds | _planned_olds(sentence, spans)


def _planned_olds(sentence: str, spans: Sequence[Span]) -> set[int]:
    """The value a participle of planning names ("scheduled for Y") where a later change verb
    in its past participle moves its thing to a value of Y's kind and unit class ("… is being
    moved to X"); a value of another kind beside it ("on February 21") says when, and stays."""
    olds: set[int] = set()
    for k, (start, end, kind, unit) in enumerate(spans):
        if _PLANNED.search(sentence, 0, start) is None:
            continue
        for later in spans[k + 1:]:
            verb = _TO.search(sentence[end:later[0]])
            if later[2:] == (kind, unit) and verb is not None and verb.group(1).endswith(
                    "ed") and is_change(verb.group(1).lower()) and \
                    not re.search(r"[.;!?]", sentence[end:later[0]]):  # ("covers the move to")
                olds.add(k)
    return olds


def _verb_before(sentence: str, start: int) -> bool:
    """A verb of change or of setting right stands before the value at ``start`` in its
    clause, with at most a determiner and two label words between ("fix 6GB RAM", "increase
    the swap 2GB", "we bumped Node 16")."""
    clause = re.split(r"[.;:!?,()—–]", sentence[:start])[-1]
    words = [w.lower() for w in _WORD.findall(clause)][-4:]
    if not words or words[-1] in _NOT_LABEL:
        return False
    # the verb, then at most a determiner and two words of its object's label ("fix the
    # timeout 30s to 60s"), no preposition among them ("add 2GB to the disk" is none)
    for at in range(len(words) - 1, -1, -1):
        if is_change(words[at]) or words[at] in _SETTING:
            label = [w for w in words[at + 1:] if w not in _DETERMINERS]
            return len(label) <= 2 and not set(label) & _NOT_LABEL
    return False
