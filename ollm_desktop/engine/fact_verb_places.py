"""Two places of a bare number that ``fact_values`` reads as a value: after a verb and "on"
or "at" at the end of its clause ("Postgres runs on 5432", "the API listens on 8080", "the
project's on 3.12", "grafana is now on 3100"), and a one-digit count after a copula ("our
team is 9 engineers", "the flat is 3 rooms").

Why: these are the plainest ways to state a port, a version or a headcount, and the ledger
read none of them (a bare number after a preposition was read only before a noun, "with 4
parallel jobs", and a one-digit number after "is" only in a change, "is now 3").
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
