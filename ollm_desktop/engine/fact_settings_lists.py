"""A list of settings: "rank 16, alpha 32, dropout 0.05", "context length 4096, micro-batch 8".

``fact_phrase_forms.noun_numbers`` reads a lower-case noun and the number after it as one
name ("track 5", "row 9", "bus 42"): the number names a thing of that kind. In a list of such
pairs whose nouns differ, each noun is a setting and the number its value: "rank 16, alpha
32" says the rank is 16 and the alpha 32, as "the rank is 16" does, so that "bump the rank to
64" replaces 16. Pairs of one noun ("track 3, track 5") stay names: they list things of one
kind, and so do pairs after a preposition ("in rack 6, shelf 3": places). The list is
structure: items joined by a comma or "and", each a labelled number with
at most two words of its key before it ("context length 4096").
"""

from __future__ import annotations

from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.fact_words import PREPOSITIONS, Tok

_JOINS = frozenset({",", "and"})
_KEY_WORDS = 2  # "context length 4096": words of the key before the label


def listed_setting(tokens: list[Tok], i: int, labels: dict[int, str]) -> bool:
    """The labelled number at ``i`` is one item of a list of settings: a neighbouring item,
    across a comma or "and", is a labelled number of another noun."""
    listed = any(labels[j] != labels[i] for j in (_next_item(tokens, i, labels),
                                                 _previous_item(tokens, i, labels)) if j >= 0)
    return listed and not _placed(tokens, i, labels)


def _placed(tokens: list[Tok], i: int, labels: dict[int, str]) -> bool:
    """The list is a preposition's object ("holds my samples in rack 6, shelf 3"): places
    named, not settings given."""
    while (j := _previous_item(tokens, i, labels)) >= 0:
        i = j
    k = i - 2  # before the label's "·"
    while k >= 0 and _key_word(tokens[k]) and tokens[k].word not in PREPOSITIONS and \
            k > i - 2 - _KEY_WORDS:
        k -= 1
    return k >= 0 and tokens[k].word in PREPOSITIONS


def _next_item(tokens: list[Tok], i: int, labels: dict[int, str]) -> int:
    k = i + 1
    if k >= len(tokens) or tokens[k].word not in _JOINS:
        return -1
    while k < len(tokens) and tokens[k].word in _JOINS:
        k += 1
    for _ in range(_KEY_WORDS + 1):
        if k + 1 < len(tokens) and tokens[k].word == "·" and k + 1 in labels:
            return k + 1
        if k >= len(tokens) or not _key_word(tokens[k]):
            return -1
        k += 1
    return -1


def _previous_item(tokens: list[Tok], i: int, labels: dict[int, str]) -> int:
    k = i - 2  # before the label's "·"
    for _ in range(_KEY_WORDS + 1):
        if k < 0 or tokens[k].word in _JOINS:
            break
        if not _key_word(tokens[k]):
            return -1
        k -= 1
    if k < 0 or tokens[k].word not in _JOINS:
        return -1
    while k >= 0 and tokens[k].word in _JOINS:
        k -= 1
    return k if k in labels else -1


def _key_word(token: Tok) -> bool:
    return token.value is None and token.word[:1].isalpha()


def settings_named(olds: list[Fact], key: str) -> list[Fact]:
    """The entries an old number names, among equal numbers of several settings ("rank 16,
    alpha 16", then "alpha is 32 not 16"): those of the replacement's setting ("accum" names
    "accumulation"); with none of its setting among them, every one, as before."""
    if len({f.key for f in olds}) < 2 or len({f.value for f in olds}) > 1 or \
            not all(f.ref_kind == "number" for f in olds):
        return olds  # (one number under several keys only: "Webpack" names "Webpack 5" too)
    words = key.split("|")[1].split() if key.count("|") == 2 else []
    return [f for f in olds if _same_setting(f.key, words)] or olds


def _same_setting(key: str, words: list[str]) -> bool:
    theirs = key.split("|")[1].split() if key.count("|") == 2 else []
    return bool(words) and len(words) == len(theirs) and all(
        a.startswith(b) or b.startswith(a) for a, b in zip(words, theirs, strict=True))
