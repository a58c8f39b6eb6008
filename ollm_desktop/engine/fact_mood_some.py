"""A wish said by some of a group (issue 28: another's wish never supersedes; a module of its
own because ``fact_mood_others`` is full).

``fact_mood_others`` reads a role's "wants" ("the client wants Friday", "my boss wants …")
as the word of the party who decides. A subject counted or quantified is no such party: "a
few parents want it at 6pm", "some of the residents want the 9th", "two neighbours prefer
the north gate", "most of the team wants Thursdays", "half the committee wants 10%": a part
of a group wishes, and what holds is still the user's. The quantifier stands in the words
before the subject's noun, in its clause.

The words are closed classes: the quantifiers and the cardinal numbers.
"""

from __future__ import annotations

from collections.abc import Sequence

from ollm_desktop.engine.fact_words import Tok, closed
from ollm_desktop.engine.reference_words import NUMBER_WORDS

QUANTIFIERS = closed("few several many most some half lots couple handful number bunch "
                     "majority minority")
_NP = closed("a an the of our my their these those other")
_EDGE = closed(", ; : — – and but so because . ! ?")
REACH = 4  # words between the quantifier and the subject's noun ("a few of the other")


def some_of(tokens: Sequence[Tok], a: int, j: int) -> bool:
    """The subject's noun at ``j`` is counted or quantified in the words before it."""
    for k in range(j - 1, max(a, j - REACH) - 1, -1):
        word = tokens[k].word
        if word in _EDGE:
            return False
        if word in QUANTIFIERS or word in NUMBER_WORDS or (
                word.isdigit() and tokens[k].value is None):
            return True
        if word not in _NP and not word.isalpha():
            return False
    return False
