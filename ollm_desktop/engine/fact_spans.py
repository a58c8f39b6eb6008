""""from X to Y" as a span the user states, not a change (issue 28).

"moved standup from 9:30 to 10:15" and "shared_buffers went from 4GB to 8GB" change a value:
X is the old one. "I sleep from 11:30 to 7", "the shop is open from 9 to 5" state a span of
time: both ends hold, and neither replaces anything. What tells them apart is the clause's
verb: a span is said in the present simple of a verb that is no change (a present copula
with at most a few words of state after it, "is open", "'s at the office"; a verb after a
personal pronoun, "I sleep", "we usually work"), with no change verb, no particle of
direction ("from 20 down to 12"), no word that says the value changed ("now", "instead",
"anymore") and no lead of a correction ("sorry, it's from 2 to 4"), and its ends are times,
dates or bare hours (a span of amounts or places, "from 20 to 12", is a change more often
than a statement). A clause with no verb ("port from 8080 to 9090"), a past ("went", "was
moved"), an imperative ("change the port from"), a modal ("needs to go from") or a noun's
verb in -s ("checkout shifts from 11 to 1", a headline's present) is a change, as before,
but for a verb that says how long a thing holds ("the course runs from 3 March to 12 May").
``fact_old_values.is_old`` asks here of the value after "from", and reads the words before a
value past those that only say which it is (``BEFORE_A_FIGURE``: "instead of between …"),
and asks ``left_for`` of a value that opens a clause of reason.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_verbs import finite_verb
from ollm_desktop.engine.fact_words import (
    AUXILIARIES,
    BOUNDARY,
    CONJUNCTIONS,
    DETERMINERS,
    PARTICLES,
    Tok,
    closed,
    is_change,
)

_PRESENT = closed("is are am 's 're 'm it's that's he's she's we're they're i'm you're")
_PERSONS = closed("i we you they")
# Words that say the value changed, or a verb of moving (no change verb of its own class:
# "goes from 8 to 12 in March", "went", "jumped", "grew").
_CHANGED = closed("now instead anymore longer changed change goes go going went gone moves "
                  "moving jumps jumped rises rose grows grew falls fell shifts shifted "
                  "climbs climbed drops dropped expands expanded increase decrease shift "
                  "slide swap advance bring take adjust turn tweak trim boost pull knock")
# A lead before the clause that makes it a correction ("sorry, it's from 2 to 4").
_LEADS = closed("actually sorry correction oops scratch meant mistake wrong wait update")
# The words before an old value that say which it is, not whether it is old: a determiner,
# or a word of approximation or range ("instead of between 6:55-7:00", "not around 5 but 6");
# ``fact_old_values.is_old`` reads the words before a value past them.
BEFORE_A_FIGURE = DETERMINERS | closed("between around about roughly approximately approx ~")
# The verbs in -s that say how long a thing holds, never that it moved ("the course runs
# from", "the sale lasts from"); another verb in -s may be a headline's change.
_SPANNING = closed("runs lasts spans operates")
_STATE_WORDS = 3  # "is open from", "'s at the office from"


def spanned(tokens: list[Tok], i: int) -> bool:
    """The value at ``i`` (after "from", with "to" and a value after it) opens a span its
    clause states in the present simple ("I sleep from 11:30 to 7"), not an old value."""
    first = i
    while first > 0 and tokens[first - 1].word not in BOUNDARY:
        first -= 1
    last = i
    while last + 1 < len(tokens) and tokens[last + 1].word not in BOUNDARY:
        last += 1
    words = [t.word for t in tokens[first:last + 1]]
    end = next((t for t in tokens[i + 1:last + 1] if t.value is not None), None)
    if end is None or not (_of_time(tokens[i]) and _of_time(end)) or \
            any(w in _LEADS for w in (t.word for t in tokens[:first])):
        return False
    if any(w in _CHANGED or w in PARTICLES or (w and is_change(w)) for w in words):
        return False
    before = [t for t in tokens[first:i - 1] if t.word not in DETERMINERS]
    words = [t.value[2].lower() if t.value is not None else t.word for t in before]
    return bool(words) and all(w.isalpha() or "'" in w for w in words) and _present(before, words)


def _of_time(token: Tok) -> bool:
    """A clock time, a date or weekday, or a bare hour ("from 9 to 5"): an end of a span of
    time (a span of amounts or places, "from 20 to 12", "from Leeds to York", is a change
    more often than a statement)."""
    value = token.value
    if value is None:
        return False
    text = value[2].strip().rstrip(".")
    return value[3] in ("time", "date") or (text.isdecimal() and int(text) <= 24)


def _present(before: list[Tok], words: list[str]) -> bool:
    """The words before "from" (a value's as a word: "open") hold a present-simple verb of
    no change."""
    copula = next((k for k, w in enumerate(words) if w in _PRESENT or w.endswith(
        ("'s", "'re"))), None)  # ("the shop's open")
    if copula is not None:
        state = words[copula + 1:]
        return len(state) <= _STATE_WORDS and all(
            w.isalpha() and not w.endswith(("ed", "ing")) and w not in AUXILIARIES
            for w in state)
    person = next((k for k, w in enumerate(words) if w in _PERSONS), None)
    if person is not None:
        verbs = words[person + 1:]
        return 1 <= len(verbs) <= 2 and all(
            w.isalpha() and not w.endswith(("ed", "ing")) and w not in AUXILIARIES
            and w not in CONJUNCTIONS for w in verbs)
    return len(words) >= 2 and words[-1] in _SPANNING  # "the course runs from 3 March"


# The subordinators of reason ("it's 9090 now because 8080 clashes with Jenkins").
_REASON = closed("because since cuz coz bc")
# What a value left behind does in its clause of reason: a verb in -s of conflict or failure,
# or a copula before its state ("8080 clashes", "Thursday is a holiday", "MySQL kept crashing").
_STATE_VERBS = closed("is was are were kept keeps")


def left_for(tokens: list[Tok], j: int, i: int) -> bool:
    """The value at ``i`` (its words from ``j``) is the subject of a clause of reason after
    another value of its sentence ("it's 9090 now because 8080 clashes with Jenkins", "we
    use Postgres now since MySQL kept crashing"): the value the change left, its old one."""
    if j < 2 or tokens[j - 1].word not in _REASON or i + 1 >= len(tokens):
        return False
    if not any(t.value is not None for t in tokens[:j - 1]):
        return False
    verb = tokens[i + 1]
    return verb.value is None and (verb.word in _STATE_VERBS or finite_verb(verb))


def at_value(tokens: list[Tok], i: int) -> bool:
    """The value at ``i`` follows another value and "at" ("Monday at 10", "Pier 4 at 9"): it
    says when or where of that one, so it is old when that one is ("from Monday at 10 to
    Tuesday at 11": both of Monday's)."""
    return i > 1 and tokens[i - 1].word == "at" and tokens[i - 2].value is not None
