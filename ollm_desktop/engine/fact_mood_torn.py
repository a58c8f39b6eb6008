"""A choice between two values not yet made (issue 28: an undecided choice supersedes
nothing; a module of its own because ``fact_mood_open`` is full, and it asks this one).

"between X and Y" is a range where it states ("keep it between 18 and 20 degrees", "the
delivery comes between 9 and 11"), and a choice left open after a word of choosing or of
being undecided before it: "torn between 2200 and 2400 mAh", "still deciding between the
Tuesday and the Thursday slot", "can't choose between oak or walnut", "stuck between 3.11
and 3.12", "haven't decided between …", "weighing up 40 vs 45 kg", or a noun of choice ("the
choice is between …", "it's a toss-up between …"). Neither value is the user's yet: the
pair, from the word of choosing to the second value, is marked tentative; the clauses around
it (the value that holds, "flying on the 1800 mAh packs") are read as before.

The words are closed classes: the participles and adjectives of choosing and of indecision,
and the words that join the two choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ollm_desktop.engine.fact_words import DETERMINERS, PREPOSITIONS, Tok, closed

CHOOSING = closed("torn deciding decide decided choosing choose undecided stuck debating "
                  "dithering wavering hesitating weighing picking pick split caught choice "
                  "toss-up decision dilemma")
_BETWEEN = closed("between up")  # "torn between", "weighing up"
_WEIGH = closed("weighing weigh weighed")  # the only verbs "up" joins to a choice
_ADVERBS = closed("still a bit kinda really kind of totally honestly is 's was")
_JOINS = closed("and or vs vs. versus /")
REACH = 4  # words from "between" to each value ("between the blue and the red 2200s")


def may_tear(words: set[str]) -> bool:
    """The words the structure needs (a cheap pre-check)."""
    return bool(words & CHOOSING) and bool(words & _BETWEEN)


def _choosing(tokens: Sequence[Tok], a: int, i: int) -> int:
    """Where the word of choosing before "between" at ``i`` stands (-1: none)."""
    k = i - 1
    while k >= a and tokens[k].word in _ADVERBS:
        k -= 1
    return k if k >= a and tokens[k].word in CHOOSING else -1


def _value_from(tokens: Sequence[Tok], k: int, b: int) -> int:
    """The first value from ``k`` past determiners and prepositions (-1: none)."""
    for x in range(k, min(b, k + REACH)):
        if tokens[x].value is not None or tokens[x].word[:1].isdigit():
            return x  # (a bare figure is read as a value later: "between 2200 and 2400")
        if not (tokens[x].word in DETERMINERS or tokens[x].word in PREPOSITIONS or
                tokens[x].word.isalpha()):
            return -1
    return -1


def torn_marks(tokens: Sequence[Tok], a: int, b: int,
               ) -> list[tuple[int, int, Literal["tentative"]]]:
    """The ranges of a clause ``(a, b)`` that name a choice not yet made."""
    out: list[tuple[int, int, Literal["tentative"]]] = []
    for i in range(a, b - 3):
        if tokens[i].word not in _BETWEEN or (at := _choosing(tokens, a, i)) < 0 or (
                tokens[i].word == "up" and tokens[at].word not in _WEIGH):
            continue  # ("I pick up the kids between 3 and 3:30": a range, no choice)
        first = _value_from(tokens, i + 1, b)
        if first < 0 or first + 2 >= b or tokens[first + 1].word not in _JOINS:
            continue
        second = _value_from(tokens, first + 2, b)
        if second > 0:
            out.append((at, second + 1, "tentative"))
    return out
