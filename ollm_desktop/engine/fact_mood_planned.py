"""A change planned for a later time (issue 28, stop 43; ``fact_mood_proposed`` reads it
with the other proposals, in each segment a strong break opens).

The future of "going to" ("we're going to", "I'm gonna") or of "will" ("we'll", "Ops will")
right before a change verb, with a time still to come in the same segment ("We're going to
switch to gpt-4.1 tomorrow", "next week we're going to move the standup to 10:00", "We'll move
the port to 9090 tomorrow"), is a plan: until that time the old value holds,
and so is the present of a change verb after its speaker with such a time ("Tomorrow we move
the port to 9090", "I switch to the new plan next month": stop 44's review),
and the new one is the plan's. A change with no later time ("we're switching to gpt-4.1",
"we're going to meet at 4pm instead": no change verb) and a time that starts a rule
("starting tomorrow the standup is at 10:00") are read as before.

The words are closed classes: the future auxiliaries, the forms of "be" before them, the
deictic words of a later time.
"""

from __future__ import annotations

from collections.abc import Sequence

from ollm_desktop.engine.fact_verbs import changes
from ollm_desktop.engine.fact_words import Tok, closed

GOING = closed("going gonna")
_BE = closed("am is are i'm we're they're he's she's it's you're")
_SUBJECT = closed("i we they")  # ("we gonna move it", a chat's dropped "are")
LATER = closed("tomorrow tonight next later soon")
_NEXT = closed("next")
TIME_NOUNS = closed("week month year weekend quarter morning day monday tuesday wednesday "
                    "thursday friday saturday sunday")
# "will" and its contracted forms: a future stated, as "going to" is
WILL = closed("will i'll we'll they'll he'll she'll it'll you'll i’ll we’ll they’ll")


def _when_later(tokens: Sequence[Tok], a: int, b: int) -> bool:
    """A time still to come in the segment: "tomorrow", "tonight", "next week"; not "in the
    next release" (a maintainer's "I will change it to 3.8 in the next release" is the change
    made, as the release ships it)."""
    return any(t.word in LATER - _NEXT or (
        t.word in _NEXT and k + 1 < b and tokens[k + 1].word in TIME_NOUNS)
        for k, t in enumerate(tokens[a:b], start=a))


def _later_in_clause(tokens: Sequence[Tok], a: int, b: int, at: int) -> bool:
    """A later time in the clause of the word at ``at``, no comma or semicolon between them
    ("We set the timeout to 45 s, deploy tomorrow": the setting is done, the deploy planned);
    a fronted time's own comma is no break ("Tomorrow, we move the port to 9090")."""
    for k in range(a, b):
        if _when_later(tokens, k, min(k + 2, b)):
            between = list(tokens[min(k, at):max(k, at)])
            if k < at:  # "Tomorrow," / "Next week," before the speaker
                between = between[2 if tokens[k].word in _NEXT else 1:]
                between = between[1:] if between and between[0].word == "," else between
            if not any(t.word in (",", ";") for t in between):
                return True
    return False


def planned(tokens: Sequence[Tok], a: int, b: int) -> int:
    """Where a plan's "going to" + change verb opens in ``(a, b)`` with a later time in the
    segment (-1: none)."""
    for i in range(a, b - 1):  # "We'll move the port to 9090 tomorrow"
        if tokens[i].word in WILL and changes(tokens[i + 1].word) and _when_later(tokens, a, b):
            return i
    for i in range(a, b - 1):  # "Tomorrow we move the port to 9090": the present for a future
        verb = tokens[i + 1].word
        if tokens[i].word in _SUBJECT and changes(verb) and not verb.endswith(("ed", "ing")) \
                and _later_in_clause(tokens, a, b, i):
            return i
    for i in range(a + 1, b - 2):
        word = tokens[i].word
        if word in GOING and (tokens[i - 1].word in _BE or tokens[i - 1].word in _SUBJECT) \
                and (word == "gonna" or tokens[i + 1].word == "to"):
            verb = tokens[i + 1 if word == "gonna" else i + 2].word
            if changes(verb) and any(t.word in LATER for t in tokens[a:b]):
                return i
    return -1
