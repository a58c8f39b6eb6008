"""A name that a verb takes with an article: "got a Pixel", "I drive a Mazda3 now", "taking
the Subaru instead", "we're the Quackstreet Boys" (issue 28, names).

``fact_values`` reads a capitalised name as a verb's object only right after the verb ("use
Vitest for the tests"); with "a", "an" or "the" between them the name was left a word, and a
user's new car, phone or team name was never a value (blind48-a's "got a Pixel", blind47-a's
"we're the Quackstreet Boys", blind46-a's "I drive a Mazda3 now").

Structure only: a plain verb (no closed-class word, not capitalised), an article, then one
capitalised name (a run of names is one token already: ``fact_name_runs``) that ends its
clause or stands before a preposition, "now", "instead" or "and". A name in capitals only
("the API", "the README") is a noun's short form, not a name the user gave. The verbs that
part with a thing ("sold the Civic", "returned the Dyson", and ``fact_leads.ENDING``'s "drop",
"ditch", "cancel") take no value: their object is what the user no longer has.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_leads import ENDING
from ollm_desktop.engine.fact_value_spans import capital, ends_clause
from ollm_desktop.engine.fact_verb_places import verb_like
from ollm_desktop.engine.fact_words import (
    AUXILIARIES,
    NAMING,
    PREPOSITIONS,
    Tok,
    closed,
    is_change,
)

ARTICLES = closed("a an the")
# The verbs of parting with a thing, in their forms (a closed class beside ENDING).
PARTING = ENDING | closed("sell sells sold selling return returns returned returning trade "
                          "trades traded trading lose loses lost losing leave leaves left "
                          "leaving quit quits quitting replace replaces replaced replacing "
                          "retire retires retired retiring")
_AFTER = closed("now instead rather and")
_WE_ARE = closed("we're i'm")  # the speaker's own copula, contracted


def article_object(sentence: str, tokens: list[Tok], i: int, first: int) -> bool:
    """Token ``i`` is a capitalised name a verb takes with an article ("got a Pixel")."""
    if i - 2 < first or tokens[i - 1].word not in ARTICLES:
        return False
    word, head = tokens[i].word, tokens[i - 2]
    if not capital(sentence, tokens[i]) or not any(c.isalpha() for c in word) or \
            sentence[tokens[i].start:tokens[i].end].isupper():
        return False  # ("the API", "the README": a noun's short form)
    verb = head.word in _WE_ARE or (  # "we're the Quackstreet Boys"
        verb_like(head.word) and not capital(sentence, head) and head.word not in AUXILIARIES
        and head.word not in NAMING and head.word not in PARTING and not is_change(head.word))
    if not verb:
        return False
    nxt = tokens[i + 1].word if i + 1 < len(tokens) else ""
    return ends_clause(tokens, i) or nxt in PREPOSITIONS or nxt in _AFTER
