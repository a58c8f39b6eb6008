"""Two keys that name one noun with two labels ("Hall A" and "Hall B", "room 2" and "room
3", "phase 1" and "phase 2"): two things, whatever words their statements share. A label is
a single letter or a number; the keys' other words are alike, word for word, in order.
``fact_topics`` asks it before reading a key named in other words (one shared word, "hall",
never makes "Hall A is 120 seats now" a change of Hall B's capacity).
"""

from __future__ import annotations


def two_labels(key: str, other: str) -> bool:
    """``key`` and ``other`` (entity|attribute|unit) differ in one word only, and there each
    has a label of its own ("hall a" / "hall b")."""
    words = " ".join(key.split("|")[:2]).split()
    others = " ".join(other.split("|")[:2]).split()
    if len(words) != len(others) or len(words) < 2:
        return False
    differ = [(a, b) for a, b in zip(words, others, strict=True) if a != b]
    return len(differ) == 1 and _label(differ[0][0]) and _label(differ[0][1])


def _label(word: str) -> bool:
    """A single letter or a number: what tells one of a row of alike things from another."""
    return (len(word) == 1 and word.isalpha()) or word.isdigit()
