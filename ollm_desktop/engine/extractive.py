"""A checkpoint built by code, for when the model's summaries were unusable twice.

Truncation keeps the last tokens of a span and loses every fact before them. This picks whole
sentences instead: the user's requests, decisions, sentences holding identifiers (found by
``references.extract_references``), then action items, newest first, deduplicated, until the
target is reached, and lists the identifiers no picked sentence holds in what room is left.
So it keeps many more facts than truncation in the same tokens.

Budget order (deterministic): the span's own user decisions, newest first (up to
``1 - PREVIOUS_FLOOR`` of the budget: nothing else in the checkpoint states them, and at 2K-4K
a rolling target is about 130 tokens); then the previous checkpoint's user decisions, then its
goal markers ([DECISION] ... LOCKED, which the goal block sends too), up to
``PREVIOUS_FLOOR + PREVIOUS_DECISIONS`` of the budget, the newest first (a code-built
checkpoint's replies' lines are the assistant's, the user's decisions weigh more), then its
other lines up to ``PREVIOUS_FLOOR`` (its identifier lines first) so a rolling tier never
loses all older context; then the rest of the span's decisions; then the sentences (user requests
included) that add an identifier not yet kept, newest first; then the other user requests,
newest first; then the rest of those sentences; then the rest of the previous checkpoint's
identifier lines; then action items; then its other lines; then, in the room left, bare
identifiers. The most recent material wins; the previous checkpoint is shortened before
recent facts are dropped.
Every text is untrusted: each line goes through ``sanitise.neutralise``.

It starts with one small note (``NOTE``), not a heading: the Summary tab shows it in a narrow
panel. Sections with nothing in them are left out. The replies' own sentences are taken only
where they add something the user did not say: a sentence of a reply must hold an identifier
the user did not state in the span (or be a goal marker or a code line); a small model's
plans and advice ("Next, I will…") never fill Action Items or Decisions on their own.
Decisions & Conclusions holds the user's decisions only (issue 28): stated in a decision's or
a correction's shape, never asked or supposed, or a sentence the facts ledger keeps as the
user's decision or correction (``facts_extract``, the ledger's own rules; the extraction is
cached by content, so this costs no second pass), or a sentence in the ledger's decision shape
(``fact_patterns.DECISION``: "final call on the queue backend: RabbitMQ") around a value the
ledger keeps; a reply's sentence only with a [DECISION]
marker. A previous checkpoint's decisions stay decisions, first in the budget after its
floor: a decision holds until the user changes it, however many times the checkpoint rolls.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ollm_desktop.engine.fact_grammar import read
from ollm_desktop.engine.fact_patterns import DECISION as LEDGER_DECISION
from ollm_desktop.engine.facts_extract import extract
from ollm_desktop.engine.provenance import sentence_facts
from ollm_desktop.engine.references import extract_references
from ollm_desktop.engine.sanitise import neutralise
from ollm_desktop.engine.sanitise import sentences as split_sentences
from ollm_desktop.engine.tokens import count_tokens

NOTE = "*Built from the messages: the model's summary was unusable.*"
SHORT_NOTE = "*Built from the messages.*"
HEADER = NOTE  # the name older callers use
# What earlier versions put first (a previous checkpoint may still start with one).
OLD_HEADERS = ("## Context (extracted, the model's summary was unusable)",
               "## Context (extracted)")
SECTIONS = ("Earlier checkpoint", "User requests", "Decisions & Conclusions", "Key Information",
            "Action Items")
PREVIOUS_FLOOR = 0.2  # share of the budget the previous checkpoint keeps when it has content
PREVIOUS_DECISIONS = 0.5  # share of the budget its decisions may keep besides the floor
DECISIONS = "Decisions & Conclusions"
REQUEST_WORDS = 25
LONG_SENTENCE = 60  # words: longer "sentences" (pastes without punctuation) are cut in pieces
PIECE_WORDS = 40
ALSO = "Also mentioned: "

_DECISION = re.compile(
    r"\b(?:decid(?:e|ed|es|ing)|decision|agreed?|chose|chosen|choose|settled on|go(?:ing)? with"
    r"|we'?ll use|we will use|let'?s use|only use|use only|must(?:n'?t| not)?|never|always"
    r"|locked|constraints?|required?|requirements?|mandatory|do not|don'?t|instead of"
    r"|switch(?:ed)? to|stick with|entschieden|immer|niemals|muss|décidé|toujours|jamais|doit)"
    r"\b|\[(?:DECISION|GOAL|CHECKPOINT)\]", re.IGNORECASE)
_STRONG_ACTION = re.compile(r"\b(?:next steps?|todo|to-do|follow[- ]up|still need|open question"
                            r"|pending|tomorrow|next week)\b|\[NEXT\]", re.IGNORECASE)
_ACTION = re.compile(r"\b(?:next|then|will|going to|plan(?:s|ned)? to|need to|afterwards"
                     r"|later)\b", re.IGNORECASE)
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^\s*#{1,6}\s+")
_BULLET = re.compile(r"^\s*(?:[-*+•>]|\d+[.)])\s+")
_MARKER = re.compile(r"\[(?:GOAL|DECISION|CHECKPOINT|NEXT)\]")
_OWN_HEADERS = {NOTE, SHORT_NOTE, *OLD_HEADERS}


@dataclass(slots=True)
class _Unit:
    section: str
    text: str  # neutralised line content, without the list mark
    position: tuple[int, int]  # (message, order); the previous checkpoint is message -1
    refs: tuple[str, ...]
    cost: int = 0
    key: bool = False  # a previous checkpoint's line with identifiers or a goal marker


def _refs_in(text: str, refs: Sequence[str]) -> tuple[str, ...]:
    return tuple(r for r in refs if (r[:-1] if r.endswith("()") else r) in text)


def _cut(text: str, words: int, refs: Sequence[str]) -> int:
    """End of the first ``words`` words, moved on so that no identifier is cut in half."""
    tokens = list(re.finditer(r"\S+", text))
    if len(tokens) <= words:
        return len(text)
    end = tokens[words - 1].end()
    spans = sorted((m.start(), m.start() + len(r)) for r in refs
                   for m in re.finditer(re.escape(r[:-1] if r.endswith("()") else r), text))
    for start, stop in spans:
        if start < end < stop:
            end = stop
    return next((t.end() for t in tokens if t.end() >= end), len(text))


def _shorten(text: str, words: int, refs: Sequence[str]) -> str:
    end = _cut(text, words, refs)
    return text if end >= len(text.rstrip()) else text[:end].rstrip(",;:") + " …"


def _pieces(sentence: str, refs: Sequence[str]) -> list[str]:
    """A very long sentence as pieces of about ``PIECE_WORDS`` words, identifiers whole."""
    out: list[str] = []
    rest = sentence
    while len(rest.split()) > LONG_SENTENCE:
        end = _cut(rest, PIECE_WORDS, refs)
        out.append(rest[:end])
        rest = rest[end:].strip()
    return [*out, rest] if rest else out


def _message_units(index: int, role: str, content: str, request_words: int,
                   stated: frozenset[str] = frozenset()) -> list[_Unit]:
    """The message's candidate lines; a reply's only where they add to what the user
    ``stated`` (identifiers of the span's user messages)."""
    paragraphs = [p for p in re.split(r"\n\s*\n", content) if p.strip()]
    refs: list[str] = []
    for paragraph in paragraphs:  # per paragraph: extract_references caps each call
        refs.extend(r for r in extract_references([paragraph]) if r not in refs)
    units: list[_Unit] = []
    fenced = False
    order = 0
    sentences: list[tuple[str, bool]] = []
    for line in content.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not line.strip():
            continue
        if fenced:
            if len(line) <= 200:
                sentences.append((line.strip(), True))
            continue
        if _HEADING.match(line) and len(line.split()) < 6:
            continue
        for sentence in split_sentences(_BULLET.sub("", _HEADING.sub("", line))):
            sentences.extend((piece, False) for piece in _pieces(sentence, refs))
    decided = _ledger_decisions(content) if role == "user" else _Kept()
    requests = [s for s, code in sentences if not code and not _decides(role, s, decided)]
    if role == "user" and requests:  # a decision is listed as one, not as a request
        first = next((s for s in requests if len(s.split()) >= 3), requests[0])
        short = _shorten(first, request_words, _refs_in(first, refs))
        units.append(_Unit("User requests", neutralise(f'"{short}"').replace("\n", " "),
                           (index, order), _refs_in(short, refs)))
        order += 1
        if short == first:
            sentences = [s for s in sentences if s[0] != first]
    for sentence, code in sentences:
        found = _refs_in(sentence, refs)
        if role != "user" and not code and not _MARKER.search(sentence) \
                and all(r in stated for r in found):
            continue  # the model's own words, adding no fact the user did not give
        if code:
            if not found:
                continue
            section, text = "Key Information", sentence if "`" in sentence else f"`{sentence}`"
        else:
            text = sentence
            if _decides(role, sentence, decided):
                section = DECISIONS
            elif _STRONG_ACTION.search(sentence):
                section = "Action Items"
            elif found:
                section = "Key Information"
            elif _ACTION.search(sentence) and len(sentence.split()) >= 4:
                section = "Action Items"
            else:
                continue
        units.append(_Unit(section, neutralise(text), (index, order), found))
        order += 1
    return units


@dataclass(frozen=True, slots=True)
class _Kept:
    """What the facts ledger keeps of a user's message (its own rules, its cached
    extraction): the sentences it keeps as a decision or a correction, and its values."""

    sentences: frozenset[str] = frozenset()
    values: tuple[str, ...] = ()


def _ledger_decisions(content: str) -> _Kept:
    found = [f for f in extract("user", content) if not f.old and f.kind != "question"]
    return _Kept(frozenset(" ".join(f.value.split()) for f in found
                           if f.kind in ("decision", "correction")),
                 tuple(f.value for f in found if f.kind not in ("decision", "correction")))


def _decides(role: str, sentence: str, kept: _Kept | None = None) -> bool:
    """A decision of the user's (issue 28), by the ledger's rules: a sentence the ledger keeps
    as a decision or a correction, or one in a decision's shape that states a value the
    ledger keeps ("we agreed that the locking approach is X"); stated, never asked or
    supposed. A decision's words around no value ("let's keep going with the migration")
    decide nothing. A reply's sentence decides nothing unless it carries the app's own
    [DECISION] marker; what the user adopted of it, they say themselves."""
    if role != "user":
        return bool(_MARKER.search(sentence)) and "[DECISION]" in sentence
    if sentence.rstrip().endswith("?"):
        return False
    kept = kept if kept is not None else _ledger_decisions(sentence)
    if " ".join(sentence.split()) in kept.sentences:
        return True
    if (_DECISION.search(sentence) or LEDGER_DECISION.search(sentence)) \
            and any(v in sentence for v in kept.values):
        return _statement(sentence)
    return any(f.correction and not f.old for f in sentence_facts(sentence, "user"))


def _statement(sentence: str) -> bool:
    """Not a question, a hypothetical or a suggestion (``fact_grammar``'s mood)."""
    return read(sentence, [], "user").mood == "statement"


def _previous_units(previous: str) -> list[_Unit]:
    """The previous checkpoint's lines: its decisions stay decisions (and key); the rest is
    "Earlier checkpoint"."""
    units: list[_Unit] = []
    section = ""
    for order, line in enumerate(previous.split("\n")):
        stripped = line.strip()
        if _HEADING.match(line):
            section = _HEADING.sub("", line).strip()
            continue
        if not stripped or stripped in _OWN_HEADERS or _FENCE.match(line):
            continue
        if section == DECISIONS and _BULLET.match(line):
            units.append(_Unit(DECISIONS, neutralise(_BULLET.sub("", stripped)), (-1, order),
                               tuple(extract_references([stripped])), key=True))
            continue
        if stripped.startswith("Key references: "):
            for item in stripped[len("Key references: "):].split("; "):
                if item.strip():
                    units.append(_Unit("Earlier checkpoint", neutralise(item.strip()),
                                       (-1, order), (item.strip(),), key=True))
            continue
        refs = tuple(extract_references([stripped]))
        units.append(_Unit("Earlier checkpoint", neutralise(_BULLET.sub("", stripped)),
                           (-1, order), refs, key=bool(refs or _MARKER.search(stripped))))
    return units


def _words(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"\w+", text.lower()))


