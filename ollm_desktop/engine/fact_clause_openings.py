"""What opens a clause before its subject: the words a clause's subject follows.

"@dana I raised it to 100mb": a mention is a vocative, no part of the subject (the key was
"@ dana"). "Dr. Obi asked that from now on drafts go to X": the subject follows a fronted
"from now on" (the drafts), and a preposition in that adverbial ends no subject. "Mark is
away, so Julia drives them": a clause connective (a conjunction: "and", "or", "but", "so") opens the
clause and names nothing; the subject follows it (the key was "so").
"""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_fronted import after_fronted
from ollm_desktop.engine.fact_leads import ONWARD
from ollm_desktop.engine.fact_words import (
    BOUNDARY,
    CONJUNCTIONS,
    COPULAS,
    DEICTIC,
    DETERMINERS,
    NOT_NP,
    PREPOSITIONS,
    Tok,
    is_change,
)

_CONNECTIVES = CONJUNCTIONS


def subject_start(clause: list[Tok]) -> list[Tok]:
    """A clause's words from where its subject may begin (see the module's docstring)."""
    return after_fronted(_after_adverbial(_unaddressed(clause)))


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


_MAX_HEAD = 3  # the words of a subject's head noun phrase before "for"


def head_before_for(clause: list[Tok], det: int) -> list[str]:
    """The head noun of a subject "NOUN for DET ..." whose last determiner (at ``det``)
    opens the object of "for" ("Registration for the May 3 race has been moved to April
    20"): the registration's date changed, not the race's; none where the clause is shaped
    otherwise (a verb or a determiner before "for": "set the alarm for the ...")."""
    at = det - 1
    if at < 1 or at > _MAX_HEAD or clause[at].word != "for":
        return []
    head = [t.word for t in clause[:at]]
    return head if all(_noun_word(w) for w in head) else []


def names_which(tokens: list[Tok], i: int) -> bool:
    """The value at ``i`` modifies the noun after it in the object of a subject's "for"
    ("Registration for the May 3 race has been moved to April 20"): it says which race, and
    the change is the registration's, so it is no old value of the change."""
    at = i - 1 - (i > 0 and tokens[i - 1].word in DETERMINERS)
    start = max((k + 1 for k in range(at) if tokens[k].word in BOUNDARY), default=0)
    return 0 < at - start <= _MAX_HEAD and tokens[at].word == "for" and \
        i + 1 < len(tokens) and not tokens[i + 1].value and _noun_word(tokens[i + 1].word) and \
        all(not t.value and _noun_word(t.word) for t in tokens[start:at])


def names_which_at(sentence: str, start: int, end: int) -> bool:
    """``names_which`` for a value's span in the sentence's text (the readers that work on
    spans, ``provenance``'s moved subjects)."""
    clause = re.split(r"[,;:!?()]|\.\s", sentence[:start])[-1].lower().split()
    after = sentence[end:].lower().split()[:1]
    at = len(clause) - 1 - (bool(clause) and clause[-1] in DETERMINERS)
    return 0 < at <= _MAX_HEAD and clause[at] == "for" and bool(after) and \
        _noun_word(after[0]) and all(_noun_word(w) for w in clause[:at])


def _noun_word(word: str) -> bool:
    return word.isalpha() and word not in DETERMINERS and word not in PREPOSITIONS and \
        word not in COPULAS and word not in NOT_NP and word not in CONJUNCTIONS and \
        word not in _HAVE and not is_change(word)


_HAVE = frozenset({"has", "have", "had", "been", "being", "got", "gets", "get"})


