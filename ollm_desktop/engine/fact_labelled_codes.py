"""A code-shaped word after its label, one item of a list of values: "redis maxmemory 2gb,
policy allkeys-lru", "lb on port 443; mode round-robin", "cache ttl 300s, eviction
volatile-lru".

"eviction policy is allkeys-lru" and "policy: allkeys-lru" were read (a copula, a colon), the
terse list item without either was not, so a change of the list's other item ("redis
maxmemory 6gb") left the policy unread. The value's shape decides, never its words: a lower-
case word of letters and digits joined by "-" or "_" (no prose word is spelled so; a date or
a range opens with a digit and is read elsewhere), one or two plain words before it (its
label, the key), a comma or ";" before those (an item of a list whose items before hold a
value: "Long day at work, feeling run-down" is no list of values), and the item ends after the
word. "ok, follow-up tomorrow" goes on after its word; "a well-known fix" has a determiner.
Split from ``fact_values`` (full): ``fact_name_runs.name_runs`` asks it first.
"""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_words import (
    AUXILIARIES,
    BOUNDARY,
    Tok,
    is_change,
    open_class,
)

_CODE = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+")
_ITEM = frozenset({",", ";"})
# Verbs that point to a thing rather than label it ("done, see follow-up", "pls try
# dry-run"): a closed class, no label.
_POINTING = frozenset({"see", "check", "read", "try", "ask", "ping", "open", "visit", "run",
                       "use", "install", "call", "email", "cc", "re", "pls", "please"})


def _label(token: Tok) -> bool:
    word = token.word
    return token.value is None and open_class(word) and word not in AUXILIARIES and \
        not is_change(word) and word not in _POINTING


def labelled_codes(sentence: str, tokens: list[Tok], first: int) -> None:
    """Mark, in place, each code-shaped word that ends a list's item after its label."""
    for i in range(first + 2, len(tokens)):
        token = tokens[i]
        if token.value is not None or not _CODE.fullmatch(token.word) or \
                sentence[token.start:token.end] != token.word:  # (lower case as written)
            continue
        if i + 1 < len(tokens) and tokens[i + 1].word not in BOUNDARY:
            continue
        if not _label(tokens[i - 1]):
            continue
        before = i - 2 if tokens[i - 2].word in _ITEM else \
            i - 3 if i - 3 >= first and _label(tokens[i - 2]) else -1
        if before <= first or tokens[before].word not in _ITEM or not any(
                t.value is not None or t.word[:1].isdecimal() for t in tokens[first:before]):
            continue  # (a list of values: "Long day at work, feeling run-down" is none)
        token.value = (token.start, token.end, token.word, "name")
        token.word = ""
