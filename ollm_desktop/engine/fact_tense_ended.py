"""Past states said to have ended, beside ``fact_tense``'s before-times (issue 28: a state
the user says is over is no current value, and replaces none).

- **Until a time**: a clause in the past tense with "until" / "till" / "up until" and a
  date, a month or a year ("We extracted RNA with TRIzol until March", "I was vegan for
  three years until 2021", "we paid $900 until last May"): the state ended then. A present
  ("we're on Trello until March", "the shop is open until 9 pm") or a change ("we postponed
  it until Friday", ``fact_tense`` asks for none) is read as before.
- **A span or a stage that is over**: "till he retired", "as a student", "as a kitten",
  "the first two years", in a clause in the past tense.
- **A value named old**: a value (no name of words: "the old Bosch died" is
  ``fact_failed_olds``'s) right after a determiner and an adjective of
  before, with at most one noun between ("the old 07700 900456 is dead", "my previous
  number 555-0123", "our former address 3 Oak Road"), in a segment with no change verb and
  no correction's word: that value is past, whatever the tense of its clause.
- **Before that, at first**: "before that" / "before then" / "prior to that", "at first",
  "at the start", "in the beginning", "early on", "initially" in a clause in the past tense
  ("… then spent 6 years in Dublin before that"): a time before the one just told.
- **When a past state held**: a past copula in a clause with "when" and a subject and a
  past verb of living, working, having or being ("it was 50 min when I lived out in
  Kelsterbach", "rent was $700 when we had the old flat"): the clause tells how it was while
  that state held, which the past tense says is over. A one-off event ("the server crashed
  when I deployed 2.1") and a present ("it's 25 min when I take the tram") are read as before.

The words are closed classes: the prepositions of ending, the pronouns, and the past verbs
of a state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ollm_desktop.engine.fact_mood_words import ANTERIOR_ADJ, CONTRAST
from ollm_desktop.engine.fact_words import DETERMINERS, Tok, closed, is_change

_UNTIL = closed("until till")
_MONTHS = closed("january february march april may june july august september october "
                 "november december jan feb mar apr jun jul aug sep sept oct nov dec")
_BEFORE = (("before", "that"), ("before", "then"), ("prior", "to", "that"))
_AT_FIRST = (("at", "first"), ("at", "the", "start"), ("in", "the", "beginning"),
             ("early", "on"))
_WHO = closed("i we he she they")
# past verbs of a state that lasts (living, working, having, being somewhere)
_STATE = closed("lived was were had worked stayed studied owned rented used drove "
                "commuted")
_TIMES = closed("last the that")  # "until last May", "until the spring"
_STAGES = closed("kid child teen teenager student undergrad baby toddler puppy kitten "
                 "youngster beginner")  # a stage of life that is over
_SPAN_UNITS = closed("year years month months week weeks")
TRIGGERS = _UNTIL | _STAGES | closed("when first before prior start beginning early "
                                     "initially")  # (the readers' pre-checks)


def _retired(words: Sequence[str], j: int) -> bool:
    """A clause of a subject and a past verb after "until" ("till he retired", "until we
    moved")."""
    return j + 1 < len(words) and words[j] in _WHO | {"it", "you"} and (
        words[j + 1].endswith("ed") or words[j + 1] in _PAST_VERBS)


_PAST_VERBS = closed("left quit sold broke died got went came closed")


def ended(clause: Sequence[Tok], words: Sequence[str], tensed: bool, stative: bool) -> bool:
    """A past state the clause says ended (``tensed``: a verb in the past before any "now";
    ``stative``: a past copula or auxiliary)."""
    if not tensed:
        return False
    for i, word in enumerate(words[:-1]):
        if word in _UNTIL and (_time(clause, words, i + 1) or _retired(words, i + 1)):
            return True
        if word == "as" and words[i + 1] in ("a", "an") and words[i + 2:i + 3] and \
                words[i + 2] in _STAGES:
            return True  # "as a student I went to bed at 2am", "… as a kitten"
        if word == "first" and i and words[i - 1] == "the" and _SPAN_UNITS.intersection(
                (t.value[2].split()[-1] if t.value else t.word) for t in clause[i + 1:i + 3]):
            return True  # "we were in Camden the first two years"
        if any(tuple(words[i:i + len(p)]) == p for p in _BEFORE + _AT_FIRST) or (
                word == "initially" and i <= 1):  # (fronted: "initially scheduled at X"
            return True  # is a participle's) ("at the start I worked 8 to 6")
        if stative and word == "when" and words[i + 1] in _WHO and \
                words[i + 2:i + 3] and words[i + 2] in _STATE:
            return True
    return False


def _time(clause: Sequence[Tok], words: Sequence[str], j: int) -> bool:
    """A date, a month or a year at ``j`` (past "last" / "the": "until last May")."""
    j += j < len(words) - 1 and words[j] in _TIMES
    if j >= len(words):
        return False
    token = clause[j]
    if token.value is not None:  # a date, a year, a time, "year 3"
        return True
    return words[j] in _MONTHS or (len(words[j]) == 4 and words[j][:2] in ("19", "20") and
                                   words[j].isdigit()) or (  # "until year 3", "till age 12"
        words[j] in ("year", "grade", "age") and words[j + 1:j + 2] != [] and
        words[j + 1].isdigit())


def named_old(tokens: Sequence[Tok], a: int, b: int) -> list[tuple[int, int, Literal["past"]]]:
    """The values of a segment ``(a, b)`` named old by the words before them."""
    out: list[tuple[int, int, Literal["past"]]] = []
    if any(is_change(t.word) or t.word in CONTRAST for t in tokens[a:b]):
        return out  # a correction's old value: "Lower it to 2 GB, the earlier 8 GB starved …"
    for i in range(a + 1, b):
        if tokens[i].word not in ANTERIOR_ADJ or tokens[i - 1].word not in DETERMINERS:
            continue
        j = i + 1
        if j < b - 1 and tokens[j].value is None and tokens[j].word.isalpha() and \
                tokens[j].word not in _NOT_NOUNS:
            j += 1  # one noun between ("my old number 555-0123"; "the old parser see v1.2")
        value = tokens[j].value if j < b else None
        if value is not None and (value[3] != "name" or any(c.isdigit() for c in value[2])):
            out.append((j, j + 1, "past"))
    return out


_NOT_NOUNS = closed("is was are were has had and or but one ones")
