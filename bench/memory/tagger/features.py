"""The features a linguist would read a correction by, per token and per message.

Per token: the lower-cased word, its shape (digits, capitals, a unit), prefix and suffix, the
words two either side, whether the engine's own value reader (``references.find_references``)
sees a value there and of which kind, and the structure words near it ("not", "from", "to",
"instead", "than", an arrow) with their side and distance. Optionally (``stacked``) also what
the rules themselves read (``provenance.message_facts``: a value, a replaced value, a value of a
correcting sentence), so the tagger learns where the rules are right and where they are not.
"""

from __future__ import annotations

import itertools
import re

from ollm_desktop.engine.fact_words import ARROWS, DURATION, SIZE
from ollm_desktop.engine.provenance import message_facts
from ollm_desktop.engine.references import find_references

Token = tuple[str, int, int]
# Structure words whose side and distance from a value say which role it plays (the forms
# the issue names: "X, not Y", "from Y to X", "instead of Y", "rather than Y", "Y -> X").
STRUCTURE = frozenset({"not", "from", "to", "instead", "of", "than", "rather", "now", "no",
                       "was", "is", "were", "be", "actually", "but", "with", "replace",
                       "anymore", "longer", "?", ",", ";", ":", "(", ")", "if", "should",
                       "would", "could", "maybe", "→", "->", "=>", ">", "–", "—"}) | ARROWS
UNITS = DURATION | SIZE | frozenset({"%", "$", "€", "£", "am", "pm", "px", "ms", "gb", "mb"})


def shape(word: str) -> str:
    """"Xxxx" -> "Xx", "8443" -> "d", "v1.2" -> "xd.d": runs of one class collapsed."""
    out = re.sub(r"[A-Z]+", "X", word)
    out = re.sub(r"[a-z]+", "x", out)
    out = re.sub(r"\d+", "d", out)
    return out[:6]


def _value_marks(text: str, tokens: list[Token]) -> list[str]:
    """Per token, "B-kind"/"I-kind" where the engine's value reader finds a value, else ""."""
    marks = [""] * len(tokens)
    cursor = 0
    for ref, kind in find_references(text):
        at = text.find(ref, cursor)
        if at < 0:
            at = text.find(ref)
        if at < 0:
            continue
        cursor = at + len(ref)
        inside = [i for i, (_, s, e) in enumerate(tokens) if s < at + len(ref) and e > at]
        for n, i in enumerate(inside):
            marks[i] = marks[i] or ("B-" if n == 0 else "I-") + kind
    return marks


def _rule_marks(text: str, tokens: list[Token]) -> tuple[list[str], bool]:
    """Per token, what the rules read there ("old", "new-corr", "new", ""), and whether they
    read any correction in the message."""
    marks = [""] * len(tokens)
    corrects = False
    for found in message_facts(text, "user"):
        if not found.value or found.kind in ("correction", "decision", "question"):
            corrects = corrects or found.correction
            continue
        corrects = corrects or found.correction
        label = "old" if found.old else ("new-corr" if found.correction else "new")
        at = text.find(found.value)
        if at < 0:
            continue
        for i, (_, s, e) in enumerate(tokens):
            if s < at + len(found.value) and e > at and not marks[i]:
                marks[i] = label
    return marks, corrects


def token_features(text: str, tokens: list[Token], stacked: bool) -> list[list[str]]:
    words = [t[0].lower() for t in tokens]
    values = _value_marks(text, tokens)
    rules, _ = _rule_marks(text, tokens) if stacked else ([""] * len(tokens), False)
    question = text.rstrip().endswith("?")
    out: list[list[str]] = []
    n = len(tokens)
    for i, (word, _, _) in enumerate(tokens):
        w = words[i]
        f = ["b", f"w={w}", f"sh={shape(word)}", f"p3={w[:3]}", f"s3={w[-3:]}",
             f"v={values[i] or '-'}", f"q={question}"]
        if any(c.isdigit() for c in word):
            f.append("digit")
        if word[:1].isupper() and i > 0:
            f.append("cap-inside")
        if w in UNITS:
            f.append("unit")
        for d in (-2, -1, 1, 2):
            j = i + d
            f.append(f"w{d}={words[j] if 0 <= j < n else '<>'}")
            f.append(f"v{d}={(values[j] or '-')[:1] if 0 <= j < n else '<>'}")
        f.append(f"w-1w={words[i - 1] if i else '<>'}|{w}")
        f.append(f"ww+1={w}|{words[i + 1] if i + 1 < n else '<>'}")
        for d in range(1, 6):  # the structure words nearby, by side and distance
            if i - d >= 0 and words[i - d] in STRUCTURE:
                f.append(f"L{min(d, 3)}={words[i - d]}")
            if i + d < n and words[i + d] in STRUCTURE:
                f.append(f"R{min(d, 3)}={words[i + d]}")
        f.append(f"pos={min(3, 4 * i // max(n, 1))}")
        if stacked:
            f.append(f"r={rules[i] or '-'}")
            f.append(f"r|v={rules[i] or '-'}|{(values[i] or '-')[:1]}")
        out.append(f)
    return out


def message_features(text: str, tokens: list[Token], stacked: bool) -> list[str]:
    """Bag of words and bigrams, the first words, the question mark and (stacked) whether the
    rules read a correction: what decides the mood and whether anything is superseded."""
    words = [t[0].lower() for t in tokens]
    f = ["b", f"q={text.rstrip().endswith('?')}", f"first={'|'.join(words[:2])}"]
    f += [f"w={w}" for w in set(words)]
    f += [f"bi={a}|{b}" for a, b in set(itertools.pairwise(words))]
    values = sum(1 for m in _value_marks(text, tokens) if m.startswith("B-"))
    f.append(f"values={min(values, 3)}")
    if stacked:
        marks, corrects = _rule_marks(text, tokens)
        f.append(f"rules-correct={corrects}")
        f.append(f"rules-old={'old' in marks}")
    return f
