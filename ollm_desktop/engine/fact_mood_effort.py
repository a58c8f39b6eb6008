"""A change worked for, not made (issue 28: a value someone is still trying to bring about
never replaces the one that holds; ``fact_mood_proposed`` asks this module per segment).

"I decided to help my neighbors get the speed limit changed to 25 MPH", "we're trying to get
the fee lowered to $40", "I'm fighting to have the deadline moved to May": the causative
"get / have NP <participle of change> to X" after a verb of effort names a change still to
be won. From "get" to its clause's end (a figure whose unit the grammar reads later, "25
MPH", goes with it) the clause is tentative. The causative alone ("we got the
limit raised to 100") or after a verb of success ("managed to get it moved to May") is a
change made and is read as before; so is the effort verb without the causative ("I helped
move the standup to 10:00").

The words are closed classes: the verbs of effort (helping, trying, working, fighting,
campaigning, hoping; "helped" is a change helped through: "Last year I helped get the limit
changed to 25 MPH"), the causative verbs, and a window of a few words between them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ollm_desktop.engine.fact_verbs import changes
from ollm_desktop.engine.fact_words import Tok, closed

EffortMark = tuple[int, int, Literal["tentative"]]

EFFORT = closed("help helps helping try tries trying tried work works working fight "
                "fights fighting campaign campaigning campaigns hope hopes hoping attempt "
                "attempting")
CAUSATIVE = closed("get have")
REACH = 6  # words between the effort verb and "get", and between "get" and the participle
_EDGE = closed(", ; : — – . ! ? but so because")
_NOUN_BEFORE = closed("of a the some much more hard")  # "a lot of work": no verb of effort
_DONE = closed("finally now already")  # "we finally have the fee reduced to $40": made


def may_strive(words: set[str]) -> bool:
    """The words the structure needs (a cheap pre-check)."""
    return bool(words & EFFORT) and bool(words & CAUSATIVE)


def _target(tokens: Sequence[Tok], i: int, b: int) -> int:
    """The end of "NP <participle of change> to X" after a causative at ``i`` (-1: none)."""
    for j in range(i + 2, min(b - 2, i + 2 + REACH)):
        word = tokens[j].word
        if word in _EDGE or tokens[j].value is not None:
            return -1
        if word.endswith("ed") and changes(word) and tokens[j + 1].word == "to" and (
                tokens[j + 2].value is not None or tokens[j + 2].word[:1].isdigit()):
            return next((x for x in range(j + 3, b) if tokens[x].word in _EDGE), b)
    return -1


def effort_marks(tokens: Sequence[Tok], a: int, b: int) -> list[EffortMark]:
    """The ranges of a segment ``(a, b)`` from a causative after a verb of effort to the value
    of the change it works for."""
    out: list[EffortMark] = []
    for i in range(a, b):
        if tokens[i].word not in CAUSATIVE:
            continue
        effort = max((k for k in range(max(a, i - REACH), i) if tokens[k].word in EFFORT),
                     default=-1)
        if effort < 0 or any(tokens[k].word in _EDGE for k in range(effort, i)) or \
                (effort > a and tokens[effort - 1].word in _NOUN_BEFORE) or \
                tokens[i - 1].word in _DONE:
            continue  # ("help my neighbors on Edmund Street get …": a name in the NP; "a lot
            # of work", a noun; "we finally have the fee reduced": a change made)
        if (end := _target(tokens, i, b)) > 0:
            out.append((i, end, "tentative"))
    return out
