"""Errata said of a text, in words, with bare figures (issue 28, stop 47).

A report of a wrong figure in a document names the wrong one first and the right one second
as often as the other way round, and its "instead of" points the other way from a change's:
"the date is listed as March 22, 2017 instead of 2018" (the text shows 2017, 2018 is right),
"2.13.0 was written as 2.13.10 in the guide" (2.13.0 is right), "It said 22.0.* when it should
have been 23.0.*", "Version 1.4 is mentioned in the first sentence, while 1.6 should get
mentioned". ``fact_quoted_errata`` reads such shapes between quoted texts; here the values are
the sentence's figures (the finder's values, and bare numbers or versions it left as words),
and the structure between them says which is old:

- "Y is (listed | written | shown | printed | given | …) as Y' instead of X", and a text's own
  verb with "as", "lists / shows (K) as Y instead of X": Y is what the text shows, X the right
  value ("the protocol says 7.2 instead of 7.4", with no "as", is the text's own correction:
  7.2 is right);
- "X was (written | typed | spelled | listed | printed | …) as Y": X is what was meant;
- "Y … when / where / while / whereas / but it should (have been | be | read | say) X", and
  "Y …, while X should (be | get | have been) V-ed": X is what the text ought to show.

A question or a hedge ("Should it say 2.1 instead of 2.0?", "maybe it was written as 2.1")
corrects nothing and is left as read, as is every sentence without these shapes.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ollm_desktop.engine.provenance import Found

# A bare figure the finder may leave as words: a number, a version ("22.0.*", "v1.6"), a year.
_FIGURE = re.compile(r"(?<![\w.])[vV]?\d+(?:\.\d+)*(?:\.\*|\.x)?(?![\w])")
_SHOWN = r"(?:listed|written|shown|printed|given|stated|documented|spelled|spelt|typed|" \
         r"mentioned|displayed|labell?ed|marked|entered|quoted|noted|recorded|mistyped|" \
         r"misspelled|misprinted)"
_ADVERB = r"(?:(?:wrongly|incorrectly|mistakenly|erroneously|accidentally|still)\s+)?"
_TEXT_VERB = r"(?:says?|said|reads?|lists?|listed|shows?|showed|states?|stated|mentions?|" \
             r"mentioned|displays?|displayed|has|had)"
_MODAL = r"(?:should|must|ought\s+to|needs?\s+to)"
# (old, new) as the groups say
_SHAPES = (
    re.compile(rf"\b(?:is|are|was|were|been|be|got)\s+{_ADVERB}{_SHOWN}\s+as\s+"
               rf"V(?P<o>\d+)\s*,?\s+instead\s+of\s+V(?P<n>\d+)", re.I),
    re.compile(rf"\b{_TEXT_VERB}\s+(?:(?:the|a|an)\s+)?(?:\w+\s+){{0,2}}?as\s+"
               rf"V(?P<o>\d+)\s*,?\s+instead\s+of\s+V(?P<n>\d+)", re.I),
    re.compile(rf"V(?P<n>\d+)\s+(?:is|are|was|were|got)\s+{_ADVERB}{_SHOWN}\s+as\s+"
               rf"V(?P<o>\d+)", re.I),
    re.compile(rf"V(?P<o>\d+)\b[^V.;!?]{{0,60}}?\b(?:when|where|while|whereas|but)\s+"
               rf"(?:it|this|that|they)\s+{_MODAL}\s+(?:have\s+been|be|read|say)\s+"
               rf"(?:(?:the|a|an)\s+)?(?:\w+\s+)?V(?P<n>\d+)", re.I),
    re.compile(rf"V(?P<o>\d+)\b[^V.;!?]{{0,60}}?,?\s*\b(?:while|whereas|but)\s+"
               rf"(?:(?:the|a|an)\s+)?(?:[A-Za-z]+\s+)?V(?P<n>\d+)\s+{_MODAL}\s+"
               rf"(?:have\s+been|be|get)\s+{_SHOWN}\b", re.I),
)
# A text set right on purpose, or by the speaker ("The rent is now listed as 1300 instead of
# 1200", "the revised invoice lists …", "We listed the car as 9500 instead of 9000", "The
# manual should list …", "Please check whether …"): an update or a wish, no erratum.
_UPDATE = re.compile(r"\b(?:now|new|newer|updated|revised|amended|corrected|latest version|"
                     r"we|i|let'?s|please|should|must|will|would|could|whether|not sure)\b",
                     re.I)
_UNSURE = re.compile(r"\?|^\s*(?:maybe|perhaps|what\s+if|if|i\s+(?:think|guess|wonder)|"
                     r"could|would|how\s+about)\b", re.I)


def bare_errata(found: list[Found], sentence: str, number: int) -> list[Found]:
    """``found`` (the facts of ``sentence``, its number ``number``) with the two figures of
    an erratum read as its old and its new value (see the module's docstring); as it is
    otherwise."""
    if not found or _UNSURE.search(sentence) or not re.search(r"\d", sentence):
        return found
    spans: list[tuple[int, int, Found | None]] = []
    for fact in found:
        at = sentence.find(fact.value)
        if fact.kind in ("decision", "correction") or at < 0:
            continue
        end = at + len(fact.value)
        inner = _FIGURE.search(sentence, at, end) if fact.kind == "name" else None
        if inner is not None:  # "been 23.0": a name the finder made of a word and a figure
            at, end = inner.span()
        spans.append((at, end + 2 * (sentence[end:end + 2] == ".*"),  # "22.0.*"
                      None if inner is not None else fact))
    spans.sort(key=lambda s: s[0])
    spans += _figures_left(sentence, spans)
    spans.sort(key=lambda s: s[0])
    placed, last = [], 0
    for index, (start, end, _) in enumerate(spans):
        if start < last:
            return found  # two facts overlap: read as it is
        placed += [sentence[last:start], f"V{index}"]
        last = end
    shaped = "".join([*placed, sentence[last:]])
    for shape, pattern in enumerate(_SHAPES):
        for match in pattern.finditer(shaped):
            if shape < 2 and _UPDATE.search(shaped, 0, match.start() + 1):
                continue  # (the shapes of "as Y instead of X": see _UPDATE)
            old, new = spans[int(match.group("o"))], spans[int(match.group("n"))]
            if _alike(sentence, old, new):
                return _read(found, sentence, number, old, new)
    return found


def _figures_left(sentence: str, spans: list[tuple[int, int, Found | None]]) \
        -> list[tuple[int, int, Found | None]]:
    """The figures no span (sorted by start) covers, in one pass over both: the spans that
    start before a figure ends only grow as the figures go on, so the furthest end among them
    says whether one overlaps it (linear in the sentence, where a scan of every span for every
    figure was quadratic: "9-5 " five thousand times took seconds)."""
    left: list[tuple[int, int, Found | None]] = []
    at, furthest = 0, -1
    for match in _FIGURE.finditer(sentence):
        while at < len(spans) and spans[at][0] < match.end():
            furthest = max(furthest, spans[at][1])
            at += 1
        if furthest <= match.start():
            left.append((match.start(), match.end(), None))
    return left


def _alike(sentence: str, *pair: tuple[int, int, Found | None]) -> bool:
    """Two values one erratum may oppose: of one finder kind, two figures (a number, a
    version), or a date and a year ("listed as March 22, 2017 instead of 2018"); not "the
    date for version 1.2.0 is listed as January 23, 2014" (which value, not a wrong one)."""
    kinds = [s[2].ref_kind if s[2] is not None else "figure" for s in pair]
    texts = [sentence[s[0]:s[1]] for s in pair]
    if kinds[0] == kinds[1]:
        return True
    if set(kinds) <= {"number", "version", "figure"}:
        return all(_FIGURE.fullmatch(t.split()[-1]) for t in texts)
    return "date" in kinds and any(
        re.fullmatch(r"(?:19|20)\d\d", t) for t in texts)


def _read(found: list[Found], sentence: str, number: int,
          old: tuple[int, int, Found | None], new: tuple[int, int, Found | None]) -> list[Found]:
    """The sentence's facts with ``old`` and ``new`` as a correction's old and new value."""
    texts = [sentence[s[0]:s[1]] for s in (old, new)]
    if texts[0].lower() == texts[1].lower():
        return found
    template = new[2] or old[2] or found[0]
    kind = new[2] or old[2]
    unit = (kind.key.rpartition("|")[2] if kind else "") or (
        "version" if "." in texts[1] else "number")
    keyed = next((s[2] for s in (new, old) if s[2] is not None and s[2].key.split("|")[1:2]
                  not in ([""], [])), None)
    key = keyed.key if keyed else f"||{unit}"
    ref_kind = kind.ref_kind if kind else unit
    fact_kind = kind.kind if kind and kind.kind != "question" else (
        "identifier" if ref_kind == "version" else "number")
    made = [replace(template, kind=fact_kind, value=text, ref_kind=ref_kind, correction=True,
                    old=is_old, sentence=number, key=key, single=False)
            for text, is_old in zip(texts, (True, False), strict=True)]
    rest = [f for f in found if not any(
        (at := sentence.find(f.value)) >= 0 and at < s[1] and s[0] < at + len(f.value)
        for s in (old, new))]
    return [*rest, *made]
