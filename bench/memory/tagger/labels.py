"""Token labels for a corpus case, derived from its expected keys (dev halves only).

A case's ``expect.keys`` name each key's ``current`` value and the values it ``replaced``. A key
that replaced something is a change: its current value, where the message says it, is NEW
(B-NEW, I-NEW); a replaced value the message names is OLD. Every other token is O, the values
of keys the message leaves alone and a negative's proposals (``not_current``) included: they
are exactly what a tagger must not take for a new value. Cases whose change cannot be located
in the message (a correction none of whose new values appear) are skipped and counted.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ollm_desktop.engine.fact_words import TOKEN

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
# The halves this probe may read. The held-out halves (heldout*.jsonl) are never opened.
DEV_HALVES = ("dev", "dev-more", "dev-3", "dev-4", "dev-5", "dev-real")
TAGS = ("O", "B-NEW", "I-NEW", "B-OLD", "I-OLD")


@dataclass
class Example:
    """One message: its tokens (text, start, end), gold tags and message-level label."""

    case_id: str
    half: str
    polarity: str
    text: str
    tokens: list[tuple[str, int, int]]
    tags: list[str]
    supersedes: bool
    new_values: set[str] = field(default_factory=set)  # located gold NEW texts (lower case)
    old_values: set[str] = field(default_factory=set)  # located gold OLD texts (lower case)


def tokenize(text: str) -> list[tuple[str, int, int]]:
    """The engine's own word pattern (``fact_words.TOKEN``), with character offsets."""
    return [(m.group(0), m.start(), m.end()) for m in TOKEN.finditer(text)]


def _spans(text: str, value: str) -> list[tuple[int, int]]:
    """Every occurrence of ``value`` in ``text``, case-insensitive, not inside a longer word
    or number ("8443" is not found in "18443")."""
    if not value.strip():
        return []
    out = []
    for m in re.finditer(re.escape(value.strip()), text, re.IGNORECASE):
        before = text[m.start() - 1:m.start()]
        after = text[m.end():m.end() + 1]
        if (before.isalnum() and value[0].isalnum()) or (after.isalnum() and value[-1].isalnum()):
            continue
        out.append((m.start(), m.end()))
    return out


def _mark(tokens: list[tuple[str, int, int]], tags: list[str], span: tuple[int, int],
          kind: str) -> bool:
    inside = [i for i, (_, s, e) in enumerate(tokens) if s < span[1] and e > span[0]]
    if not inside or any(tags[i] != "O" for i in inside):
        return False
    for n, i in enumerate(inside):
        tags[i] = ("B-" if n == 0 else "I-") + kind
    return True


def example(case: dict[str, Any]) -> Example | None:
    """The case as a labelled message, or None when its change cannot be located."""
    text = case["message"]["text"]
    tokens = tokenize(text)
    tags = ["O"] * len(tokens)
    supersedes = bool(case["expect"]["supersedes"])
    news: set[str] = set()
    olds: set[str] = set()
    changed = [k for k in case["expect"]["keys"] if k.get("replaced")]
    # longer values first, so "3.6.1" is marked before a "3.6" inside it could be
    marks = [(k["current"], "NEW") for k in changed if k.get("current")]
    marks += [(old, "OLD") for k in changed for old in k["replaced"]]
    for value, kind in sorted(marks, key=lambda m: -len(m[0])):
        for span in _spans(text, value):
            if _mark(tokens, tags, span, kind):
                (news if kind == "NEW" else olds).add(value.strip().lower())
    if supersedes and not news:
        return None
    return Example(case["id"], case["half"], case["polarity"], text, tokens, tags, supersedes,
                   news, olds)


def load_half(half: str, folder: Path = CORPUS) -> list[dict[str, Any]]:
    if half not in DEV_HALVES:
        raise ValueError(f"{half!r} is not a dev half: the probe never reads held-out halves")
    lines = (folder / f"{half}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def build(halves: tuple[str, ...] = DEV_HALVES,
          folder: Path = CORPUS) -> tuple[list[Example], dict[str, int]]:
    """The labelled examples of the given dev halves, and per half the cases skipped."""
    out: list[Example] = []
    skipped: dict[str, int] = {}
    for half in halves:
        skipped[half] = 0
        for case in load_half(half, folder):
            found = example(case)
            if found is None:
                skipped[half] += 1
            else:
                out.append(found)
    return out, skipped


def spans_of(ex_tokens: list[tuple[str, int, int]], text: str, tags: list[str],
             kind: str) -> set[str]:
    """The texts (lower case) a tag sequence marks as ``kind`` (NEW or OLD)."""
    out: set[str] = set()
    start = end = -1
    for (_, s, e), tag in zip([*ex_tokens, ("", -1, -1)], [*tags, "O"], strict=True):
        if tag == f"I-{kind}" and start >= 0:
            end = e
            continue
        if start >= 0:
            out.add(text[start:end].lower())
            start = -1
        if tag == f"B-{kind}":
            start, end = s, e
    return out
