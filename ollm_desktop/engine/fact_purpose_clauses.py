"""A change verb's "to" that opens a purpose ("update the docs to say that the port is 5000")
is no "change K to X": the value belongs to the reported clause after "that".

"Change the readme to state that the API port is 9000", "update the wiki to reflect that the
limit is 20 MB", "edit the guide to make clear that the timeout is 30 s": the verb changes a
document, and its "to" is followed by a verb and "that", not by the value. Read as "change K
to X", the value's key was the document ("readme", "wiki"); the key is the subject of the
clause "that" opens ("the API port"), read as any clause's subject is.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_words import BOUNDARY, DETERMINERS, PREPOSITIONS, Tok

# Words between the purpose's "to" and "that": its verb, and at most two more ("make clear",
# "make it clear", "point out").
_MAX_PURPOSE_WORDS = 3


def reported_clause_start(tokens: list[Tok], change: int, i: int) -> int | None:
    """Where the clause "that" opens begins, when the change verb at ``change`` is followed by
    "to" + a verb (no value, no determiner) and then "that" before the value at ``i``; else
    None."""
    to = next((k for k in range(change + 1, i) if tokens[k].word == "to"), None)
    if to is None or to + 1 >= i:
        return None
    for k in range(to + 1, min(i, to + 2 + _MAX_PURPOSE_WORDS)):
        token = tokens[k]
        if token.word == "that":
            return k + 1 if k > to + 1 and k + 1 < i else None
        if token.value or token.word in BOUNDARY or token.word in PREPOSITIONS or \
                (k == to + 1 and (token.word in DETERMINERS or not token.word.isalpha())):
            return None
    return None


def beyond_change(tokens: list[Tok], change: int, i: int) -> bool:
    """Whether the value at ``i`` stands in a later clause than the change verb's "to X" at
    ``change``: a boundary (a comma, a dash) after "to" and its value, then more words ("bump
    the minimum to 22, which is the LTS now that 24 is out": 24 is no minimum; "raise the
    cap to 50, the old 20 was too low"). The change's own "from Y" may follow its "to X"
    ("move the call to 3pm, from 2pm")."""
    to = next((k for k in range(change + 1, i) if tokens[k].word == "to"), None)
    if to is None:
        return False
    valued = next((k for k in range(to + 1, i) if tokens[k].value), None)
    if valued is None:
        return False
    cut = next((k for k in range(valued + 1, i) if tokens[k].word in BOUNDARY), None)
    return cut is not None and tokens[cut + 1].word != "from"