def _line(unit: _Unit) -> str:
    return f"- {unit.text}"


class _Picker:
    """Greedy selection under a token budget, with near-duplicate and coverage checks."""

    def __init__(self, budget: int, count: Callable[[str], int]) -> None:
        self.budget = budget
        self.count = count
        self.used = 0
        self.chosen: list[_Unit] = []
        self.taken: set[int] = set()
        self.sections: set[str] = set()
        self.covered: set[str] = set()
        self.seen: list[frozenset[str]] = []

    def duplicate(self, unit: _Unit) -> bool:
        words = _words(unit.text)
        return any(len(words & s) >= 0.85 * len(words | s) for s in self.seen)

    def take(self, unit: _Unit, limit: int | None = None) -> bool:
        if id(unit) in self.taken or self.duplicate(unit):
            return False
        unit.cost = unit.cost or self.count(_line(unit)) + 1
        header = 0 if unit.section in self.sections else self.count(f"## {unit.section}") + 2
        if self.used + header + unit.cost > min(self.budget, limit or self.budget):
            return False
        self.used += header + unit.cost
        self.sections.add(unit.section)
        self.chosen.append(unit)
        self.taken.add(id(unit))
        self.covered.update(unit.refs)
        self.seen.append(_words(unit.text))
        return True

    def adds_news(self, unit: _Unit) -> bool:
        return unit.section == DECISIONS or \
            any(r not in self.covered for r in unit.refs)


