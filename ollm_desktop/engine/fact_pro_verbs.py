"""The pro-verb "doing" before a value names no key: "we're doing second Thursday from now
on", "I'm doing 3 days a week now" say what the user does, as "we do Tuesdays now" does
(that reads keyless: the value refers back to the one earlier value of its kind); "doing"
was read as the key ("doing: second Thursday"), which met no earlier value. Only where a
subject pronoun and "be" open the clause right before it ("doing 2 coats of varnish on the
table" keeps its reading; "my sister is doing ..." is another's). A separate module:
fact_clauses is near its size limit.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_words import Tok, closed

# A subject pronoun of the user's with "be", in one word or two.
_ONE_WORD = closed("we're i'm we’re i’m")
_TWO_WORDS = {("we", "are"), ("i", "am")}


def pro_verb(tokens: list[Tok], i: int, start: int) -> bool:
    """The value at ``i`` follows "we're / I'm doing" that opens its clause (``start``)."""
    if i - 2 < start or tokens[i - 1].word != "doing":
        return False
    if tokens[i - 2].word in _ONE_WORD:
        return i - 2 == start
    return i - 3 == start and (tokens[i - 3].word, tokens[i - 2].word) in _TWO_WORDS
