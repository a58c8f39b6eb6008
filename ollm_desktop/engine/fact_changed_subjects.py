"""A value inside the subject of its own change is the old value: "the 3pm meeting has been
moved to 4pm", "Ferry cargo operations for Friday, September 4th has been changed to Thursday,
September 3rd", "the Sunday game will move to Monday", "port 8080 was changed to 8081".

The shape is "[the K of] Y [aux…] V [particle] to X": a value Y, a few words with no value and
no clause boundary between it and a change verb (auxiliaries, the key's noun), the verb's "to"
and a value X of Y's kind. Y names which thing moved; X is where it moved to. Only values that
can be moved along one scale count (a time, a date, a count in one unit, a version): "Alice's
team moved to Berlin" keeps Alice, a name of another thing. A negation between Y and the verb
("has not been moved to") changes nothing. Read by ``fact_old_values.is_old``.

A name renamed is the same shape with "is now": "Maple Street Primary School, which opened in
1990, is now Maple Street Academy": a name that opens its clause, a relative clause between
commas or none, "is/are now" and a name that shares one of its words (a new name of the same
thing keeps part of the old: "Alice, who led QA, is now Head of Design" shares none and keeps
Alice).
"""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_words import (
    BOUNDARY,
    DETERMINERS,
    PARTICLES,
    Tok,
    closed,
    is_change,
)

_SCALAR = frozenset({"time", "date", "version"})
_NEGATION = closed("not never no n't nor")
_MOST_BETWEEN = 6  # words between Y and its verb: "for … has been", "meeting will be"
_UNIT = re.compile(r"([$€£¥]?)[\d.,]+\s*(.*)")


def moved_subject(tokens: list[Tok], i: int) -> bool:
    """Whether the value at ``i`` is Y of "Y [aux…] V to X" (see the module's docstring)."""
    value = tokens[i].value
    if value is None or _valued_before(tokens, i):
        return False
    for k in range(i + 1, min(len(tokens), i + 2 + _MOST_BETWEEN)):
        token = tokens[k]
        if token.value is not None or token.word in BOUNDARY or token.word in _NEGATION or \
                token.word in ("to", "from"):
            return False
        if (is_change(token.word) or _done_again(tokens, i, token.word)) and \
                _to_same_kind(tokens, k + 1, value):
            return True  # (past a change with no "to": "was cancelled and rescheduled to X")
    return False


def _valued_before(tokens: list[Tok], i: int) -> bool:
    """Another value before Y in its clause ("the 5k race on Sunday has been moved to
    Saturday"): the subject holds two values, and which one the change replaces is no longer
    the one value of the subject, so Y is left as it was read."""
    for k in range(i - 1, -1, -1):
        if tokens[k].word in BOUNDARY:
            return False
        if tokens[k].value is not None:
            return True
    return False


def renamed_subject(tokens: list[Tok], i: int) -> bool:
    """Whether the name at ``i`` is Y of "Y[, which …,] is now X" with X a name sharing a word
    with Y (see the module's docstring)."""
    value = tokens[i].value
    opener = i - 1 if i == 1 and tokens[0].word.isalpha() and not tokens[0].value else i
    if value is None or value[3] != "name" or (  # (the sentence's capitalised first word
            opener > 0 and tokens[opener - 1].word not in BOUNDARY and  # stands apart:
            tokens[opener - 1].word not in DETERMINERS):  # "maple" + "Street Primary School")
        return False
    at = i + 1
    if at + 1 < len(tokens) and tokens[at].word == "," and tokens[at + 1].word in _RELATIVE:
        at = next((k + 1 for k in range(at + 2, len(tokens)) if tokens[k].word == ","), 0)
    if not 0 < at < len(tokens) - 2 or tokens[at].word not in ("is", "are") or \
            tokens[at + 1].word != "now":
        return False
    new = tokens[at + 2].value
    return new is not None and new[3] == "name" and bool(
        {w.lower() for w in value[2].split()} & {w.lower() for w in new[2].split()}) and \
        opener in (0, i)


_RELATIVE = closed("which who that")


def _done_again(tokens: list[Tok], i: int, word: str) -> bool:
    """A verb that redoes the one Y was the object of: "scheduled for Monday … rescheduled
    to Wednesday", "booked for the 3rd, rebooked for the 5th": "re" and a verb said before Y
    in its clause."""
    done = word.removeprefix("re").removeprefix("-")
    if done == word or len(done) < 4:
        return False
    for k in range(i - 1, -1, -1):
        if tokens[k].word in BOUNDARY:
            return False
        if tokens[k].word == done:
            return True
    return False


def _to_same_kind(tokens: list[Tok], at: int, value: tuple[int, int, str, str]) -> bool:
    """After a change verb at ``at - 1``: particles, "to", determiners, then a value of
    ``value``'s kind."""
    while at < len(tokens) and tokens[at].word in PARTICLES:
        at += 1  # "moved up to noon", "pushed back to Friday"
    if at >= len(tokens) or tokens[at].word != "to":
        return False
    at += 1
    while at < len(tokens) and tokens[at].word in DETERMINERS:
        at += 1
    target = tokens[at].value if at < len(tokens) else None
    return target is not None and _same_scale(value, target)


def _same_scale(old: tuple[int, int, str, str], new: tuple[int, int, str, str]) -> bool:
    """Two values on one scale: both times, dates or versions, or numbers in one unit
    ("5 GB" and "10 GB", "$2.35" and "$2.45", "8080" and "8081"; not "5 servers" and
    "3 racks")."""
    if old[3] != new[3] or old[3] not in (*_SCALAR, "number", "port"):
        return False
    if old[3] in _SCALAR:
        return True
    units = [_UNIT.fullmatch(text) for text in (old[2], new[2])]
    return units[0] is not None and units[1] is not None and \
        units[0].group(1, 2) == units[1].group(1, 2)
