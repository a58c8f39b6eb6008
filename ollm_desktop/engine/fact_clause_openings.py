"""What opens a clause before its subject: the words a clause's subject follows.

"@dana I raised it to 100mb": a mention is a vocative, no part of the subject (the key was
"@ dana"). "Dr. Obi asked that from now on drafts go to X": the subject follows a fronted
"from now on" (the drafts), and a preposition in that adverbial ends no subject. "Mark is
away, so Julia drives them": a clause connective (a conjunction: "and", "or", "but", "so") opens the
clause and names nothing; the subject follows it (the key was "so").
"""

from __future__ import annotations

from ollm_desktop.engine.fact_leads import ONWARD
from ollm_desktop.engine.fact_words import CONJUNCTIONS, DEICTIC, Tok

_CONNECTIVES = CONJUNCTIONS


def subject_start(clause: list[Tok]) -> list[Tok]:
    """A clause's words from where its subject may begin (see the module's docstring)."""
    return _after_adverbial(_unaddressed(clause))


def after_connective(words: list[str]) -> list[str]:
    """A subject's words, or none where they are only the connectives that open its clause
    (", so Julia drives them": "so" is no subject)."""
    return [] if all(w in _CONNECTIVES for w in words) else words


def _unaddressed(clause: list[Tok]) -> list[Tok]:
    """A clause without the "@name" it is addressed to ("@dana I raised it to 100mb"): a
    mention is a vocative, no part of the subject."""
    return [t for k, t in enumerate(clause)
            if t.word != "@" and not (k and clause[k - 1].word == "@")]


def _after_adverbial(clause: list[Tok]) -> list[Tok]:
    """A clause's words after a fronted "from now on" ("Dr. Obi asked that from now on
    drafts go to X": the drafts go there): the subject follows the adverbial, and a
    preposition in it ends no subject."""
    cut = max((k + 3 for k in range(len(clause) - 2) if clause[k].word == "from" and
               clause[k + 1].word in DEICTIC and clause[k + 2].word in ONWARD), default=0)
    return clause[cut:] if cut < len(clause) else clause
