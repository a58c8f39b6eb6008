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

from ollm_desktop.engine.fact_believed_olds import believed_old
from ollm_desktop.engine.fact_change_olds import changed_old
from ollm_desktop.engine.fact_clause_openings import names_which
from ollm_desktop.engine.fact_mood_unmade import unmade_changes
from ollm_desktop.engine.fact_named_changes import (
    removed_object,
    reported_then_pointed,
    should_be_subject,
)
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
_OPENING = frozenset({",", "and", "but", "so", "or", "then", "while", "whereas", "since",
                      "because", "as"})  # (a reason: "…, since 50 MB was too small")
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
    reach, edge = [], -1
    for x in range(k - 1, max(0, k - _REACH) - 1, -1):
        if tokens[x].word in BOUNDARY:
            edge = x
            break
        reach.append(tokens[x].word)
    if reach and reach[0] in _EXCLUSION:
        return False
    if edge > 0 and not _usual(tokens[i]) and trailing_comparison(tokens, edge,
                                                                       reach[::-1]):
        return False  # "4pm, which is better than 3pm": the value the stated one replaces
    # a sentence that changes something keeps its "than" as the value it gives up ("we
    # switched to MySQL since it scales better than Postgres")
    return not _PREFERENCE & set(reach) and not _changes(tokens)


_APPOSED = frozenset({"which", "that", "that's", "which's"})  # ", which is better than"
# the standing value named by its relation to now, not by itself ("earlier than usual")
USUAL = frozenset({"usual", "normal", "planned", "scheduled", "expected", "before",
                   "originally", "last"})


def _usual(token: Tok) -> bool:
    """The word names the standing value ("usual"), whether found as a name or not."""
    text = token.value[2] if token.value is not None else token.word
    return text.lower() in USUAL


def than_usual(tokens: Sequence[Tok], first: int) -> bool:
    """A trailing comparison with the standing value ("The game is at 4pm, an hour earlier
    than usual", "…starts at 7:30pm, later than planned"): the value stated before it differs
    from the one that held, so the sentence corrects it (a "now" in other words)."""
    for k in range(first + 1, len(tokens) - 1):
        if tokens[k].word != "than" or not _usual(tokens[k + 1]):
            continue
        clause, edge = [], -1
        for x in range(k - 1, max(first, k - _REACH) - 1, -1):
            if tokens[x].word in BOUNDARY:
                edge = x
                break
            clause.append(tokens[x].word)
        if edge > first and trailing_comparison(tokens[first:], edge - first, clause[::-1]):
            return True
    return False


def trailing_comparison(tokens: Sequence[Tok], edge: int, clause: list[str]) -> bool:
    """A comparison after a comma that only describes the value stated before it ("The game
    is at 4pm, an hour earlier than usual", "…at 4pm, which is better than 3pm", "Thursday,
    earlier than Friday"): its clause (``clause``, up to "than") opens with a relative
    "which"/"that" or is a bare comparative phrase (no subject, no verb of its own: at most
    three words), and the sentence has a value before its comma. The comparison tells how
    the new value differs from the old: a correction's shape."""
    if not clause or not any(_valued(t) for t in tokens[:edge]):  # ("room 14": not found yet)
        return False
    if clause[0] in _APPOSED:
        return True
    return len(clause) <= 3 and not any(
        w in PRONOUNS or w in COPULAS or w in MODALS or w in _SEEMING for w in clause)


def _changes(tokens: Sequence[Tok], *, unhedged: bool = False) -> bool:
    """A change word in the sentence (``unhedged``: with no hedge or modal before it in its
    stretch between commas: "…, so probably don't need yarn anymore" changes nothing yet)."""
    hedged = False
    for t in tokens:
        if t.word in BOUNDARY:
            hedged = False
        hedged = unhedged and (hedged or t.word in HEDGES or t.word in MODALS)
        if not hedged and (is_change(t.word) or t.word in _CHANGED):
            return True
    return False


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
    so it was set to 900") or states another after it ("30s is too short, it needs to be
    60s") leaves the judged one to the correction, as its old value (``turned_down``)."""
    if _changes(tokens, unhedged=True):
        return []
    out: list[tuple[int, int, Literal["tentative"]]] = []
    while (judged := _judgement(tokens, a, b)) is not None:  # each judged clause ("5 s is
        if not _answered(tokens, judged):  # too little, but 15 s is too much": both)
            out.append((judged[0], judged[2], "tentative"))  # ("…, let's try 10 s": its own)
        a = judged[2]
    return out


def _judgement(tokens: Sequence[Tok], a: int, b: int,
               ) -> tuple[int, int, int, int] | None:
    """The first judged clause in ``(a, b)``: where it opens, its value, where it stops,
    its degree word."""
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
            return edge, head, stop, k
    return None


def _answered(tokens: Sequence[Tok], judged: tuple[int, int, int, int]) -> bool:
    """A later clause of the sentence states a value of its own, not as a proposal ("30s is
    too short, it needs to be 60s", "64 is too big, so we stay at 32"): the judgement turns
    the judged value down in favour of it, "not Y, X" in other words. Only an excess ("too"):
    a grade ("Vitest is really nice, …") praises, and turns nothing down."""
    stop = judged[2]
    if tokens[judged[3]].word != "too":
        return False
    later = _judgement(tokens, stop, len(tokens))  # a value judged too in its turn ("…,
    rest = [t for x, t in enumerate(tokens[stop:], stop)  # but 15 s is too much") answers
            if later is None or not later[0] <= x < later[2]]  # nothing
    said = {_said(t) for t in tokens[:stop] if _valued(t)}
    return any(_valued(t) and _said(t) not in said for t in rest) and not any(
        t.word in _PROPOSING or t.word in MODALS or t.word in HEDGES
        for t in rest)  # ("5 GB would do", "maybe 8:30pm")


def _said(token: Tok) -> str:
    return token.value[2] if token.value is not None else token.word


_PROPOSING = frozenset({"let's", "try", "maybe", "perhaps", "how", "what", "could", "might",
                        "should", "?"})


def turned_down(tokens: Sequence[Tok], i: int) -> bool:
    """The value at ``i`` is judged too much ("30s is too short, …") and a later clause
    states the value wanted instead, or the sentence changes it ("Raise the limit to 100 MB,
    since 50 MB was too small"): it is the old value."""
    judged = _judgement(tokens, 0, len(tokens))
    while judged is not None and judged[1] < i:  # (each judged clause: "Y is too much, Z
        judged = _judgement(tokens, judged[2], len(tokens))  # too little, X it is")
    return judged is not None and judged[1] == i and (
        _changes(tokens, unhedged=True) or _answered(tokens, judged))


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
    """Whether the value at ``i`` is the one being replaced (``fact_old_values.is_old``, or
    ``fact_change_olds``: named in the thing a change moves, or planned before, unless that
    change is negated: "The Friday recital has not been moved to Sunday"), unless it only
    stands after a comparison's "than"."""
    return ((is_old(tokens, i) or (changed_old(tokens, i) and not names_which(tokens, i) and
                                   not unmade_changes(tokens, i + 1, len(tokens)))
             or should_be_subject(tokens, i) or removed_object(tokens, i)
             or reported_then_pointed(tokens, i) or believed_old(tokens, i))
            and not compared(tokens, i)) or turned_down(tokens, i)
