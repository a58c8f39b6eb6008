"""A count that is one item of a list of a statement's values: "sports hall, 48 students,
9:00 start", "annealing temp 58 °C, 35 cycles", "booked the hall, 120 guests, starts 7pm".

``fact_value_spans.listed_count`` reads a count after a comma only where the list already
holds a count ("11 starters, 5 subs"); a list of values of other kinds (a place, a temperature,
a time) with one count among them lost the count, so a correction of another item ("not the
sports hall but the library") left the count unread and the scorer found it missing. The
item's shape decides, never its words: a comma (or ";") before it, a number, one or two plain
words the last of which is a plural noun, and the item ends there (a boundary or the
sentence's end). A count opening the sentence ("48 students, 9:00 start") is left as it was
read (no comma before it: it may be the clause's subject or an aside). "at 5, 3 of them left"
has no noun ending the item; "so far, 3 people came" goes on after its noun: neither is read.
Split from ``fact_value_spans`` (full).
"""

from __future__ import annotations

from ollm_desktop.engine.fact_value_spans import listed_count as counted_list
from ollm_desktop.engine.fact_words import (
    AUXILIARIES,
    BOUNDARY,
    Tok,
    is_change,
    open_class,
)

# Words in -s that are no counted noun ("3 is", "5 was", "2 has", "4 days ago" is a duration
# and read elsewhere): a closed class, beside the word classes above.
_NOT_PLURAL = frozenset({"is", "was", "has", "does", "goes", "its", "this", "thus", "yes",
                         "plus", "less", "minus", "us", "as", "ours", "yours", "times"})


def listed_count(tokens: list[Tok], i: int, first: int) -> bool:
    """A count in a list: of counts (``fact_value_spans.listed_count``) or of a statement's
    values of any kind (this module's docstring)."""
    return counted_list(tokens, i, first) or listed_item(tokens, i, first)


def _plain(token: Tok) -> bool:
    word = token.word
    return token.value is None and open_class(word) and word not in AUXILIARIES and \
        not is_change(word)


def listed_item(tokens: list[Tok], i: int, first: int) -> bool:
    """The number at ``i`` and the one or two plain words after it are a list's item: a
    comma before it, the last word a plural noun, a boundary or the end after it."""
    if i - 1 <= first or tokens[i - 1].word not in (",", ";"):
        return False
    end = i + 1
    while end < len(tokens) and end < i + 3 and _plain(tokens[end]):
        end += 1
    if end == i + 1:
        return False
    noun = tokens[end - 1].word
    if len(noun) < 3 or not noun.endswith("s") or noun.endswith("ss") or noun in _NOT_PLURAL:
        return False
    return end >= len(tokens) or (tokens[end].word in BOUNDARY and tokens[end].word != ":")
