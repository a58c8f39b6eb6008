"""A sentence written all in capitals, read as the same sentence in lower case.

In a shouted sentence ("THE START TIME WILL BE MOVED FROM 6:30 PM TO 7:00 PM", a transcript, a
notice, caps lock) every word looks like a name or an acronym to the value finders, so "THE
START TIME WILL BE MOVED FROM" became one key and its change went unread. Capitals there say
nothing about which words are names: the sentence is read in lower case, and each value it
gives is then taken back from the text as written ("7:00 PM", "NEWARK SHOWGROUND"), so the
ledger shows what the user wrote. A sentence with lower-case letters anywhere ("the API port
is 8443") is read as written: its capitals do tell names and acronyms apart.

The objects of a preposition keep their capitals ("WE MOVED FROM AWS TO GCP", "MEETING WITH
DANA IN BERLIN"): there a name is what a reader expects, and the value finders see it as one
("from AWS to GCP"), where "from aws to gcp" names nothing. Only the open-class words right
after a preposition keep them, not a determiner ("TO THE NEW OFFICE") or a time ("FROM NEXT
WEEK"), and not a word before a number ("FROM GATE 4": the number carries the value).
"""

from __future__ import annotations

import re

from ollm_desktop.engine.fact_words import (
    CONJUNCTIONS,
    COPULAS,
    DETERMINERS,
    NOT_NP,
    PREPOSITIONS,
    PRONOUNS,
    TIMES,
)

# Words of two letters or more: below three, a line in capitals is a heading or an acronym
# list ("API: 8443", "OK THEN"), not a sentence whose grammar needs reading.
_WORD = re.compile(r"[^\W\d_]{2,}")
MIN_WORDS = 3
_ANY_WORD = re.compile(r"\S+")
# Words of a closed class: no name, whatever their place.
_CLOSED = NOT_NP | DETERMINERS | PREPOSITIONS | COPULAS | CONJUNCTIONS | PRONOUNS | TIMES
# How many words after a preposition may be a name ("FROM GITHUB ACTIONS").
_NAME_WORDS = 3


def folded(sentence: str) -> str | None:
    """The sentence in lower case when it is written all in capitals, else None (also when
    lower case would move the characters: a value is taken back by its position)."""
    if not sentence.isupper() or len(_WORD.findall(sentence)) < MIN_WORDS:
        return None
    low = sentence.lower()
    if len(low) != len(sentence):
        return None
    words = list(_ANY_WORD.finditer(sentence))
    kept: list[tuple[int, int]] = []
    for k, word in enumerate(words[:-1]):
        if _bare(word.group(0)) not in PREPOSITIONS:
            continue
        run = []
        for after in words[k + 1:k + 1 + _NAME_WORDS]:
            text = _bare(after.group(0))
            if not text.isalpha() or text in _CLOSED:
                break
            run.append(after)
            if after.group(0)[-1:] in ",.;:!?":
                break
        following = words[k + 1 + len(run)].group(0) if k + 1 + len(run) < len(words) else ""
        if run and not following[:1].isdigit():
            kept += [(m.start(), m.end()) for m in run]
    for start, end in kept:
        low = low[:start] + sentence[start:end] + low[end:]
    return low


def _bare(word: str) -> str:
    """A word in lower case without the marks around it."""
    return word.strip(",.;:!?()\"'").lower()


def as_written(value: str, sentence: str, low: str) -> str:
    """A value read from ``low`` (``folded(sentence)``) as the sentence writes it; a value the
    reading rebuilt (not a span of ``low``) stays as read."""
    at = low.find(value)
    return sentence[at:at + len(value)] if at >= 0 else value
