"""A bare hour after "at", and an age (stop 51): "the bakery opens at 7", "team sync is on
Wednesday — at 10 in the big room", "we meet on Fridays at 4". ``fact_verb_places.placed``
reads a number of two digits after a verb that places ("opens at 10"); one digit there may be
a count ("crashes at 8"), and a day before "at" is no verb. Here the hour is a time of day by
its place: after a verb of a timetable (opens, closes, starts, meets, lands…) or right after a
day's value (a dash or comma between), ending its clause or before a preposition (not "of"), a
day's part or "sharp" ("at 10 schools" counts schools). An age: a bare number after "turning"
/ "turns" or a person's contracted copula ("she's turning 7", "he turns 40 next week", "I'm
34"), ending its clause.

Split from ``fact_values`` (full), whose loop over bare words asks here.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_time_tails import day_part_end
from ollm_desktop.engine.fact_value_spans import ends_clause
from ollm_desktop.engine.fact_words import BOUNDARY, PREPOSITIONS, Tok, closed

# The verbs of a timetable (a closed class): what a thing does at an hour.
_TIMETABLE = closed("opens open closes close starts start begins begin ends end finishes "
                    "finish leaves leave departs depart lands land arrives arrive meets meet "
                    "kicks off")
_MARKS = closed("— – - ,")
_AFTER_HOUR = closed("sharp every each tomorrow tonight today")


def hour_at(tokens: list[Tok], i: int, first: int) -> bool:
    """The bare number at ``i`` is an hour of the day, by the words before and after it."""
    word = tokens[i].word
    if tokens[i].value or not word.isdigit() or len(word) > 2 or int(word) > 23 or \
            i - 2 < first or tokens[i - 1].word != "at":
        return False
    after = tokens[i + 1].word if i + 1 < len(tokens) else ""
    if not (ends_clause(tokens, i) or day_part_end(tokens, i) or
            (after in PREPOSITIONS and after != "of") or after in _AFTER_HOUR):
        return False
    k = i - 2
    while k > first and tokens[k].word in _MARKS and not tokens[k].value:
        k -= 1
    value = tokens[k].value
    if value is not None:
        return value[3] in ("date", "weekday") and (k == i - 2 or tokens[i - 2].word != ",")
    return tokens[k].word in _TIMETABLE and int(word) <= 12 and k == i - 2 and \
        (k - 1 >= first and tokens[k - 1].word not in BOUNDARY)


# The verbs and contracted copulas an age follows ("turning 7", "I'm 34", "she's 8").
_AGED = closed("turning turns turned i'm she's he's")


def age_at(tokens: list[Tok], i: int, first: int) -> bool:
    """The bare number at ``i`` is a person's age ("she's turning 7", "I'm 34")."""
    word = tokens[i].word
    if tokens[i].value or not word.isdigit() or not 0 < int(word) <= 120 or i - 1 < first or \
            tokens[i - 1].word not in _AGED:
        return False
    after = tokens[i + 1].word if i + 1 < len(tokens) else ""
    return ends_clause(tokens, i) or after in ("next", "this", "in", "on", "tomorrow", "today")
