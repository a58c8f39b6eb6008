"""A bare hour after "at", and an age (stop 51): "the bakery opens at 7", "team sync is on
Wednesday — at 10 in the big room", "we meet on Fridays at 4". ``fact_verb_places.placed``
reads a number of two digits after a verb that places ("opens at 10"); one digit there may be
a count ("crashes at 8"), and a day before "at" is no verb. Here the hour is a time of day by
its place: after a verb of a timetable (opens, closes, starts, meets, lands…) or right after a
day's value (a dash or comma between), ending its clause or before a preposition (not "of"), a
day's part or "sharp" ("at 10 schools" counts schools); not in a clause of reason ("it's at 3
because her flight lands at 2"), nor with a second offered ("at 4, maybe 5"). Its kind is a
time's (review of stop 51): a clock time replaces it as one ("Sorry, 8:30.", "meets at 7:30
now"), a self-repair meets it ("at 5, er, 5:30"); ``timed_hours`` gives another reading's bare
number in its place the same kind ("opens at 11 today onwards"). An age: a bare number after
"turning" / "turns" or a person's contracted copula ("she's turning 7", "he turns 40 next
week", "I'm 34"), ending its clause.

Split from ``fact_values`` (full), whose loop over bare words asks here.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_time_tails import day_part_end
from ollm_desktop.engine.fact_value_spans import ends_clause
from ollm_desktop.engine.fact_words import BOUNDARY, PREPOSITIONS, Tok, closed

# The verbs of a timetable (a closed class): what a thing does at an hour.
_TIMETABLE = closed("opens open closes close starts start begins begin ends end finishes "
                    "finish leaves leave departs depart lands land arrives arrive meets meet")
# (and "kicks off", "kick off": "off" alone is no verb, "turn them off at 10")
_KICKS = closed("kicks kick")
# After the hour, a second one offered ("at 4, maybe 5", "at 4 or 5"): an estimate, no time.
_OFFERED = closed("maybe probably perhaps or")
_REASON = closed("because cos coz cuz bc since")  # (a clause of reason after the first word)
_MARKS = closed("— – - ,")
_AFTER_HOUR = closed("sharp every each tomorrow tonight today")


def hour_at(tokens: list[Tok], i: int, first: int) -> bool:
    """The bare number at ``i`` is an hour of the day, by the words before and after it."""
    word = tokens[i].word
    if tokens[i].value or not word.isdecimal() or len(word) > 2 or int(word) > 23 or \
            i - 2 < first or tokens[i - 1].word != "at":
        return False
    after = tokens[i + 1].word if i + 1 < len(tokens) else ""
    if not (ends_clause(tokens, i) or day_part_end(tokens, i) or
            (after in PREPOSITIONS and after != "of") or after in _AFTER_HOUR):
        return False
    if _offered(tokens, i) or any(t.word in _REASON or (t.value and t.value[2].split()[
            -1].lower() in _REASON) for t in tokens[first + 1:i]):
        return False  # ("it's at 3 because her flight lands at 2": the reason's hour)
    k = i - 2
    while k > first and tokens[k].word in _MARKS and not tokens[k].value:
        k -= 1
    value = tokens[k].value
    if value is not None:
        return value[3] in ("date", "weekday") and (k == i - 2 or tokens[i - 2].word != ",")
    timed = tokens[k].word in _TIMETABLE or (tokens[k].word == "off" and k - 1 >= first and
                                             tokens[k - 1].word in _KICKS)
    return timed and int(word) <= 12 and k == i - 2 and \
        (k - 1 >= first and tokens[k - 1].word not in BOUNDARY)


def timed_hours(tokens: list[Tok], first: int) -> None:
    """A bare number another reading took after a timetable's verb or a day and "at" ("opens
    at 11 today onwards", "Friday at 10"): a time of day, as ``hour_at``'s are, so that one
    replaces the other and a clock time ("at 11:30") meets it (in place)."""
    for i in range(first + 2, len(tokens)):
        value = tokens[i].value
        if value is None or value[3] != "number" or not value[2].isdecimal() or \
                int(value[2]) > 23 or tokens[i - 1].word != "at":
            continue
        before = tokens[i - 2]
        said = before.value or ("", "", before.word, "")  # (the verb, whatever a reading made
        if said[2].lower() in _TIMETABLE or said[3] in ("date", "weekday"):  # of it: "lands")
            tokens[i].value = (*value[:3], "time")


def _offered(tokens: list[Tok], i: int) -> bool:
    """A second hour offered after the one at ``i`` ("at 4, maybe 5", "at 4 — or 5")."""
    if i + 2 >= len(tokens) or tokens[i + 1].word not in _MARKS | {"or"}:
        return False
    k = i + 2
    while k + 1 < len(tokens) and tokens[k].word == "·":  # (a word the value after took in)
        k += 1
    nxt = tokens[k]
    said = nxt.value[2].split()[0].lower() if nxt.value else nxt.word
    return tokens[i + 1].word == "or" or said in _OFFERED


# The verbs and contracted copulas an age follows ("turning 7", "I'm 34", "she's 8").
_AGED = closed("turning turns turned i'm she's he's")


def age_at(tokens: list[Tok], i: int, first: int) -> bool:
    """The bare number at ``i`` is a person's age ("she's turning 7", "I'm 34")."""
    word = tokens[i].word
    if tokens[i].value or not word.isdecimal() or not 0 < int(word) <= 120 or i - 1 < first or \
            tokens[i - 1].word not in _AGED:
        return False
    after = tokens[i + 1].word if i + 1 < len(tokens) else ""
    return ends_clause(tokens, i) or after in ("next", "this", "in", "on", "tomorrow", "today")
