"""The reference ledger: exact identifiers of summarised turns, kept by code.

Small models paraphrase: a path, a version or a price they were asked to keep comes back
reworded or not at all. Every identifier of a compacted span therefore enters this ledger,
which is sent beside the checkpoints within its own token budget. Only strings that occur in
the compacted messages enter it (nothing the model invented). When the budget is short the
least recent entries go first, and the group they came from records what was given up.
A later value with the same label replaces an earlier one ("port 8443", then "port 9443"),
so a corrected fact is not presented twice as current.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from ollm_desktop.engine import references
from ollm_desktop.engine.models import LedgerEntry

HEADER = "Exact references from summarised turns (newest first; later values replace earlier):"
MAX_ENTRIES = 400  # stored; what is sent is bounded by the token budget
# The newest checkpoint's entries may use up to this many times the budget (a span full of
# identifiers, e.g. a pasted log, must not take over the context).
NEWEST_STRETCH = 2
# Only values are superseded by a later one with the same label: two paths mentioned after
# the same words are two files, but "the timeout is 45 s" then "the timeout is 90 s" is one
# setting changed.
VALUE_KINDS = frozenset({"number", "version", "port", "date", "time"})
SOURCE_RANK = {"user": 0, "assistant": 1, "summary": 2}  # within a compaction, user first
_WORD = re.compile(r"[A-Za-zÀ-ÿ][\w'-]*")
_STOP = frozenset((
    "a", "an", "the", "is", "are", "was", "were", "be", "been", "to", "of", "in", "on", "at",
    "for", "by", "with", "and", "or", "it", "its", "this", "that", "these", "those", "we", "you",
    "i", "our", "your", "my", "me", "us", "they", "them", "he", "she", "his", "her", "as",
    "from", "into", "about", "than", "then", "so", "use", "used", "using", "set", "now", "will",
    "would", "should", "could", "can", "may", "just", "also", "it's", "let's", "lets", "call",
    "called", "name", "named",
))


def label_for(text: str, start: int, max_words: int = 3) -> str:
    """Up to ``max_words`` meaningful words before ``start`` on the same line."""
    line_start = max(text.rfind("\n", 0, start), text.rfind(". ", 0, start)) + 1
    words = [w for w in _WORD.findall(text[line_start:start]) if w.lower() not in _STOP]
    return " ".join(words[-max_words:])


def collect(messages: Sequence[tuple[str, str]], group_id: str | None, sequence: int,
            ranked: Sequence[references.Reference] | None = None) -> list[LedgerEntry]:
    """Ledger entries for the identifiers of ``messages`` ((role, content), oldest first).

    ``ranked`` is ``references.extract_ranked(messages)`` when the caller has it already.
    """
    entries: list[LedgerEntry] = []
    for ref in ranked if ranked is not None else references.extract_ranked(messages):
        content = messages[ref.position][1]
        where = references.locate(ref.text, content)
        label = label_for(content, where) if where >= 0 else ""
        entries.append(LedgerEntry(text=ref.text, kind=ref.kind, label=label,
                                   source=ref.source,
                                   group_id=group_id, sequence=sequence))
    return entries


def merge(ledger: Iterable[LedgerEntry], new: Iterable[LedgerEntry]) -> list[LedgerEntry]:
    """The ledger with ``new`` folded in: duplicates refreshed, superseded values replaced."""
    merged: dict[str, LedgerEntry] = {e.text: e for e in ledger}
    for entry in new:
        if entry.label and entry.kind in VALUE_KINDS:
            for old in [o for o in merged.values() if o.label == entry.label
                        and o.kind == entry.kind and o.text != entry.text
                        and o.sequence < entry.sequence]:
                del merged[old.text]
        previous = merged.pop(entry.text, None)
        if previous is not None and previous.sequence > entry.sequence:
            entry = previous
        merged[entry.text] = entry
    ordered = sorted(merged.values(), key=lambda e: e.sequence)
    return ordered[-MAX_ENTRIES:]


def _line(entry: LedgerEntry) -> str:
    return f"{entry.label}: {entry.text}" if entry.label else entry.text


def render(entries: Sequence[LedgerEntry], *, budget: int, present: str,
           count: Callable[[str], int], keep_sequence: int | None = None,
           ) -> tuple[str, list[LedgerEntry], list[LedgerEntry]]:
    """(text, shown, left out) within ``budget`` tokens.

    Entries already verbatim in ``present`` (the rest of the context) are not repeated.
    Newest compaction first (within one: the user's identifiers, then the newest). Entries of
    compaction ``keep_sequence`` (the newest checkpoint) are shown past the budget, up to
    ``NEWEST_STRETCH`` times it, so the newest checkpoint's identifiers are all in the context.
    """
    order = {id(e): i for i, e in enumerate(entries)}
    candidates = sorted((e for e in entries if not references.occurs_in(e.text, present)),
                        key=lambda e: (-e.sequence, SOURCE_RANK.get(e.source, 2), -order[id(e)]))
    if not candidates:
        return "", [], []
    shown: list[LedgerEntry] = []
    left: list[LedgerEntry] = []
    labels: set[str] = set()
    used = count(HEADER) + 2
    for entry in candidates:
        # Entries sharing a label are listed after it once ("port: 8443, 9443").
        cost = count(entry.text) + 1 if entry.label in labels else count(_line(entry)) + 2
        newest = keep_sequence is not None and entry.sequence >= keep_sequence
        if used + cost <= budget or (newest and used + cost <= budget * NEWEST_STRETCH):
            shown.append(entry)
            labels.add(entry.label)
            used += cost
        else:
            left.append(entry)
    if not shown:
        return "", [], left
    grouped: dict[str, list[str]] = {}
    for entry in shown:
        grouped.setdefault(entry.label, []).append(entry.text)
    lines = [f"{label}: {', '.join(texts)}" if label else "; ".join(texts)
             for label, texts in grouped.items()]
    return HEADER + "\n" + "; ".join(lines), shown, left
