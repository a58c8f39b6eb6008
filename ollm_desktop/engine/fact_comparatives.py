"""A value after "than": the standard of a comparison, or the value a preference replaces.

"X rather than Y" (and "sooner ... than Y") names Y as the value given up: a correction's
shape. A bare comparative names no replaced value: "MySQL is faster than Postgres", "I'm
more familiar with yarn than pnpm", "less than 180 days left", "no later than Friday"
compare or bound, and change no key. The word before "than" decides, not a list of the
adjectives a comparison may use (every English adjective has a comparative).

Excess and grade are degrees too: a value weighed as "too" much ("15 seconds is too much",
"128 is far too big") is turned down, and one graded ("npm 5 is pretty cool", "v3 is really
stable") is praised; neither clause sets a key's value (``fact_mood_open``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ollm_desktop.engine.fact_old_values import is_old
from ollm_desktop.engine.fact_words import (
    BOUNDARY,
    COPULAS,
    DETERMINERS,
    HEDGES,
    MODALS,
    PRONOUNS,
    Tok,
    is_change,
)

# the two English comparatives of preference: what follows "than" is given up
_PREFERENCE = frozenset({"rather", "sooner"})
# "other than Y", "else than Y": an exclusion, left to the old-value reading
_EXCLUSION = frozenset({"other", "else"})
_CHANGED = frozenset({"now", "instead", "anymore", "longer"})  # a correction's own shape
_SEEMING = frozenset({"seems", "seem", "looks", "feels", "proving", "proves", "'s"})
# degree adverbs before a predicate adjective: an excess ("too") or a grade ("pretty cool")
_DEGREE = frozenset({"too", "pretty", "very", "really", "quite", "super", "fairly",
                     "extremely"})
_OPENING = frozenset({",", "and", "but", "so", "or", "then", "while", "whereas"})
_REACH = 8  # words back from "than" that a "rather" may stand ("rather use X than Y")


def compared(tokens: Sequence[Tok], i: int) -> bool:
    """Is the value at ``i`` the standard after a comparison's "than" (no replaced value)?"""
    j = i
    while j > 0 and tokens[j - 1].word == "·":  # past the value's own words
        j -= 1
    k = j - 1
    while k >= 0 and tokens[k].word in DETERMINERS:
        k -= 1
    if k < 0 or tokens[k].word != "than":
        return False
    reach = []
    for t in reversed(tokens[max(0, k - _REACH):k]):
        if t.word in BOUNDARY:
            break
        reach.append(t.word)
    if reach and reach[0] in _EXCLUSION:
        return False
    # a sentence that changes something keeps its "than" as the value it gives up ("we
    # switched to MySQL since it scales better than Postgres")
    return not _PREFERENCE & set(reach) and not _changes(tokens)


def _changes(tokens: Sequence[Tok]) -> bool:
    return any(is_change(t.word) or t.word in _CHANGED for t in tokens)


def compared_values(tokens: Sequence[Tok], a: int, b: int,
                    ) -> list[tuple[int, int, Literal["tentative"]]]:
    """A clause that compares two things ("MySQL is faster than Postgres", "I'm more familiar
    with yarn than pnpm", "8443 is slower than 8080") states neither as a key's value: it
    asserts nothing (``fact_mood``). A bound ("less than 180 days", "no later than Friday")
    has a found value after its "than" and none before it; a clause that also changes
    something ("we switched to Postgres since it scales better than MySQL") keeps its change.
    """
    if _changes(tokens):
        return []
    for k in range(a, b):
        if tokens[k].word != "than" or not compared(tokens, _after(tokens, k, b)) or \
                k + 1 >= b:
            continue
        after = _after(tokens, k, b)
        before = next((x for x in range(k - 1, a - 1, -1)
                       if tokens[x].value is not None or tokens[x].word == ","), None)
        if before is not None and tokens[before].value is not None:
            return [(a, b, "tentative")]
        if tokens[after].value is None and tokens[after].word not in PRONOUNS:
            # a thing not found yet ("than pnpm"), not a clause ("than we thought"): from
            # the comparison's own start ("the stand-up is 9:45, earlier than usual")
            return [(a if before is None else before + 1, b, "tentative")]
    return []


def judged_values(tokens: Sequence[Tok], a: int, b: int,
                  ) -> list[tuple[int, int, Literal["tentative"]]]:
    """A value judged by an excessive degree ("15 seconds is too much", "50 is far too big",
    "8 GB seems too small") is weighed and turned down, not stated as a key's value: its
    clause asserts nothing. Only a value before the "too" (the judged subject): "the rent is
    too high at £1,200" and "the limit of 50 is too low" state the value they complain of:
    the judged value opens its clause. A sentence that changes the value ("600 was too short
    so it was set to 900") leaves the judged one to the correction, as its old value."""
    if _changes_unhedged(tokens):
        return []
    for k in range(a + 1, b):
        if tokens[k].word not in _DEGREE or k + 1 >= b or not tokens[k + 1].word.isalpha():
            continue
        head = next((x for x in range(k - 1, a - 1, -1) if _valued(tokens[x]) or
                     tokens[x].word in BOUNDARY), None)
        between = [t.word for t in tokens[head + 1:k]] if head is not None else []
        if head is None or not _valued(tokens[head]) or len(between) > 5 or \
                not any(w in COPULAS or w in _SEEMING for w in between):
            continue
        edge = head
        while edge > a and (tokens[edge - 1].word in DETERMINERS or
                            tokens[edge - 1].word.endswith("ly")):
            edge -= 1  # ("honestly 128 is far too big")
        if edge == a or tokens[edge - 1].word in _OPENING or tokens[edge - 1].word in BOUNDARY:
            stop = next((x for x in range(k, b) if tokens[x].word in BOUNDARY), b)
            return [(edge, stop, "tentative")]  # ("…, let's try 10 s" is a clause of its own)
    return []


def _changes_unhedged(tokens: Sequence[Tok]) -> bool:
    """A change word with no hedge before it in its stretch between commas ("…, so probably
    don't need yarn anymore" changes nothing yet)."""
    hedged = False
    for t in tokens:
        if t.word in BOUNDARY:
            hedged = False
        hedged = hedged or t.word in HEDGES or t.word in MODALS
        if not hedged and (is_change(t.word) or t.word in _CHANGED):
            return True
    return False


def _valued(token: Tok) -> bool:
    """A value found, or a number the grammar will find ("50 is too big")."""
    return token.value is not None or token.word[:1].isdigit()


def _after(tokens: Sequence[Tok], k: int, b: int) -> int:
    """The value after the "than" at ``k`` (past its determiners), or ``k`` when none."""
    j = k + 1
    while j < b and tokens[j].word in DETERMINERS:
        j += 1
    return j if j < b else k


def replaced_value(tokens: list[Tok], i: int) -> bool:
    """Whether the value at ``i`` is the one being replaced (``fact_old_values.is_old``),
    unless it only stands after a comparison's "than"."""
    return is_old(tokens, i) and not compared(tokens, i)
