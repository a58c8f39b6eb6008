"""A sentence written all in capitals, read as the same sentence in lower case.

In a shouted sentence ("THE START TIME WILL BE MOVED FROM 6:30 PM TO 7:00 PM", a transcript, a
notice, caps lock) every word looks like a name or an acronym to the value finders, so "THE
START TIME WILL BE MOVED FROM" became one key and its change went unread. Capitals there say
nothing about which words are names: the sentence is read in lower case, and each value it
gives is then taken back from the text as written ("7:00 PM", "NEWARK SHOWGROUND"), so the
ledger shows what the user wrote. A sentence with lower-case letters anywhere ("the API port
is 8443") is read as written: its capitals do tell names and acronyms apart.
"""

from __future__ import annotations

import re

# Words of two letters or more: below three, a line in capitals is a heading or an acronym
# list ("API: 8443", "OK THEN"), not a sentence whose grammar needs reading.
_WORD = re.compile(r"[^\W\d_]{2,}")
MIN_WORDS = 3


def folded(sentence: str) -> str | None:
    """The sentence in lower case when it is written all in capitals, else None (also when
    lower case would move the characters: a value is taken back by its position)."""
    if not sentence.isupper() or len(_WORD.findall(sentence)) < MIN_WORDS:
        return None
    low = sentence.lower()
    return low if len(low) == len(sentence) else None


def as_written(value: str, sentence: str, low: str) -> str:
    """A value read from ``low`` (``folded(sentence)``) as the sentence writes it; a value the
    reading rebuilt (not a span of ``low``) stays as read."""
    at = low.find(value)
    return sentence[at:at + len(value)] if at >= 0 else value
