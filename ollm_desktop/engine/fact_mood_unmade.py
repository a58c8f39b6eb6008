"""A change its own clause says is not made (issue 28, mood in real text).

A change verb under a negation states no new value: "we have no plans to move it to
September", "we won't switch the database to Postgres", "the port is not changing to 9000",
"we never raised the fee to £50", "don't move the call to Friday". The value the change
would go to is unasserted ("negated"), from the negation to that value; what follows it
("..., it stays 8080", "..., we'll move it to Valencia instead") keeps its own clause's
mood, so a sentence with more after its negated change is read as a statement.

The negation is a closed class ("not", "no", "never", "n't" read as "not"); between it and
the change verb stand at most a few words of the same verb phrase ("plans to", "going to",
"be", "actually"), never a value, a clause edge or a new subject ("not sure we moved it to
10": the doubt is another clause's), nor a verb whose negation asserts its complement
("don't forget to set it to 9000" sets it). A verb of going to (or for) a value counts as a
change ("we can't go to $4,000", "we are NOT going to 30 days", "I won't go for 23:00"),
unless a "but" follows ("isn't going to Y but to X"). "No longer" is a correction's shape,
and "not Y" before a value ("X, not Y") negates the value, not a change: neither is read here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ollm_desktop.engine import fact_mood_words as cues
from ollm_desktop.engine.fact_verbs import changes
from ollm_desktop.engine.fact_words import Tok, closed

UnmadeMark = tuple[int, int, Literal["negated"]]

NEGATORS = closed("not no never nor")
# Verbs whose negation asserts their complement ("don't forget to", "never fail to").
IMPLICATIVE = closed("forget forgets forgot fail fails failed hesitate neglect")
GO = closed("go goes going went")  # "not going to 30 days": a move to a value
REACH = 4  # words of the verb phrase between the negation and the change verb
_EDGE = cues.CLAUSE_EDGE | {"than", "that", "because", "if", "when", "since"}


def _verb_after(tokens: Sequence[Tok], i: int, b: int) -> int:
    """The change verb a negation at ``i`` governs (-1: none)."""
    for j in range(i + 1, min(b, i + 2 + REACH)):
        token = tokens[j]
        if token.value is not None or token.word in _EDGE or token.word in cues.SUBJECTS \
                or not token.word[:1].isalpha():
            return -1
        if token.word in IMPLICATIVE:
            return -1  # "don't forget to change it to 9000": do change it
        if changes(token.word):
            return j
        if token.word in GO and j + 2 < b and tokens[j + 1].word in ("to", "for") and \
                tokens[j + 2].value is not None and \
                not any(t.word == "but" for t in tokens[j + 2:b]):
            return j  # "we can't go to $4,000"; "isn't going to Y but to X" is "not Y but X"
    return -1


def unmade_changes(tokens: Sequence[Tok], a: int, b: int) -> list[UnmadeMark]:
    """The ranges of a clause ``(a, b)`` from a negation to the value its change would set."""
    out: list[UnmadeMark] = []
    for i in range(a, b - 1):
        word = tokens[i].word.lower()  # ("NOT", a word shouted in a sentence)
        if not (word in NEGATORS or word.endswith("n't")) or \
                tokens[i + 1].word in ("longer", "more"):
            continue  # (a leading "Don't" stays one token: ``fact_words.contracted``)
        verb = _verb_after(tokens, i, b)
        if verb < 0:
            continue
        stop = verb + 1
        while stop < b and tokens[stop].word not in (",", ";", "but", "and"):
            if tokens[stop].value is not None and tokens[stop - 1].word in ("to", "for"):
                break
            stop += 1
        # to the value after "to"; else to the clause's end (a name the grammar finds later)
        end = stop + 1 if stop < b and tokens[stop].value is not None else stop
        out.append((i, end, "negated"))
    return out
