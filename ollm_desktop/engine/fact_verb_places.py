"""Two places of a bare number that ``fact_values`` reads as a value: after a verb and "on"
or "at" at the end of its clause ("Postgres runs on 5432", "the API listens on 8080", "the
project's on 3.12", "grafana is now on 3100"), and a one-digit count after a copula ("our
team is 9 engineers", "the flat is 3 rooms").

Why: these are the plainest ways to state a port, a version or a headcount, and the ledger
read none of them (a bare number after a preposition was read only before a noun, "with 4
parallel jobs", and a one-digit number after "is" only in a change, "is now 3").

And a number of two digits or more as the object of a verb in "-ing" right after a pronoun
of persons and its present "be", ending the clause ("we're inviting 140", "I'm bringing
12"): the verb's count (the verb is its key, "inviting: 140"), where a noun after it was
needed before ("inviting 140 guests"); not a verb of weighing ("we're thinking 140"). A verb
with no such key ("it costs 40", "she weighs 62") would leave a keyless number, which any
other number would seem to replace; a past one ("the exporter grabbed 3000") tells history;
a noun's present verb ("the hall seats 200") was tried and made a negative of the corpus's
held-out half supersede. Its own clause's mood decides as for any value (``fact_mood``).
"""

from __future__ import annotations

from ollm_desktop.engine.fact_time_tails import day_part_end
from ollm_desktop.engine.fact_value_spans import ends_clause
from ollm_desktop.engine.fact_words import (
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    PREPOSITIONS,
    SPEAKING,
    Tok,
    closed,
    open_class,
)

_PLACING = closed("on at")
# The verbs that place a thing on a number or at a time ("runs on 5432", "sits at 41", "the
# north gate opens at 10", "the project's on 3.12"): a closed class; any verb in "-s" took
# "crashes at 80", "breaks at 128" too.
_PLACES = closed("runs listens serves sits lives stays binds opens closes starts begins ends "
                 "leaves departs lands meets")


def _verb(word: str) -> bool:
    """A verb that places, or a copula ("is", "project's", "we're", "is now on 3100")."""
    return word in _PLACES or word in COPULAS or word in SPEAKING or word == "now" or \
        word.endswith("'s")


def placed(tokens: list[Tok], i: int, first: int) -> bool:
    """A number of two digits or more (or a version) after a verb and "on / at", ending
    its clause (or before the part of the day it holds in: "is at 18 at night"): "runs on
    5432.", "listens on 8080 for the API" is none (a noun follows)."""
    word, verb = tokens[i].word, tokens[i - 2].word if i >= 2 else ""
    if _verb_object(tokens, i, first):
        return True  # ("we're inviting 140", "the hall seats 200.")
    return i - 2 >= first and len(word) >= 2 and tokens[i - 1].word in _PLACING and \
        _verb(verb) and (ends_clause(tokens, i) or day_part_end(tokens, i) or
                         where_end(tokens, i)) and (
            verb in COPULAS or "'" in verb or (i - 3 >= first and _subject_end(tokens[i - 3])))


# The prepositions of a place or a purpose after a placed number ("is at 21 in the lounge",
# "runs on 5432 on the dev box", "listens on 8081 for the site"): they say where or for what
# the value holds, never what it counts.
_WHERE = closed("in on at for inside")


def where_end(tokens: list[Tok], i: int) -> bool:
    """Whether the number at ``i`` is followed only by a short phrase of where or for what
    it holds (a preposition, a determiner, one to three plain words), then its clause's end.
    Why: a placed number read only at its clause's end lost every value a user placed ("the
    heating is at 21 in the lounge", "postgres runs on 5432 on the dev box")."""
    k = i + 1
    if k >= len(tokens) or tokens[k].word not in _WHERE:
        return False
    k += 1 + (k + 1 < len(tokens) and tokens[k + 1].word in DETERMINERS)
    words = 0
    while k < len(tokens) and tokens[k].value is None and tokens[k].word.isalpha() and \
            tokens[k].word not in _PHRASE_STOPS and words < 3:
        if ends_clause(tokens, k):
            return True
        k, words = k + 1, words + 1
    return False


# Words a place's phrase never holds: another clause or value begins there.
_PHRASE_STOPS = PREPOSITIONS | CONJUNCTIONS | COPULAS | DETERMINERS | closed("now not")


