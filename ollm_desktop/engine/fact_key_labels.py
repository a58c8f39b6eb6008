"""Two keys that name one noun with two labels ("Hall A" and "Hall B", "room 2" and "room
3", "phase 1" and "phase 2"): two things, whatever words their statements share. A label is
a single letter or a number after the noun it labels.
``fact_topics`` asks it before reading a key named in other words (one shared word, "hall",
never makes "Hall A is 120 seats now" a change of Hall B's capacity).
"""

from __future__ import annotations

from itertools import pairwise


def two_labels(key: str, other: str) -> bool:
    """``key`` and ``other`` (entity|attribute|unit) name one noun with a label of its own
    each ("hall a" / "hall b capacity": the one key may say what of the thing it is)."""
    mine, theirs = _labelled(key), _labelled(other)
    return any(noun in theirs and theirs[noun] != label for noun, label in mine.items())


def _labelled(key: str) -> dict[str, str]:
    """The key's nouns that a label follows, and their labels ("hall b capacity": hall, b)."""
    words = " ".join(key.split("|")[:2]).split()
    return {noun: label for noun, label in pairwise(words)
            if _label(label) and not _label(noun)}


def _label(word: str) -> bool:
    """A single letter or a number: what tells one of a row of alike things from another."""
    return (len(word) == 1 and word.isalpha()) or word.isdigit()
