"""Is a planted fact still in front of the model? (Context retention, no judge needed.)

A fact is retained when its answer string occurs in the request, after normalising case,
whitespace and typographic quotes and dashes. A correction is retained only when the latest
value is present and the stale one is either absent or marked as replaced near one of its
occurrences ("no longer", "superseded", "instead of", ...): a context that presents the old value
as current does not know the fact.
"""

from __future__ import annotations

import re

_SPACE = re.compile(r"\s+")
_TRANSLATE = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                            "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u00a0": " ",
                            "\u202f": " ", "`": ""})
STALE_MARKERS = ("no longer", "not in", "not ", "instead", "superseded", "replaced", "replaces",
                 "was wrong", "earlier", "previous", "formerly", "old ", "outdated", "changed",
                 "moved", "corrected", "correction", "any more", "anymore")
WINDOW = 80  # characters either side of a stale value searched for a marker
DEPTH_BUCKETS = ((0, 20, "0-20"), (20, 50, "20-50"), (50, 100, "50-100"), (100, 10**9, "100+"))


def normalise(text: str) -> str:
    """Lower case, one space for any whitespace, plain quotes and dashes, no backticks."""
    return _SPACE.sub(" ", text.translate(_TRANSLATE)).strip().lower()


def request_text(messages: list[dict[str, str]]) -> str:
    """Everything the model is sent, normalised (roles do not matter for retention)."""
    return normalise("\n".join(str(m.get("content", "")) for m in messages))


def stale_marked(text: str, stale: str) -> bool:
    """True when some occurrence of ``stale`` has a replacement marker near it."""
    start = 0
    while (at := text.find(stale, start)) >= 0:
        near = text[max(0, at - WINDOW): at + len(stale) + WINDOW]
        if any(marker in near for marker in STALE_MARKERS):
            return True
        start = at + 1
    return False


def retained(text: str, answer: str, stale: str | None = None) -> bool:
    """``text`` must already be normalised (``request_text``)."""
    if normalise(answer) not in text:
        return False
    if stale is None:
        return True
    old = normalise(stale)
    return old not in text or stale_marked(text, old)


def bucket(depth: int) -> str:
    """The depth bucket of a fact planted ``depth`` turns before the probe."""
    for low, high, name in DEPTH_BUCKETS:
        if low <= depth < high:
            return name
    return DEPTH_BUCKETS[-1][2]
