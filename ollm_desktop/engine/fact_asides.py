"""A relative clause set off between a subject and its verb (issue 28, real text).

"Bard High School Early College II, which opened in 2008 and is modeled on ..., is now Bard
High School Early College Queens": a non-restrictive relative clause (", which ...," or ",
who ...,") after a sentence's opening noun phrase says something more about the subject; the
main clause is "SUBJECT is now X". Read with the aside in place, the grammar takes "which
opened in 2008" as the subject and keys the change to it. The aside is left out before the
grammar reads (``fact_surface.normalised``), so the subject meets its verb; what it says is
background, not the correction.

Only a sentence-opening noun phrase (no verb, pronoun or value of its own) with the aside
closed by a comma right before a verb (a copula, an auxiliary, a change verb, or "now") is
read so:
"We moved to Leeds, which is closer, and the office is now on Park Row" keeps its clauses.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_words import BOUNDARY, COPULAS, PRONOUNS, Tok, closed, is_change

RELATIVES = closed("which who whom whose")
_VERBAL = COPULAS | closed("has have had will would can could should did does do")
MAX_SUBJECT = 10  # tokens of the opening noun phrase
_STOPS = closed(". ; : ! ? — –")


def _verb_next(tokens: list[Tok], at: int) -> bool:
    """A verb opens the main clause's predicate at ``at`` ("is now", "has", "moved"), or
    "now" before one ("..., now meets on Wednesday")."""
    word = tokens[at].word if at < len(tokens) else ""
    return word in _VERBAL or is_change(word) or word == "now"


def without_aside(tokens: list[Tok]) -> list[Tok]:
    """The tokens without a relative clause set off between the opening subject and its
    verb; unchanged when there is none."""
    for c in range(1, min(len(tokens) - 2, MAX_SUBJECT + 1)):
        word = tokens[c].word
        if word != ",":
            if tokens[c].value is not None or word in BOUNDARY or word in PRONOUNS or \
                    word in _VERBAL or is_change(word):
                return tokens
            continue
        if tokens[c + 1].word not in RELATIVES:
            return tokens
        for d in range(c + 2, len(tokens) - 1):
            if tokens[d].word in _STOPS:
                return tokens
            if tokens[d].word == "," and _verb_next(tokens, d + 1):
                return tokens[:c] + tokens[d + 1:]
        return tokens
    return tokens
