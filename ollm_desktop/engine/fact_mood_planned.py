"""A change planned for a later time (issue 28, stop 43; ``fact_mood_proposed`` reads it
with the other proposals, in each segment a strong break opens).

The future of "going to" ("we're going to", "I'm gonna") or of "will" ("we'll", "Ops will")
right before a change verb, with a time still to come in the same segment ("We're going to
switch to gpt-4.1 tomorrow", "next week we're going to move the standup to 10:00", "We'll move
the port to 9090 tomorrow"), is a plan: until that time the old value holds,
and so is the present of a change verb after its speaker with such a time ("Tomorrow we move
the port to 9090", "I switch to the new plan next month": stop 44's review), or after "it",
"he", "she" with its "-s" ("It goes up to $1,520 in September"; stop 46),
and the new one is the plan's. Besides a change verb, a verb whose object goes to a value
("Tonight I'll scale it to 8 nodes"), or is the value ("From January I'm going to charge
$95"), or whose "to" / "at" (after "up" / "down") takes it ("From next month it'll close at
10 pm"), the future perfect ("In another 2-4 years, we will have broken the $5 a
gallon": a time it looks forward to, whatever its words) and "will be" + a change's gerund
("We'll be moving to … in September") plan as well.
A change with no later time ("we're switching to gpt-4.1",
"we're going to meet at 4pm instead": no change verb) and a time that starts a rule
("starting tomorrow the standup is at 10:00") are read as before.

The words are closed classes: the future auxiliaries, the forms of "be" before them, the
deictic words of a later time.
"""

from __future__ import annotations

from collections.abc import Sequence

from ollm_desktop.engine.fact_verbs import changes
from ollm_desktop.engine.fact_words import AUXILIARIES, COPULAS, Tok, closed

GOING = closed("going gonna")
_BE = closed("am is are i'm we're they're he's she's it's you're")
_SUBJECT = closed("i we they")  # ("we gonna move it", a chat's dropped "are")
_THIRD = closed("it he she")  # a present's "-s" after them: "It goes up to $1,520 in September"
_UP = closed("up down")
_TO = closed("to at")
LATER = closed("tomorrow tonight next later soon")
# A later time not named ("I'll raise it to 50 EUR at some point", "we'll move it to 10:00
# eventually"): the plan waits as one with its date does
PUT_OFF = closed("eventually someday sometime ultimately")
_NEXT = closed("next")
TIME_NOUNS = closed("week month year weekend quarter morning day monday tuesday wednesday "
                    "thursday friday saturday sunday")
MONTHS = closed("january february march april may june july august september october "
                "november december")
_FROM = closed("from in starting by")  # a month a plan starts from or falls in
_OBJECT = closed("it them this that")
# "will" and its contracted forms: a future stated, as "going to" is
WILL = closed("will i'll we'll they'll he'll she'll it'll you'll i’ll we’ll they’ll")


def _when_later(tokens: Sequence[Tok], a: int, b: int) -> bool:
    """A time still to come in the segment: "tomorrow", "tonight", "next week", a date read
    as one value that says so ("next Friday"), or a month that a plan starts from or falls in
    ("From January I'm going to …", "… in September"), or one not named ("at some point",
    "eventually"); not "in the next release" (a
    maintainer's "I will change it to 3.8 in the next release" is the change made, as the
    release ships it)."""
    return any(t.word in LATER - _NEXT or t.word in PUT_OFF or (  # ("eventually")
        t.word == "some" and k + 1 < b and tokens[k + 1].word in ("point", "stage")) or (
        t.word in _NEXT and k + 1 < b and tokens[k + 1].word in TIME_NOUNS) or (
        t.value is not None and t.value[3] == "date" and (
            t.value[2].lower().split()[0] in LATER or (
                t.value[2].lower() in MONTHS and k > a and tokens[k - 1].word in _FROM)))
        for k, t in enumerate(tokens[a:b], start=a))


def _moved_to(tokens: Sequence[Tok], j: int, b: int) -> bool:
    """A verb at ``j`` whose object goes to a value ("scale it to 8 nodes"), or whose
    object is the value ("charge $95"), or "be" and a change's gerund ("be moving to")."""
    verb = tokens[j].word if j < b else ""
    if not verb.isalpha() or tokens[j].value is not None:
        return False
    if verb == "be":
        return j + 1 < b and tokens[j + 1].word.endswith("ing") and changes(tokens[j + 1].word)
    nxt = tokens[j + 1] if j + 1 < b else None
    if nxt is not None and nxt.value is not None:
        return True
    k = j + 1 + (j + 1 < b and tokens[j + 1].word in _UP)  # "close at 10 pm", "go up to $5"
    if k + 1 < b and tokens[k].word in _TO and tokens[k + 1].value is not None:
        return True
    return j + 3 < b and tokens[j + 1].word in _OBJECT and tokens[j + 2].word == "to" and \
        tokens[j + 3].value is not None


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
    for i in range(a, b - 2):  # the future perfect: "we will have broken the $5 mark"
        if tokens[i].word in WILL and tokens[i + 1].word == "have" and \
                tokens[i + 2].word.endswith(("ed", "en")):
            return i
    for i in range(a, b - 1):  # "We'll move the port to 9090 tomorrow"
        if tokens[i].word in WILL and (changes(tokens[i + 1].word) or _moved_to(
                tokens, i + 1, b)) and _when_later(tokens, a, b):
            return i
    for i in range(a, b - 1):  # "Tomorrow we move the port to 9090": the present for a future
        verb = tokens[i + 1].word
        if tokens[i].word in _SUBJECT and changes(verb) and not verb.endswith(("ed", "ing")) \
                and _later_in_clause(tokens, a, b, i):
            return i
        if tokens[i].word in _THIRD and verb.endswith("s") and not verb.endswith("ss") and \
                verb not in COPULAS and verb not in AUXILIARIES and verb != "has" and (
                changes(verb) or _moved_to(tokens, i + 1, b)) and _later_in_clause(
                tokens, a, b, i):
            return i  # "It goes up to $1,520 in September"
    for i in range(a + 1, b - 2):
        word = tokens[i].word
        if word in GOING and (tokens[i - 1].word in _BE or tokens[i - 1].word in _SUBJECT) \
                and (word == "gonna" or tokens[i + 1].word == "to"):
            at = i + 1 if word == "gonna" else i + 2
            if (changes(tokens[at].word) or _moved_to(tokens, at, b)) and (
                    any(t.word in LATER for t in tokens[a:b]) or _when_later(tokens, a, b)):
                return _fronted(tokens, a, i)
    return -1


def _fronted(tokens: Sequence[Tok], a: int, i: int) -> int:
    """Where a plan at ``i`` opens: at its fronted time when one opens the segment ("From
    January I'm going to …": the month is the plan's, not a rule's start)."""
    for k in range(a, i):
        if _when_later(tokens, max(a, k - 1), k + 1) and not _when_later(tokens, k - 1, k):
            return k - 1 if k > a and tokens[k - 1].word in _FROM else k
    return i
