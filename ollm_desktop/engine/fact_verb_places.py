"""Two places of a bare number that ``fact_values`` reads as a value: after a verb and "on"
or "at" at the end of its clause ("Postgres runs on 5432", "the API listens on 8080", "the
project's on 3.12", "grafana is now on 3100"), and a one-digit count after a copula ("our
team is 9 engineers", "the flat is 3 rooms").

Why: these are the plainest ways to state a port, a version or a headcount, and the ledger
read none of them (a bare number after a preposition was read only before a noun, "with 4
parallel jobs", and a one-digit number after "is" only in a change, "is now 3").
"""

from __future__ import annotations

from ollm_desktop.engine.fact_value_spans import ends_clause
from ollm_desktop.engine.fact_words import (
    AUXILIARIES,
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    NOT_NP,
    PREPOSITIONS,
    SPEAKING,
    Tok,
    closed,
)

_PLACING = closed("on at")
# Words before "on / at N" that are no verb of a clause: "depends on 5", "based on 12".
_NOT_PLACING = closed("depends depend based focus focuses relies rely")


def _verb(word: str) -> bool:
    """A finite verb or a copula before "on / at": "runs", "listens", "is", "project's",
    "we're", "now" ("is now on 3100")."""
    if word in COPULAS or word in SPEAKING or word == "now" or word.endswith("'s"):
        return True
    return word.isalpha() and len(word) > 3 and word.endswith("s") and \
        not word.endswith("ss") and word not in _NOT_PLACING and word not in DETERMINERS \
        and word not in NOT_NP and word not in PREPOSITIONS and word not in CONJUNCTIONS \
        and word not in AUXILIARIES


def placed(tokens: list[Tok], i: int, first: int) -> bool:
    """A number of two digits or more (or a version) after a verb and "on / at", ending
    its clause: "runs on 5432.", "listens on 8080 for the API" is none (a noun follows)."""
    word, verb = tokens[i].word, tokens[i - 2].word if i >= 2 else ""
    return i - 2 >= first and len(word) >= 2 and tokens[i - 1].word in _PLACING and \
        _verb(verb) and ends_clause(tokens, i) and (verb in COPULAS or "'" in verb or (
            i - 3 >= first and _subject_end(tokens[i - 3])))


def _subject_end(token: Tok) -> bool:
    """The word before a verb in "-s" is its subject's last ("Postgres runs", "the API
    listens"): none after "and" or a comma, where the "-s" word is a name of a gapped item
    ("Grafana listens on port 3000 and Prometheus on 9090")."""
    return bool(token.word) and token.word[:1].isalnum() and token.word not in CONJUNCTIONS \
        and token.word not in PREPOSITIONS and token.word not in DETERMINERS


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
        tokens[i - 1].word in _PLACING and tokens[i - 2].word in _SERVING
