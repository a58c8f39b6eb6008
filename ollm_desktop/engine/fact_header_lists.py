"""A header and a list of values, each with the words that say which one it is:
"Heating schedule: 21 °C mornings, 18 °C evenings", "Fees: £40 adults, £15 children".

After a header of plain words and a colon, items joined by commas hold one value each and,
after it, one or two plain words that tell the items apart, after a preposition or not ("Cat
food: Felix in the morning, Whiskas at night"; a capitalised word opening an item of such a
list is a name). A list of names alone ("Players: Tom, Jake, Sam 7, Ben") gives one value
per item, each of the header's key. Each value is the header's, of
the item's words: (heating schedule, evening), as "the heating schedule's evening value"
would be. Without this the first item took the header as its key and the others none, so a
correction of one ("evenings are 19 °C now") found nothing to replace. A bare number opens
an item where its siblings are bare numbers read as values ("Thermostat: 19.5 in the day, 16
overnight": only the first, after the colon, was read, and the night's 16 was lost); the
items' names of a list "Servers: Alpha port 8080, Beta port 9090" are their keys' words
(``fact_parallel_items``).

Structure only: a header of one to four plain words opening the sentence, a colon, and at
least two items of the form VALUE [PREPOSITION [DETERMINER]] WORD [WORD] that end at a comma
or the sentence's end.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_keys import noun_phrase, singular
from ollm_desktop.engine.fact_parallel_items import parallel_names
from ollm_desktop.engine.fact_phrase_words import mark_value, plain_word
from ollm_desktop.engine.fact_value_spans import capital
from ollm_desktop.engine.fact_words import (
    BOUNDARY,
    DETERMINERS,
    PREPOSITIONS,
    Tok,
    numeric,
    unitless,
)

_HEADER_WORDS = 4
_QUALIFIER_WORDS = 2


def header_items(sentence: str, tokens: list[Tok], first: int) -> dict[int, tuple[str, str]]:
    """The index of each listed value, with its key (header, the item's words)."""
    colon = next((k for k in range(first, min(len(tokens), first + _HEADER_WORDS + 1))
                  if tokens[k].word == ":"), None)
    if colon is None or colon == first or not all(plain_word(t) for t in tokens[first:colon]):
        return {}
    header = " ".join(singular(t.word) for t in tokens[first:colon])
    parallel_names(sentence, tokens, colon + 1)  # "Servers: Alpha port 8080, Beta port 9090"
    names = _names(sentence, tokens, colon + 1)
    if len(names) >= 2:  # "Players: Tom, Jake, Sam 7, Ben": one value per item, the header's
        entity, attribute = noun_phrase(header.split())
        for at in names:
            value = tokens[at].value
            if value is None:
                mark_value(sentence, tokens, at, at + 1)
            else:  # ("Sam 7" was read as a name and its version)
                tokens[at].value = (value[0], value[1], value[2], "name")
        return dict.fromkeys(names, (entity, attribute))
    items: dict[int, tuple[str, str]] = {}
    start = colon + 1
    for k in range(colon + 1, len(tokens) + 1):
        if k < len(tokens) and tokens[k].word not in BOUNDARY:
            continue
        item = _item(sentence, tokens, start, k)
        if item is None:
            return {}
        items[item[0]] = (header, item[1])
        start = k + 1
        if k < len(tokens) and tokens[k].word != ",":
            break
    if len(items) < 2:
        return {}
    numbers = [at for at in items if tokens[at].value is None and numeric(tokens[at].word)]
    valued = [tokens[at].value for at in items if at not in numbers]
    if numbers and not (valued and all(v is not None and unitless(v[2]) for v in valued)):
        return {}  # a bare number beside no bare number read as one: no list of values
    for at in items:
        if at in numbers:  # "19.5 in the day, 16 overnight": the siblings are bare numbers
            token = tokens[at]
            token.value, token.word = (token.start, token.end, token.word, "number"), ""
        elif tokens[at].value is None:  # the list holds: its capitalised word is a name
            mark_value(sentence, tokens, at, at + 1)
    return items


def _names(sentence: str, tokens: list[Tok], start: int) -> list[int]:
    """The index of each item of a list of names from ``start`` to the sentence's end: each
    item one capitalised word, or a name read as one value ("Sam 7"), between commas; none
    where any item is otherwise."""
    items: list[int] = []
    at = start
    while at < len(tokens):
        while at < len(tokens) and tokens[at].word == "·":
            at += 1
        head = tokens[at] if at < len(tokens) else None
        if head is None or not (
                (head.word.isalpha() and capital(sentence, head)) or
                (head.value and head.value[3] in ("name", "version") and
                 head.value[2][:1].isupper())):
            return []
        items.append(at)
        at += 1
        if at < len(tokens) and tokens[at].word != ",":
            return [] if tokens[at].word not in BOUNDARY or at + 1 < len(tokens) else items
        at += 1
    return items


def _item(sentence: str, tokens: list[Tok], start: int, end: int) -> tuple[int, str] | None:
    """VALUE [PREPOSITION [DETERMINER]] WORD [WORD] in [start, end): the value's index and
    its item's words. A capitalised word opening the item is a name ("Whiskas at night")."""
    at = start
    while at < end and tokens[at].word == "·":  # the value's own words before it
        at += 1
    head = tokens[at] if at < end else None
    if head is None or (head.value is None and not numeric(head.word)
                        and not (head.word.isalpha() and capital(sentence, head))):
        return None
    after = at + 1
    if after < end and tokens[after].word in PREPOSITIONS:  # "in the morning", "at night"
        after += 1 + (after + 1 < end and tokens[after + 1].word in DETERMINERS)
    words = tokens[after:end]
    if not 0 < len(words) <= _QUALIFIER_WORDS or not all(plain_word(t) for t in words):
        return None
    return at, " ".join(singular(t.word) for t in words)
