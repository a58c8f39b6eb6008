"""Two one-word values joined by "and" where a value goes, read as one value: "Wedding colours
are sage and cream", "my favourite foods are sushi and ramen".

``fact_values`` reads the word after the copula ("sage") where its clause ends, and "and"
ends it there: the second word, after "and", stood in no place a value goes and was lost, so
the ledger said the colours were sage. Both are the key's value together, as said ("sage and
cream": a later "sage and blush" replaces it whole). The shape is closed: the first is a bare
one-word value in lower case read already, "and" follows it at once, and the second is one
plain word in lower case that ends its clause or goes on to "now" only (no determiner,
pronoun, preposition or adverb: "sage and I love it", "sage and then gold" are none), after a
copula ("are sage and cream", "are now X and Y"; a verb's objects, "we use Postgres and
Redis", may be two things; capitalised names stay two: "is Ana and Ben now" names two
people). Read over ``fact_grammar``'s tokens in place, after ``fact_values`` (full), for a
user's sentence only (``fact_kind_words.kind_values``: a reply's "gold and blush" is its own
prose).
"""

from __future__ import annotations

from ollm_desktop.engine.fact_clauses import ADVERBS
from ollm_desktop.engine.fact_value_spans import capital, ends_clause
from ollm_desktop.engine.fact_words import (
    AUXILIARIES,
    BOUNDARY,
    COPULAS,
    PRONOUNS,
    Tok,
    closed,
    is_change,
    open_class,
)

# Words that end a list or stand for a whole, never a second value ("sage and more").
_NO_ITEM = closed("more stuff things everything everyone so on etc now then too also again "
                  "still instead rather yet")


def _plain(token: Tok) -> bool:
    word = token.word
    return token.value is None and open_class(word) and word not in PRONOUNS and \
        word not in AUXILIARIES and word not in BOUNDARY and word not in ADVERBS and \
        word not in _NO_ITEM and not is_change(word)


def _ends(tokens: list[Tok], at: int) -> bool:
    """The clause ends after ``at``, or "now" ends it ("are sage and blush now")."""
    return ends_clause(tokens, at) or (tokens[at + 1].word == "now" and ends_clause(tokens, at + 1))


def joined_values(sentence: str, tokens: list[Tok], first: int) -> None:
    """Mark, in place, two one-word values joined by "and" as one value (see above)."""
    i = first
    while i < len(tokens) - 2:
        value, join, second = tokens[i].value, tokens[i + 1], tokens[i + 2]
        i += 1
        if value is None or value[3] != "name" or join.word != "and" or join.value or \
                not value[2].isalpha() or not _plain(second) or not _ends(tokens, i + 1):
            continue
        if not value[2].islower() or capital(sentence, second):
            continue  # (common words; "is Ana and Ben now" names two people, kept two)
        k = i - 2 - (i - 2 > first and tokens[i - 2].word == "now")
        if k < first or tokens[k].word not in COPULAS or tokens[k].word in (":", "="):
            continue  # (what a copula says the key is: "are sage and cream", "are now X and Y")
        start = value[0]  # one value of the one key, as the user says it ("sage and cream")
        second.value = (start, second.end, sentence[start:second.end], "name")
        second.word = ""
        del tokens[i - 1:i + 1]  # (one token now, where the key's reading looks back from)
