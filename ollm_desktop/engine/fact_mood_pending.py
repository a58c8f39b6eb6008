"""A bare word that the choice is still pending (issue 28: an undecided plan supersedes
nothing; a module of its own because ``fact_mood_open`` and ``fact_mood`` are full, and
``fact_mood_open`` asks this one per segment).

"TBD" or "not sure yet" beside a change leaves its segment open (``fact_mood._doubt``).
English says the same with a clause that is nothing but a deliberation with no object of
its own: a progressive verb of deciding after "still" ("still deciding", "we're still
weighing it up", "still thinking about it", "still mulling it over"), a negated or
unassigned decision ("haven't decided", "nothing decided yet", "nobody's decided", "not
decided", "yet to decide", "to be decided"), "undecided", the idioms "could go either way" and
"not set in stone". Such a clause, with no value in it, leaves its whole
segment unasserted: "moving standup to 10, still deciding", "we might extend to 10 nights,
could go either way", "someone floated 3pm, nobody decided". A deliberation with an object
("still deciding on the colour", "haven't decided which hotel") doubts that object, not
the segment, and is read as before. "We'll see" is no doubt of the decision ("booked the
Hilton, we'll see": how it goes), and is read as before. "It's been decided" is a decision
made (only a negation before "been" denies it), and an open outcome ("could go either way",
"undecided") beside a change stated as made ("moved", "now") is of something else: the game.

The words are closed classes: the verbs of deciding, the subject pronouns, the particles
and fillers a bare clause may hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ollm_desktop.engine.fact_words import Tok, closed, is_change

PendingMark = tuple[int, int, Literal["tentative"]]

# Verbs of deciding, in the progressive after "still" ("still deciding", "still weighing it").
DECIDING = closed("deciding weighing thinking debating mulling figuring pondering discussing "
                  "considering choosing")
_DECIDED = closed("decided settled")  # after a negation or a nobody ("nothing decided")
_NOBODY = closed("nothing nobody nobody's nothing's no one not haven't hasn't havent hasnt "
                 "isn't wasn't")
# What a bare clause may hold besides its phrase: a subject, "still", fillers and particles.
_FILLER = closed("i we they he she you i'm we're they're he's she's it's we've i've "
                 "they've is are am was been have has had still honestly tbh really yet "
                 "though just but and so lol haha ok okay , it that this over up out about on")
# The heads of an outcome still open, which may be of a thing other than the change's
# ("could go either way": a game; "undecided": a vote) and yield to a change made.
_OUTCOME = closed("either undecided")
_DONE = closed("now actually instead")
_HEADS = DECIDING | _DECIDED | closed("undecided either stone decide")


def may_pend(words: set[str]) -> bool:
    """The words the structure needs (a cheap pre-check)."""
    return bool(words & _HEADS)


def _phrase(words: list[str]) -> bool:
    """The clause's words (no value among them) say only that the choice is pending."""
    if len(words) > 9:  # (a bare clause is short: the heads below need no longer scan)
        return False
    for i, word in enumerate(words):
        rest = words[:i] + words[i + 1:]
        if word in DECIDING and i > 0 and "still" in words[:i]:
            return _bare(rest, closed("it that this over up out about on"))
        if word in _DECIDED and i > 0 and _denied(words, i):
            return _bare(rest, _NOBODY)
        if word == "undecided" or (word == "decide" and _after(words, i, "yet to")) or (
                word == "decided" and _after(words, i, "to be")):
            return _bare(rest, closed("to be yet"))
        if word == "either" and words[i + 1:i + 2] == ["way"] and _after(words, i, "could go"):
            return _bare(rest, closed("could go way"))
        if word == "stone" and _after(words, i, "set in") and "not" in words[:i - 2]:
            return _bare(rest, closed("not set in"))
    return False


def _denied(words: list[str], i: int) -> bool:
    """A negation or a nobody stands before "decided" at ``i``: right before it, or before
    its "been" ("nothing's been decided", "it hasn't been decided"; "it's been decided" is a
    decision made), or "no one" ("one" alone is no nobody)."""
    before = words[i - 1]
    if before == "been":
        return any(w in _NOBODY for w in words[:i - 1])
    if before == "one":
        return i >= 2 and words[i - 2] == "no"
    return before in _NOBODY


def _after(words: list[str], i: int, pair: str) -> bool:
    """The two words of ``pair`` stand right before ``i``."""
    return i >= 2 and words[i - 2:i] == pair.split()


def _bare(rest: list[str], own: frozenset[str]) -> bool:
    """Nothing else in the clause but fillers and the phrase's own words (at most 8)."""
    return len(rest) <= 8 and all(w in _FILLER or w in own for w in rest)


def pending_marks(tokens: Sequence[Tok], segment: Sequence[tuple[int, int, bool]],
                  ) -> list[PendingMark]:
    """The whole segment when one of its clauses is a bare pending decision."""
    start, end = segment[0][0], segment[-1][1]
    piece: list[Tok] = []
    for token in [*tokens[start:end], None]:  # the pieces between commas (the clause
        if token is not None and token.word != ",":  # cutter keeps ", still deciding" on)
            piece.append(token)
            continue
        words = [t.word for t in piece if t.word not in (".", "!", "…")]
        if words and not any(t.value is not None or t.word[:1].isdigit() for t in piece) \
                and _phrase(words) and not (_OUTCOME & set(words) and _made(tokens[start:end])):
            return [(start, end, "tentative")]
        piece = []
    return []


def _made(tokens: Sequence[Tok]) -> bool:
    """The segment states its change as made: a change verb in the past ("moved", "bumped")
    or a correction's "now" / "actually" / "instead". An idiom of an open outcome beside it
    ("Kickoff moved to 7:45pm, could go either way": the game; "they open at 6am now, I'm
    still undecided": the vote) is about something else."""
    return any(t.word in _DONE or (t.word.endswith("ed") and is_change(t.word)) for t in tokens)
