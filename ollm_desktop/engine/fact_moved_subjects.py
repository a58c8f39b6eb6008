"""The value that names what a change moves is its old value: "the launch on March 3 has been
moved to March 10", "the 3pm call moves to 4pm", "we pushed the 2 GB volume up to 4 GB".

A change verb's "to X" says where its thing goes; a value of X's own kind inside the thing's
noun phrase (before the verb as its subject, or between the verb and "to" as its object)
says which thing, by where it stood: March 3 is the launch's old date. Read as two values of
one key in one sentence, both stayed current, and the change replaced nothing. Only a value of
X's kind, and not a name ("the Berlin team moved to Paris": Berlin may be who, not where),
in the same clause (no clause break between it and the verb; an apposition of two values,
"Friday, September 4th", is one phrase).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ollm_desktop.engine.fact_words import (
    CONJUNCTIONS,
    DETERMINERS,
    PARTICLES,
    PRONOUNS,
    is_change,
)

_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_BREAK = re.compile(r"[;:.!?()—–]")
# what opens a clause inside a sentence: its words end a noun phrase too
_OPENERS = CONJUNCTIONS | frozenset({"because", "since", "which", "that", "while", "when",
                                     "if", "unless", "after", "before", "until"})
# kinds of value a thing's noun phrase names it by where it stood
_PLACED = frozenset({"time", "date", "number", "port", "version", "money", "duration", "size",
                     "percent"})


def moved_olds(sentence: str, spans: Sequence[tuple[int, int, str]]) -> set[int]:
    """Indices of ``spans`` (start, end, ref_kind; in sentence order) that a change verb's
    "to X" in ``sentence`` moves away from (see the module's docstring)."""
    olds: set[int] = set()
    for verb in _WORD.finditer(sentence):
        if not is_change(verb.group(0).lower()):
            continue
        target = _target(sentence, verb.end(), spans)
        if target is None:
            continue
        kind = spans[target][2]
        for index, (start, end, ref_kind) in enumerate(spans[:target]):
            if ref_kind == kind and kind in _PLACED and \
                    _one_phrase(sentence, end, verb.start(), start, spans) and \
                    (end <= verb.start() or _object_of(sentence, verb.end(), start)):
                olds.add(index)
    return olds


def _target(sentence: str, after: int, spans: Sequence[tuple[int, int, str]]) -> int | None:
    """The value right after the verb's "to" (past a particle and a determiner): "moved up to
    noon", "pushed to the 21st"; or, for a verb with an object, after "to" in its clause."""
    words = [(m.group(0).lower(), m.end()) for m in _WORD.finditer(sentence, after)]
    at = 0
    while at < len(words) and words[at][0] in PARTICLES:
        at += 1
    if at >= len(words) or words[at][0] != "to":
        to = next((k for k, (w, _) in enumerate(words[:8]) if w == "to"), None)
        if to is None or _BREAK.search(sentence, after, words[to][1]) is not None:
            return None
        at = to
    end = words[at][1]
    rest = sentence[end:]
    skipped = len(rest) - len(rest.lstrip())
    for word in ("the ", "a "):
        if rest.lstrip().lower().startswith(word):
            skipped += len(word)
    return next((k for k, (start, _, _) in enumerate(spans) if start == end + skipped), None)


def _object_of(sentence: str, verb_end: int, start: int) -> bool:
    """A value between the verb and its "to" is in the verb's object ("moved the 3pm call
    to"): the words before it are determiners or other values only."""
    words = [w.lower() for w in _WORD.findall(sentence[verb_end:start])]
    return all(w in DETERMINERS or w in PARTICLES for w in words)


def _one_phrase(sentence: str, end: int, verb: int, start: int,
                spans: Sequence[tuple[int, int, str]]) -> bool:
    """No clause break between a value before the verb and the verb: no sentence mark, no
    conjunction, subordinator or other subject (a pronoun), and a comma only before another
    value (an apposition)."""
    if end > verb:
        return True  # (in the object: "_object_of" reads it)
    between = sentence[end:verb]
    if _BREAK.search(between) or any(w.lower() in _OPENERS or w.lower() in PRONOUNS
                                     for w in _WORD.findall(between)):
        return False  # ("at 3pm we moved the call to 4pm": when, not which call)
    for comma in re.finditer(",", between):
        after = end + comma.end()
        after += len(sentence[after:]) - len(sentence[after:].lstrip())
        if not any(s == after for s, _, _ in spans):
            return False
    return start < end
