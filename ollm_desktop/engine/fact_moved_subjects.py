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
    AUXILIARIES,
    CONJUNCTIONS,
    COPULAS,
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
# a change said not to happen moves nothing ("has not been moved to Sunday")
_NEGATION = frozenset({"not", "never", "no"})
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
    conjunction, subordinator, negation or other subject (a pronoun), and a comma only before
    another value (an apposition)."""
    if end > verb:
        return True  # (in the object: "_object_of" reads it)
    between = sentence[end:verb]
    if _BREAK.search(between) or "n't" in between.lower() or any(
            w.lower() in _OPENERS or w.lower() in PRONOUNS or w.lower() in _NEGATION
            for w in _WORD.findall(between)):
        return False  # ("at 3pm we moved the call to 4pm": when, not which call)
    for comma in re.finditer(",", between):
        after = end + comma.end()
        after += len(sentence[after:]) - len(sentence[after:].lstrip())
        if not any(s == after for s, _, _ in spans):
            return False
    return start < end


# the words that end a subject and open its predicate (an auxiliary, a copula, "now")
_PREDICATE = AUXILIARIES | COPULAS | frozenset({"now", "has", "have", "had", "instead"})
# what stands right before a predicate's value that says where or what the thing is now
_PLACING = frozenset({"at", "on", "to", "by", "until", "now", "is", "be", "becomes", "become"})


def restated_subject_olds(sentence: str, spans: Sequence[tuple[int, int, str]]) -> set[int]:
    """Indices of ``spans`` that a correction's subject names its thing by, where its
    predicate gives that thing another value of the same kind: "the planned 3pm departure
    will instead leave at 4pm", "the return sailing, originally set to leave at 7.15pm, will
    leave at 8pm", "our 2 GB plan is now 4 GB". The value stands in the subject (no
    predicate word before it in its clause), a predicate word follows it (an auxiliary, a
    copula, "now"; after a comma only when that word opens what follows: the subject's
    parenthesis closed), and the new value follows "at"/"on"/"to"/"now" or a copula."""
    olds: set[int] = set()
    for index, (start, end, kind) in enumerate(spans):
        if kind not in _PLACED or index in olds:
            continue
        later = next((k for k in range(index + 1, len(spans)) if spans[k][2] == kind), None)
        if later is None or not _in_subject(sentence, start) or \
                not _predicate_between(sentence, end, spans[later][0]):
            continue
        before = _WORD.findall(sentence[:spans[later][0]])[-1:]
        if before and before[0].lower() in _PLACING:
            olds.add(index)
    return olds


def _in_subject(sentence: str, start: int) -> bool:
    """No predicate word, pronoun or clause opener between the clause's start and ``start``
    (the clause starts after the last mark of a break or a comma)."""
    head = sentence[:start]
    cut = max((m.end() for m in re.finditer(r"[,;:.!?()—–]", head)), default=0)
    words = [w.lower() for w in _WORD.findall(head[cut:])]
    return not any(w in _PREDICATE or w in PRONOUNS or w in _OPENERS for w in words)


def _predicate_between(sentence: str, end: int, start: int) -> bool:
    """Between the subject's value and the new one: a predicate word, no sentence break, no
    clause opener, negation or pronoun, and a comma only right before a predicate word."""
    between = sentence[end:start]
    if re.search(r"[;:.!?()—–]", between):
        return False
    words = [w.lower() for w in _WORD.findall(between)]
    if "n't" in between.lower() or any(w in _OPENERS or w in PRONOUNS or w in _NEGATION
                                       for w in words):
        return False
    for comma in re.finditer(",", between):
        after = _WORD.findall(between[comma.end():])[:1]
        if not after or after[0].lower() not in _PREDICATE:
            return False
    return any(w in _PREDICATE for w in words)
