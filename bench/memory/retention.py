"""Is a planted fact still in front of the model? (Context retention, no judge needed.)

A fact is retained when its answer string occurs in the request, after normalising case,
whitespace and typographic quotes and dashes.

Corrections are scored strictly: the replaced value must never appear as current. It may
appear only (1) in the same sentence, line or ledger entry as a replacement marker and the new
value, or (2) inside a message kept word for word in its original place (a turn of the request,
not a quote in the system message) when a later message, or a ledger entry, states the new
value. A recalled excerpt (the text after the question in the newest user turn of a question
request) is never exempt by (2). Sentence and line boundaries are kept for this check: a marker
in another sentence, or in the ledger's header, does not count.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_SPACE = re.compile(r"\s+")
_INLINE_SPACE = re.compile(r"[^\S\n]+")
_TRANSLATE = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                            "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u00a0": " ",
                            "\u202f": " ", "`": ""})
STALE_MARKERS = ("no longer", "not ", "instead", "superseded", "replaced", "replaces",
                 "was wrong", "earlier", "previous", "formerly", "outdated", "changed", "moved",
                 "corrected", "correction", "any more", "anymore", "was ", "now ")
# The headers of the engine's ledgers (before and after the facts ledger): the lines after one,
# up to a blank line, are ledger entries (also split at "; ").
LEDGER_HEADERS = ("exact references from summarised turns", "facts of this conversation")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
DEPTH_BUCKETS = ((0, 20, "0-20"), (20, 50, "20-50"), (50, 100, "50-100"), (100, 10**9, "100+"))


def normalise(text: str) -> str:
    """Lower case, one space for any whitespace, plain quotes and dashes, no backticks."""
    return _SPACE.sub(" ", text.translate(_TRANSLATE)).strip().lower()


def _lines(text: str) -> str:
    """Like ``normalise`` but line breaks stay (the strict check needs its boundaries)."""
    return _INLINE_SPACE.sub(" ", text.translate(_TRANSLATE)).lower()


def request_text(messages: Sequence[dict[str, str]]) -> str:
    """Everything the model is sent, normalised (roles do not matter for presence)."""
    return normalise("\n".join(str(m.get("content", "")) for m in messages))


@dataclass(frozen=True, slots=True)
class Unit:
    text: str  # normalised, one line or sentence or ledger entry
    message: int  # index of its message in the request
    ledger: bool


def units(messages: Sequence[dict[str, str]]) -> list[Unit]:
    """Sentences, lines and ledger entries of the request, each with its message."""
    found: list[Unit] = []
    for index, message in enumerate(messages):
        in_ledger = False
        for line in _lines(str(message.get("content", ""))).split("\n"):
            stripped = line.strip(" >-*")
            if not stripped:
                in_ledger = False
                continue
            if stripped.startswith(LEDGER_HEADERS):
                in_ledger = True
                rest = stripped.partition(":")[2]
                if rest.strip() and ";" in rest:  # a header with entries on its line
                    found += [Unit(e.strip(), index, True) for e in rest.split("; ")]
                continue
            if in_ledger:
                found += [Unit(e.strip(), index, True) for e in stripped.split("; ") if e]
            else:
                found += [Unit(s.strip(), index, False) for s in _SENTENCE.split(stripped) if s]
    return found


def _marked(unit: str, answer: str) -> bool:
    return answer in unit and any(marker in unit for marker in STALE_MARKERS)


def stale_as_current(messages: Sequence[dict[str, str]], answer: str, stale: str, *,
                     recall_from: int | None = None) -> bool:
    """True when ``stale`` appears in the request as the current value.

    ``recall_from``: index of the message whose later part is recalled text (the newest
    user turn of a question request); it is never exempt for being kept in place.
    """
    new, old = normalise(answer), normalise(stale)
    all_units = units(messages)
    ledger_states_new = any(u.ledger and new in u.text for u in all_units)
    for unit in all_units:
        if old not in unit.text or _marked(unit.text, new):
            continue
        role = str(messages[unit.message].get("role", ""))
        kept_in_place = role != "system" and unit.message != recall_from and not unit.ledger
        later = any(new in normalise(str(m.get("content", "")))
                    for m in messages[unit.message + 1:] if m.get("role") != "system")
        if kept_in_place and (later or ledger_states_new):
            continue
        return True
    return False


def retained(messages: Sequence[dict[str, str]], answer: str, stale: str | None = None, *,
             recall_from: int | None = None) -> bool:
    """The answer is in the request, and a replaced value never appears as current."""
    if normalise(answer) not in request_text(messages):
        return False
    return stale is None or not stale_as_current(messages, answer, stale,
                                                 recall_from=recall_from)


def bucket(depth: int) -> str:
    """The depth bucket of a fact planted ``depth`` turns before the probe."""
    for low, high, name in DEPTH_BUCKETS:
        if low <= depth < high:
            return name
    return DEPTH_BUCKETS[-1][2]
