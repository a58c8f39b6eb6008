"""Critical identifiers that a summary must keep: found by code, not left to the model.

Each pattern aims at a fact a user may ask for later: a path, a version, a price, a port, a name
they gave something. Candidate spans never overlap and the longest wins, so ``1.234,56 EUR`` is one
reference, not ``234,56 EUR``. Every text is a slice of its input with one normalisation: a call
``name(arg)`` is kept as ``name()``, and :func:`occurs_in` accepts it wherever ``name(`` occurs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ollm_desktop.engine.models import ReferenceSource
from ollm_desktop.engine.reference_patterns import BACKTICK, RULES, match_text
from ollm_desktop.engine.tokens import count_tokens

KINDS = ("url", "path", "code", "function", "version", "env", "port", "number", "name",
         "ticket", "hash", "class", "date", "time")
SOURCE_RANK: dict[ReferenceSource, int] = {"user": 0, "assistant": 1, "summary": 2}
MAX_REFERENCES = 40  # only for extract_references (old callers); extract_ranked has no cap
KEY_REFERENCES_PREFIX = "Key references: "


@dataclass(frozen=True, slots=True)
class Reference:
    text: str
    kind: str  # one of KINDS
    source: ReferenceSource  # the best source it appeared in
    position: int  # index of the message it first appeared in (any source)


def _candidates(text: str) -> list[tuple[int, int, int, str, str]]:
    """(start, end, priority, text, kind) of every rule match, overlaps included."""
    found: list[tuple[int, int, int, str, str]] = []
    for priority, rule in enumerate(RULES):
        for match in rule.pattern.finditer(text):
            ref, kind = match_text(match), rule.kind
            if rule.check is not None:
                checked = rule.check(match)
                if checked is None:
                    continue
                ref, kind = checked[0], checked[1] or rule.kind
            ref = ref.strip()
            if len(ref) < 2:
                continue
            group = "q" if "q" in match.re.groupindex and match.group("q") is not None else "ref"
            if rule.whole or group not in match.re.groupindex or match.group(group) is None:
                start, end = match.span(0)
            else:
                start, end = match.span(group)
            if not rule.whole and text.startswith(ref, start):
                end = start + len(ref)  # a check trimmed trailing punctuation
            if rule is BACKTICK:
                kind = _inner_kind(ref)
            found.append((start, end, priority, ref, kind))
    return found


def _inner_kind(code: str) -> str:
    """Backticked text that is exactly one reference of a sharper kind takes that kind."""
    if "`" in code:
        return "code"
    inner = [(start, ref, kind) for start, _, _, ref, kind in _candidates(code)
             if ref == code and kind != "code"]
    return inner[0][2] if inner else "code"


def find_references(text: str) -> list[tuple[str, str]]:
    """Every reference in ``text`` as (text, kind), in order of appearance, each text once.

    Where candidates overlap, the longest span wins (ties: the earlier rule), so a fragment of
    a longer reference is never reported on its own. Worked out once per text (issue 28: a
    compaction reads the same messages again and again; ``_candidates`` was 75 % of its CPU).
    """
    return list(_found(text))


@lru_cache(maxsize=16384)
def _found(text: str) -> tuple[tuple[str, str], ...]:
    taken = bytearray(len(text) + 1)
    chosen: list[tuple[int, str, str]] = []
    for start, end, _, ref, kind in sorted(_candidates(text), key=lambda c: (c[0] - c[1], c[2],
                                                                            c[0])):
        if taken.find(1, start, end) != -1:
            continue
        taken[start:end] = b"\x01" * (end - start)
        chosen.append((start, ref, kind))
    seen: set[str] = set()
    result: list[tuple[str, str]] = []
    for _, ref, kind in sorted(chosen):
        if ref not in seen:
            seen.add(ref)
            result.append((ref, kind))
    return tuple(result)


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _bounded(needle: str, text: str) -> int:
    """Index of ``needle`` in ``text`` not glued to a longer word on either side, else -1."""
    start = text.find(needle)
    while start != -1:
        end = start + len(needle)
        left_ok = not _is_word(needle[0]) or start == 0 or not _is_word(text[start - 1])
        right_ok = not _is_word(needle[-1]) or end == len(text) or not _is_word(text[end])
        if left_ok and right_ok:
            return start
        start = text.find(needle, start + 1)
    return -1


_CALL = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\(\)")


def occurs_in(ref: str, text: str) -> bool:
    """Whether ``ref`` is present in ``text``: the check for "already in the context".

    An exact substring, but not glued to a longer word (``45 s`` is not in ``145 s``,
    ``v2.1`` is not in ``v2.10``). A normalised call ``name()`` is present wherever ``name(``
    occurs, since ``name(arg)`` in the input was kept as ``name()``.
    """
    return not ref or locate(ref, text) >= 0


def locate(ref: str, text: str) -> int:
    """Where :func:`occurs_in` finds ``ref`` in ``text`` (-1: absent), e.g. to label it."""
    if not ref:
        return -1
    return _bounded(ref[:-1] if _CALL.fullmatch(ref) else ref, text)


def _drop_contained(refs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Refs not contained in a longer one of the same list (order kept)."""
    joined = ""
    kept: set[str] = set()
    for ref, _ in sorted(refs, key=lambda r: -len(r[0])):
        if not (joined and occurs_in(ref, joined)):
            kept.add(ref)
            joined += "\n" + ref
    return [r for r in refs if r[0] in kept]


_MESSAGE_REFERENCES: dict[str, tuple[tuple[str, str], ...]] = {}
_MESSAGE_REFERENCES_KEPT = 16384
MAX_REFERENCE_TEXT = 32_000  # characters of a message read for references (recall's bound)


def message_references(content: str) -> tuple[tuple[str, str], ...]:
    """A message's references without those inside a longer one: worked out once per text
    (``facts_extract`` does it when the message is final; a compaction reads them)."""
    found = _MESSAGE_REFERENCES.get(content)
    if found is None:  # a hostile 500 KB line took a second: its first part is read
        found = tuple(_drop_contained(find_references(content[:MAX_REFERENCE_TEXT])))
        remember_references(content, found)
    return found


def remember_references(content: str, refs: Sequence[tuple[str, str]]) -> None:
    """A message's references, worked out now or read back from storage."""
    if len(_MESSAGE_REFERENCES) >= _MESSAGE_REFERENCES_KEPT:
        _MESSAGE_REFERENCES.pop(next(iter(_MESSAGE_REFERENCES)))  # the oldest
    _MESSAGE_REFERENCES[content] = tuple((ref, kind) for ref, kind in refs)


def _key_reference_items(summary: str) -> list[tuple[str, str]]:
    """Items of the engine's own ``Key references:`` lines in a previous checkpoint."""
    items: list[tuple[str, str]] = []
    for line in summary.splitlines():
        if line.startswith(KEY_REFERENCES_PREFIX):
            for item in line[len(KEY_REFERENCES_PREFIX):].split("; "):
                item = item.strip()
                if 2 <= len(item) <= 120:
                    found = find_references(item)
                    kind = found[0][1] if found and found[0][0] == item else "name"
                    items.append((item, kind))
    return items


def extract_ranked(messages: Sequence[tuple[str, str]]) -> list[Reference]:
    """References of (role, content) messages, oldest first, ranked for keeping.

    Rank: source user, then assistant, then summary (a previous checkpoint; any other role
    counts as assistant); within a source, order of first appearance. Deduplicated; a reference
    contained in a longer one of the same message is dropped. No cap: the engine budgets.
    """
    best: dict[str, tuple[tuple[int, int, int], str, ReferenceSource]] = {}
    first: dict[str, int] = {}
    for index, (role, content) in enumerate(messages):
        source: ReferenceSource = (
            "user" if role == "user" else "summary" if role == "summary" else "assistant")
        if source == "summary":
            refs = find_references(content)
            known = {r for r, _ in refs}
            refs += [item for item in _key_reference_items(content) if item[0] not in known]
            kept = _drop_contained(refs)
        else:
            kept = list(message_references(content))
        for order, (ref, kind) in enumerate(kept):
            first.setdefault(ref, index)
            key = (SOURCE_RANK[source], index, order)
            if ref not in best or key < best[ref][0]:
                best[ref] = (key, kind, source)
    ranked = sorted(best.items(), key=lambda item: item[1][0])
    return [Reference(ref, kind, source, first[ref]) for ref, (_, kind, source) in ranked]


def extract_references(texts: list[str]) -> list[str]:
    """Identifiers worth keeping verbatim, in order of appearance, bounded in number.

    Kept for callers without roles; none of the texts is treated as more trusted than another.
    A reference contained in a longer one of any text is dropped.
    """
    ranked = extract_ranked([("user", text) for text in texts])
    kept = _drop_contained([(r.text, r.kind) for r in ranked])
    return [ref for ref, _ in kept[:MAX_REFERENCES]]


def looks_like_path(ref: str) -> bool:
    """A file path or file name (not a URL, not a number with a unit)."""
    return find_references(ref) == [(ref, "path")]


def missing_references(summary: str, references: list[str]) -> list[str]:
    return [ref for ref in references if not occurs_in(ref, summary)]


def recall(summary: str, references: list[str]) -> float:
    if not references:
        return 1.0
    return 1.0 - len(missing_references(summary, references)) / len(references)


def key_references_line(missing: list[str], token_cap: int) -> tuple[str, list[str]]:
    """A compact line listing what the model dropped, within ``token_cap`` tokens."""
    if not missing or token_cap <= 8:
        return "", []
    added: list[str] = []
    line = KEY_REFERENCES_PREFIX
    for ref in missing:
        candidate = line + ("; " if added else "") + ref
        if count_tokens(candidate) > token_cap:
            break
        line, added = candidate, [*added, ref]
    return (line if added else ""), added