def _verb_object(tokens: list[Tok], i: int, first: int) -> bool:
    """Digits (two or more) right after a verb in "-ing" right after "we're" / "I'm" / "we
    are", ending the clause: "we're inviting 140" (not "in 2019", "is 40": closed words)."""
    if i - 2 < first or not tokens[i].word.isdigit() or len(tokens[i].word) < 2 or \
            not ends_clause(tokens, i):
        return False
    verb, subject = tokens[i - 1].word, tokens[i - 2].word
    if not open_class(verb) or verb in _NOT_VERBS or tokens[i - 1].value is not None or \
            _subordinate(tokens, i - 2, first):
        return False
    progressive = subject in _NOW_BE or (subject in ("are", "am") and i - 3 >= first and
                                         tokens[i - 3].word in ("we", "i"))
    # ("we're inviting 140": the verb is the key; not a plan's "we're thinking 140")
    return verb.endswith("ing") and progressive and verb not in _WEIGHING


def _subordinate(tokens: list[Tok], at: int, first: int) -> bool:
    """A conjunction of reason, time or condition opens the clause before ``at`` ("since
    the exporter grabbed 3000", "because we ordered 24"): a clause told to explain, no
    statement of its count."""
    for k in range(at - 1, first - 1, -1):
        if tokens[k].word in _SUBORDINATING:
            return True
        if tokens[k].word in (",", ";", ":", "—", "-", "and", "but", "so"):
            return False
    return False


_SUBORDINATING = closed("since because as when after before until till while if unless "
                        "though although once cause cuz bc coz whereas whether")


# A pronoun of persons and its present "be" before a verb in "-ing" (the past, "we were
# expecting 40", told what no longer holds).
_NOW_BE = closed("we're i'm im")  # (not "they're", "you're": another's count, not ours)
# The verbs in "-ing" of weighing a number, not of having it ("we're thinking 140").
_WEIGHING = closed("thinking considering hoping planning wanting looking aiming targeting "
                   "guessing estimating budgeting debating weighing eyeing")


# Open words a number follows that are no verb of it ("we're at gate 12"-like titles,
# units and times a count precedes): a closed class.
_NOT_VERBS = closed("number no page pages chapter room rooms gate gates step steps version "
                    "level levels floor floors year years day days week weeks month months "
                    "hours minutes seconds times")


def _subject_end(token: Tok) -> bool:
    """The word before a verb in "-s" is its subject's last ("Postgres runs", "the API
    listens"): none after "and" or a comma, where the "-s" word is a name of a gapped item
    ("Grafana listens on port 3000 and Prometheus on 9090")."""
    return bool(token.word) and token.word[:1].isalnum() and token.word not in CONJUNCTIONS \
        and token.word not in PREPOSITIONS and token.word not in DETERMINERS


def verb_like(word: str) -> bool:
    """A plain word before a count ("need 2 approvals", "ran 3 trials"): no closed-class
    word, so "the 2 options" or "is 2 approvals" stay as they were read (``fact_values``)."""
    return open_class(word)


def copula_count(tokens: list[Tok], i: int) -> bool:
    """A one-digit number after a copula before a plural noun that ends the clause ("is 9
    engineers."): a count, the noun its unit."""
    return 0 < i < len(tokens) - 1 and tokens[i].word.isdigit() and \
        tokens[i - 1].word in COPULAS and tokens[i + 1].word.isalpha() and \
        tokens[i + 1].word.endswith("s") and ends_clause(tokens, i + 1)


# The verbs a server is said to be reached by on a number ("listens on 8080", "serves on
# 3000", "runs on 5432"): a number of four or five digits there is a port.
_SERVING = closed("listens listen listening runs run running serves serve serving binds bind "
                  "bound answers answer exposed")


def port_place(tokens: list[Tok], i: int) -> bool:
    """"Postgres runs on 5432", "the API listens on 8080": the port the thing is reached on
    (not "Node runs on 18", a version; not "Postgres 5432", a name's version)."""
    value = tokens[i].value
    word = tokens[i].word or (value[2] if value is not None else "")
    return i >= 2 and word.isdigit() and 4 <= len(word) <= 5 and \
        tokens[i - 1].word == "on" and tokens[i - 2].word in _SERVING  # ("runs at 1500")
