"""Who stated what, and where: the facts of one message, found by code.

Each fact records its source (the user, the assistant), the message id and the turn, so that
what the user stated outranks what a small model made up. Found per sentence:

- identifiers and numbers with units (``references``), plus ``NAME=value`` settings with their
  value and bare numbers after "is" ("the port is 8443");
- names the user defines ("let's call the staging server bluefin");
- decisions ("we decided", "let's go with", "switch to") and corrections ("actually", "not X
  but Y", "moved to", "is superseded") without a value of their own, as their sentence.

In a correction, a value marked as the old one ("port 7443 is no longer used", "instead of
v2.1") is returned as ``old``: it names what the sentence replaces and is not a fact itself.
Pure and bounded: a few regular expressions per sentence, no model.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ollm_desktop.engine import fact_patterns as P
from ollm_desktop.engine.fact_types import FactKind
from ollm_desktop.engine.references import find_references

NUMBER_KINDS = frozenset({"number", "date", "time"})


@dataclass(frozen=True, slots=True)
class Found:
    """One fact of a sentence, before it becomes a ledger entry."""

    kind: FactKind
    value: str
    subject: str
    ref_kind: str  # the finder's kind, or the sentence kind for sentences
    correction: bool  # its sentence corrects something
    old: bool = False  # in a correction: the value being replaced (not a fact itself)
    sentence: int = 0  # which sentence of the message it came from


def _values(sentence: str) -> list[tuple[int, int, str, str]]:
    """(start, end, value, ref kind) of the sentence's values, in order, settings first-class."""
    found: list[tuple[int, int, str, str]] = []
    taken: list[tuple[int, int]] = []
    for match in P.SETTING.finditer(sentence):
        value = match.group(0).rstrip(".,:;!?)")  # the sentence's end is not the value's
        found.append((match.start(), match.start() + len(value), value, "setting"))
        taken.append((match.start(), match.start() + len(value)))
    cursor = 0
    for ref, kind in find_references(sentence):
        start = sentence.find(ref.rstrip("()") if ref.endswith("()") else ref, cursor)
        if start < 0:
            start = sentence.find(ref.rstrip("()"))
        if start < 0:
            continue
        end = start + len(ref)
        cursor = start
        if any(a <= start < b or a < end <= b for a, b in taken):
            continue  # the NAME of a NAME=value
        found.append((start, end, ref, kind))
        taken.append((start, end))
    for match in P.BARE_VALUE.finditer(sentence):
        start, end = match.span(1)
        if not any(a <= start < b for a, b in taken):
            port = P.subject_words(sentence[:start]).endswith("port")
            found.append((start, end, match.group(1), "port" if port else "number"))
            taken.append((start, end))
    return sorted(found)


def _blank(sentence: str, values: list[tuple[int, int, str, str]]) -> str:
    """The sentence with its values blanked out (they are no subject words)."""
    chars = list(sentence)
    for start, end, _, _ in values:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def _kind(ref_kind: str) -> FactKind:
    if ref_kind == "setting":
        return "setting"
    if ref_kind == "name":
        return "name"
    return "number" if ref_kind in NUMBER_KINDS else "identifier"


def sentence_facts(sentence: str) -> list[Found]:
    correction = bool(P.CORRECTION.search(sentence))
    values = _values(sentence)
    plain = _blank(sentence, values)
    out: list[Found] = []
    floor = 0
    for start, end, value, ref_kind in values:
        subject = (value.split("=", 1)[0].lower() if ref_kind == "setting"
                   else P.subject_words(plain[:start]))
        old = correction and P.is_old(sentence, start, end, floor)
        out.append(Found(_kind(ref_kind), value, subject, ref_kind, correction, old))
        floor = end
    if P.QUESTION.search(sentence):
        return [f for f in out if not f.old] if correction else out
    decision = bool(P.DECISION.search(sentence))
    if decision and not correction:  # the decision is the clause, not a name inside it
        clipped = P.clip_words(sentence)
        kept = [f for f in out if f.kind == "setting" or f.value not in clipped]
        return [Found("decision", clipped, P.subject_words(plain), "decision", False), *kept]
    if correction and not any(not f.old and f.kind != "name" for f in out):
        out.append(Found("correction", P.clip_words(sentence), P.subject_words(plain),
                         "correction", correction))
    return out


def message_facts(content: str) -> list[Found]:
    """Every fact of a message's text, in order (sentences without a fact give none)."""
    out: list[Found] = []
    for number, sentence in enumerate(P.sentences(content)):
        out.extend(replace(f, sentence=number) for f in sentence_facts(sentence))
    return out


# Words without which no correction cue matches: a plain substring test on every new message
# (the engine's per-turn cost), the full patterns only when one is there.
_CUE_WORDS = ("correct", "actual", "update", "instead", "rather", "longer", "not", "supersed",
              "replace", "chang", "moved", "switch", "scratch", "more", "wrong", "outdat",
              "obsolet", "now", "bump", "grade", "migrat", "typo", "meant", "earlier", "went",
              "raised", "lowered", "creased", "reduced", "cut", "dropped", "second")


def may_correct(content: str) -> bool:
    """Cheap test run on every new message: could it replace a fact already kept?"""
    if "=" in content and P.SETTING.search(content):
        return True
    lower = content.lower()
    return any(word in lower for word in _CUE_WORDS) and bool(P.CORRECTION.search(content))