def _render(header: str, chosen: Sequence[_Unit], also: Sequence[str]) -> str:
    out = [header]
    for section in SECTIONS:
        units = sorted((u for u in chosen if u.section == section), key=lambda u: u.position)
        lines = [_line(u) for u in units]
        if section == "Key Information" and also:
            lines.append(f"- {ALSO}{'; '.join(also)}")
        if lines:
            out += ["", f"## {section}", *lines]
    return "\n".join(out)


def _fit(text: str, limit: int, count: Callable[[str], int]) -> str:
    """The longest word prefix of ``text`` within ``limit`` (for absurdly small targets)."""
    words = text.split(" ")
    low, high = 0, len(words)
    while low < high:
        mid = (low + high + 1) // 2
        if count(" ".join(words[:mid])) <= limit:
            low = mid
        else:
            high = mid - 1
    return " ".join(words[:low])


def extractive_checkpoint(
    messages: Sequence[tuple[str, str]],
    *,
    target_tokens: int,
    previous: str | None = None,
    count: Callable[[str], int] = count_tokens,
) -> str:
    """A Markdown checkpoint of ``messages`` ((role, content), oldest first) within the target.

    ``previous`` is the checkpoint being rolled into this one. Deterministic; empty only when
    not even a heading fits ``target_tokens``.
    """
    header = NOTE if count(NOTE) + 16 <= target_tokens else SHORT_NOTE
    if count(header) >= target_tokens:
        return _fit(header, target_tokens, count)
    budget = target_tokens - count(header) - 1
    request_words = max(8, min(REQUEST_WORDS, target_tokens // 12))
    stated = frozenset(r for role, content in messages if role == "user"
                       for r in extract_references([content or ""]))
    span = [u for i, (role, content) in enumerate(messages)
            for u in _message_units(i, role, content or "", request_words, stated)]
    newest = sorted(span, key=lambda u: (-u.position[0], u.position[1]))
    old = sorted(_previous_units(previous or ""), key=lambda u: (not u.key, u.position))
    picker = _Picker(budget, count)
    core = [u for u in newest if u.section != "Action Items" or u.refs]
    # The user's decisions of the span first: nothing else in the checkpoint states them
    # (the previous checkpoint's were kept by the build that read them, and the ledger
    # sends them); then the previous checkpoint's, the newest first; the goal's own markers
    # ([DECISION] ... LOCKED, which the goal block sends) only after every user decision.
    for unit in core:
        if unit.section == DECISIONS and not _MARKER.search(unit.text):
            picker.take(unit, limit=int(budget * (1 - PREVIOUS_FLOOR)))
    earlier = sorted((u for u in old if u.section == DECISIONS), key=lambda u: u.position,
                     reverse=True)  # the newest first when not all fit
    for group in ([u for u in earlier if not _MARKER.search(u.text)], earlier):
        for unit in group:
            picker.take(unit, limit=int(budget * (PREVIOUS_FLOOR + PREVIOUS_DECISIONS)))
    for unit in old:
        picker.take(unit, limit=int(budget * PREVIOUS_FLOOR))
    for unit in core:  # the user's decisions first: what a reply adds waits behind them
        if unit.section == DECISIONS:
            picker.take(unit)
    for unit in core:
        if picker.adds_news(unit):
            picker.take(unit)
    requests = [u for u in core if u.section == "User requests"]
    for group in (requests, core, [u for u in old if u.key],
                  [u for u in newest if u.section == "Action Items"], old):
        for unit in group:
            picker.take(unit)
    chosen = picker.chosen
    # Room left: the identifiers no chosen line holds, newest first, each whole.
    also: list[str] = []
    plain = _render(header, chosen, [])
    room = target_tokens - count(plain) - count(f"- {ALSO}") - 2
    for ref in dict.fromkeys(r for u in [*newest, *old] for r in u.refs):
        cost = count(f"; {ref}")
        if ref not in plain and "\n" not in ref and len(ref) <= 80 and cost <= room:
            also.append(neutralise(ref))
            room -= cost
    body = _render(header, chosen, also)
    while count(body) > target_tokens and (also or chosen):
        if also:
            also.pop()
        else:
            chosen = chosen[:-1]  # the last taken is the least important
        body = _render(header, chosen, also)
    return neutralise(body)
