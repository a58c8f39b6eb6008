"""A short sentence that only says a thing was moved in time, as a correction's lead.

"band postponed. 2025-09-13, tickets still valid", "surgery got moved. 17 March.",
"Flight delayed! 7:25 now": the first sentence holds no value and says only that something
was postponed, rescheduled, moved or delayed; the value of the next sentence is its new
time, as after "Scratch that." (``fact_grammar.lead_only``, which asks this; the sentence is
a lead and no note). Up to six words, the participle its last word (or "back" / "forward"
after "pushed" / "brought"), no question, no condition, no wish; a separate module:
fact_grammar is full. A thing redone ("we rebuilt it", "router got reset", "I moved") says
the same of the values stated after it, and such a clause before a comma or a dash opens a
sentence as a lead does ("we rebuilt it, hostname is hermes-01": ``redone_lead``, from
``fact_leads.strip_lead``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ollm_desktop.engine.fact_words import BOUNDARY, PREPOSITIONS, Tok, closed
from ollm_desktop.engine.reference_words import WEEKDAYS
from ollm_desktop.engine.references import find_references

_MOVED = closed("postponed rescheduled moved delayed rebooked rearranged rebuilt reinstalled "
                "reset reflashed reimaged reconfigured")
# What a redone thing's verb may take after it ("we rebuilt it"): a pronoun of the thing.
_OBJECTS = closed("it them everything")
_PHRASAL = {"back": closed("pushed put moved"), "forward": closed("brought moved pulled")}
_MAX_WORDS = 6
# Words that make the sentence no statement of a change made: a condition, a question's
# auxiliary, a wish, a negation, a future.
_NOT_MADE = closed("if maybe might may could would should will can't cannot not never "
                   "did does do was were wants want hope wish unless")


def rescheduled_only(tokens: list[Tok], *, named: bool = False) -> bool:
    """The sentence's tokens are a short statement that something was moved in time or
    redone; its subject a pronoun or none ("we rebuilt it", "postponed", "it got pushed
    back"), or with ``named`` any noun phrase ("my dentist appointment got moved": the next
    value may be that appointment's, so such a sentence leads none: its noun is the key)."""
    if any(t.value is not None or t.word == "?" for t in tokens):
        return False
    words = [t.word for t in tokens if t.word not in BOUNDARY and t.word]
    if not words or len(words) > _MAX_WORDS or set(words) & _NOT_MADE:
        return False
    if len(words) > 1 and words[-1] in _OBJECTS:
        words = words[:-1]
    last = words[-1]
    phrasal = len(words) > 1 and words[-2] in _PHRASAL.get(last, ())
    if not (last in _MOVED or phrasal):
        return False
    subject = {w for w in words[:-2 if phrasal else -1] if w not in _AUXILIARIES}
    return named or subject <= _PRONOUNS


# The user's or the thing's pronouns, and the auxiliaries of a passive or a perfect.
_PRONOUNS = closed("we i they it he she you we've i've they've it's")
_AUXILIARIES = closed("got get gets was were has have had been is are be just all finally")


# What says the value after the redone thing stayed: a contrast, "still", "same".
_KEPT = closed("but though although yet")
_SAME = closed("still same unchanged")
# Where a leading clause of a redone thing may end.
_CLAUSE_END = closed(", — – - ;")


def redone_lead(tokens: list[Tok], index: int, *, named: bool = False) -> int:
    """The length of a leading clause at ``index`` that only says a thing was redone or moved
    in time, with its comma or dash ("we rebuilt it, "); 0 otherwise. With ``named`` its
    subject may be a noun phrase ("meeting postponed, "), which the caller leaves in place:
    it is the key of the value after it."""
    end = next((k for k in range(index, min(len(tokens), index + _MAX_WORDS + 2))
                if tokens[k].word in _CLAUSE_END), None)
    if end is None or end == index or len(tokens) - end < 2 or \
            tokens[end + 1].word in _KEPT or any(t.word in _SAME for t in tokens[end:]) or \
            _verb_opens(tokens, end + 1):
        return 0  # (a clause must follow it, not one that keeps the value: "…, but the
    # hostname is still atlas-01", nor one whose subject is left out: "delayed, lands at 1")
    return end + 1 - index if rescheduled_only(tokens[index:end], named=named) or (
        not named and found_out(tokens[index:end], tokens[end + 1:])) else 0


# The verbs of finding a thing out, in the past ("found the cert", "checked the receipt",
# "looked it up", "rang them"): a closed class.
_FOUND = closed("found checked rechecked double-checked confirmed verified looked asked rang "
                "called phoned emailed read saw heard dug")
# Determiners of a thing new to the chat ("asked for a quote, it's £450": the quote's value,
# no correction of the budget; "found a new dentist"): what was found is no value said before.
_NEW_THING = closed("a an another some new")
# The pronoun and its copula that state what was found ("it's X", "its X", "that's X").
_FOUND_IS = closed("it's its that's")


def found_out(lead: list[Tok], after: list[Tok]) -> bool:
    """A leading clause that only says the speaker found something out ("found the marriage
    cert,", "i checked the receipt —", "just rang them,"), before "it's" / "that's": the
    value after the pronoun is what was found, the true one, as after "actually" (so the
    one stated before is corrected). Up to six words, the verb first after a pronoun
    subject or "just", no value, no question, no condition, no wish, no new thing found ("a
    quote"); nothing after it but a pronoun's copula ("found it, the venue is X" names its
    own key). The found value must end its clause (the review of stop 52: "I checked the
    forecast, it's 28 degrees tomorrow" replaced the thermostat's 20 degrees)."""
    if any(t.value is not None or t.word == "?" for t in lead):
        return False
    words = [t.word for t in lead if t.word not in BOUNDARY and t.word]
    while words and words[0] in _PRONOUNS - {"it", "it's"} | {"just", "finally", "also"}:
        words = words[1:]
    clause = next((after[:k] for k, t in enumerate(after) if t.word in BOUNDARY), after)
    if any(t.word in _SEEN_NOW for t in clause):
        return False  # what was seen, not a record: "looked at the clock, it's 4 pm already"
    return 0 < len(words) <= _MAX_WORDS and words[0] in _FOUND and \
        not set(words) & (_NOT_MADE | _NEW_THING) and bool(after) and (
            after[0].word in _FOUND_IS or [t.word for t in after[:2]] == ["it", "is"])


# Deictic words of time and place in the found value's clause ("it's 4 pm already", "it's 28
# degrees tomorrow", "it's 12 outside"): what was seen or foreseen, not what a record says.
_SEEN_NOW = closed("already yet today tonight tomorrow yesterday outside")


def _verb_opens(tokens: list[Tok], k: int) -> bool:
    """The clause at ``k`` opens with its verb, its subject left out ("lands at 1 now",
    "starts at 9", "boarding at 7:40"): a word in -s or -ing before a preposition or a value.
    Read after a lead, the verb would be taken as a value ("lands"); such a clause is read
    whole, as it was before redone leads ("hostname is hermes-01" has its subject)."""
    word = tokens[k].word if k < len(tokens) else ""
    after = tokens[k + 1] if k + 1 < len(tokens) else None
    return tokens[k].value is None and word.isalpha() and word not in _PRONOUNS and (
        word.endswith("ing") or (word.endswith("s") and not word.endswith("ss"))) and \
        after is not None and (after.value is not None or after.word in PREPOSITIONS)


def value_follows(rest: Sequence[str]) -> bool:
    """The sentence after a lone "Postponed." holds a value ("Postponed. Thursday at 10."):
    only then is it a lead (``fact_grammar.lead_only``). Alone ("Postponed.", "Rescheduled!",
    "Postponed. Ugh.") it is read as a sentence of the user's, kept as said beside the value
    it moved, as before such leads were read."""
    return bool(rest) and (bool(find_references(rest[0])) or _WEEKDAY.search(rest[0]) is not None)


_WEEKDAY = re.compile(rf"\b{WEEKDAYS}s?\b", re.IGNORECASE)
