"""Offers named by their noun (issue 28: what another party offers is not what the user has,
and replaces nothing; ``fact_mood_others`` reads offers told by their verb, "the garage
quoted 800 EUR", and asks this module for the ones told by a noun).

- **An offer's noun with its value**: a value right before a noun of offering ("Comcast
  has a $30 promo", "the other gym's running a £25 deal", "there's a 20% discount on the
  annual plan") or after it and "of / for / at" ("they made an offer of $145k", "a deal at
  £25 a month"), in a clause with no first person before the noun: the value is the offer's,
  from the clause's opening to the noun phrase's end. The speaker's own ("I got a $30
  promo", "we're on the £25 deal", "my $30 promo ends in May") is read as before, and so is
  the noun as a key's subject ("the deal is $1,800").

The words are closed classes: the nouns of offering, the first person, the prepositions
that take an offer's figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ollm_desktop.engine.fact_mood_words import FIRST_PERSON
from ollm_desktop.engine.fact_words import Tok, closed

OFFER_NOUNS = closed("promo promos promotion deal deals offer offers discount coupon special "
                     "counteroffer counter-offer")
_OWN = closed("my our mine ours me us")
_TAKES = closed("of for at")
_EDGE = closed(", ; : — – but so because and . ! ? ( )")


def offered_marks(tokens: Sequence[Tok], a: int, b: int,
                  ) -> list[tuple[int, int, Literal["reported"]]]:
    """The ranges of a segment ``(a, b)`` that are another's offer told by its noun."""
    out: list[tuple[int, int, Literal["reported"]]] = []
    for i in range(a, b):
        if tokens[i].word not in OFFER_NOUNS:
            continue
        start = max((x + 1 for x in range(a, i) if tokens[x].word in _EDGE), default=a)
        before = tokens[i - 1] if i > a else None
        valued = before is not None and (before.value is not None or before.word[:1].isdigit())
        after = i + 2 < b and tokens[i + 1].word in _TAKES and (
            tokens[i + 2].value is not None or tokens[i + 2].word[:1].isdigit())
        if i + 1 < b and tokens[i + 1].word in ("is", "was", "are", "'s"):
            continue  # "the deal is $1,800": the noun names a key
        if not (valued or after) or any(t.word in FIRST_PERSON or t.word in _OWN
                                        for t in tokens[start:i]):
            continue
        out.append((start, i + 3 if after else i + 1, "reported"))
    return out
