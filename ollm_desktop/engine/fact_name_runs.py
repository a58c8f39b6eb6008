"""Names that run over an apostrophe or a particle, read as one name: a title or a name and
a possessive ("St. Anne's", "St. Mary's Hospital", "Dr. Okafor's"), a possessive before a
capitalised name inside the sentence ("Skinners' Kent Academy"), and a name's particle between
two capitalised parts ("Campo de' Fiori", "Vincent van Gogh", "Charles de Gaulle").

``fact_words.names_joined`` joins a run of capitalised plain words; an apostrophe or a
lower-case particle ended the run there, so the value was the name's first piece ("St.",
"Hotel Campo"). Read over ``fact_grammar``'s tokens, in place, before ``fact_values``.
"""

from __future__ import annotations

from itertools import pairwise

from ollm_desktop.engine.fact_value_spans import capital
from ollm_desktop.engine.fact_words import Tok, closed

# The particles of names (a closed class): "de", "da", "van", "von", "al", "bin", ...
_PARTICLES = closed("de de' d' da di del della dei van von der den du le la dos das al bin "
                    "ibn ter ten y")


def _name(sentence: str, token: Tok) -> bool:
    """A capitalised name token (a run of them, or a title with its dot)."""
    return not token.value and capital(sentence, token) and \
        token.word.replace(" ", "").replace(".", "").isalpha()


def _possessive(sentence: str, token: Tok) -> bool:
    """A capitalised word with a possessive's apostrophe ("Anne's", "Skinners'")."""
    word = token.word.replace("’", "'")
    stem = word[:-2] if word.endswith("'s") else word[:-1] if word.endswith("s'") else ""
    return not token.value and capital(sentence, token) and \
        stem.replace(" ", "").replace(".", "").isalpha()


def _spaced(sentence: str, *tokens: Tok) -> bool:
    return all(sentence[a.end:b.start] == " " for a, b in pairwise(tokens))


def name_runs(sentence: str, tokens: list[Tok], first: int) -> None:
    """Join, in place from ``first``, the tokens of each name that runs over an apostrophe
    or a particle into one token (its words joined by spaces, as a run of names is)."""
    i = first
    while i + 1 < len(tokens):
        a, b = tokens[i], tokens[i + 1]
        c = tokens[i + 2] if i + 2 < len(tokens) else None
        if (_name(sentence, a) and _possessive(sentence, b) and _spaced(sentence, a, b)) or (
                i > first and _possessive(sentence, a) and _name(sentence, b) and
                _spaced(sentence, a, b)):
            tokens[i:i + 2] = [Tok(f"{a.word} {b.word}", a.start, b.end)]
            continue  # ("St. Mary's" and then "Hospital")
        if c is not None and _name(sentence, a) and b.word.replace("’", "'") in _PARTICLES \
                and not b.value and _name(sentence, c) and _spaced(sentence, a, b, c):
            tokens[i:i + 3] = [Tok(f"{a.word} {b.word} {c.word}", a.start, c.end)]
            continue
        i += 1
