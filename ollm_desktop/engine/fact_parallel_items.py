"""Items of a list that share their label, each after the name it belongs to: "Servers: Alpha
port 8080, Beta port 9090", "Rooms: Hall A capacity 150 seats, Hall B capacity 80 seats".

Right after a header's colon a capitalised word reads as the header's value ("Vet: Dr
Alvarez"), so the first item's name became "server: Alpha" and its number a bare "port:
8080", while the next item's name, mid-sentence, stayed a word of its key ("beta port:
9090"): one list, two readings, and a later "Alpha port is 8181 now" met a key the list
never gave. Where two items or more are parallel -- a name, then a label of one head noun,
then a value that ends the item -- each name is its item's, a modifier of the label, as the
second one already was: the first name goes back to being a word of its key. Where every
item ends in a capitalised word no reader took ("Net: upstairs SSID Fernhill-Up, downstairs
SSID Fernhill-Down": nothing was read), that word is the item's value.

Structure only: items between commas or semicolons, from the colon to the sentence's end;
each NAME WORD [WORD [WORD]] VALUE (a value, or a capitalised word no reader took), the
label's last word (its head noun) the same in every item ("Rex dog food 2 cups, Mia cat food
1 cup"); the name one token (a plain word, or a name value of one or two words).
"""

from __future__ import annotations

from ollm_desktop.engine.fact_phrase_words import mark_value, plain_word
from ollm_desktop.engine.fact_value_spans import capital
from ollm_desktop.engine.fact_words import BOUNDARY, Tok

_JOINS = frozenset({",", ";"})
_LABEL = 3  # label words at most


def parallel_names(sentence: str, tokens: list[Tok], start: int) -> None:
    """Unmark the name values opening the parallel items from ``start`` (after a colon); a
    capitalised word ending each item is its value ("upstairs SSID Fernhill-Up")."""
    items, at = [], start
    for k in range(start, len(tokens) + 1):
        if k < len(tokens) and tokens[k].word not in BOUNDARY:
            continue
        items.append((at, k))
        at = k + 1
        if k >= len(tokens) or tokens[k].word not in _JOINS:
            break
    labels = {_label(sentence, tokens, a, b) for a, b in items}
    if len(items) < 2 or len(labels) != 1 or None in labels:
        return
    for a, b in items:
        head = tokens[a]
        if head.value is not None:
            head.word, head.value = head.value[2].lower(), None
        if tokens[b - 1].value is None:
            mark_value(sentence, tokens, b - 1, b)


def _label(sentence: str, tokens: list[Tok], a: int, b: int) -> str | None:
    """The head noun of the label of the item NAME LABEL VALUE in [a, b), None if it is no
    such item."""
    last = tokens[b - 1] if b - 1 < len(tokens) else None
    if not 3 <= b - a <= _LABEL + 2 or last is None or (last.value is None and not (
            capital(sentence, last) and last.word.replace("-", "").isalnum())):
        return None
    head = tokens[a]
    if head.value is not None:
        named = head.value[3] == "name" and head.value[2][:1].isupper() and \
            len(head.value[2].split()) <= 2
    else:
        named = plain_word(head)
    label = tokens[a + 1:b - 1]
    if not named or not all(plain_word(t) for t in label):
        return None
    return label[-1].word
