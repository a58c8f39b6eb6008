"""Numbers in words that a change names: "from seven currently to eight" after a change verb
(``fact_value_spans.spelled_change``), and a count in words with the figure it moved from,
"five trains per hour (up from four)", "three staff now, down from five": the count and the
number after "up from" / "down from" are the new and the old value, as "5 trains per hour (up
from 4)" is read. Elsewhere a number in words is prose ("we hand-picked three examples").

Part of ``fact_values``' reading, over ``fact_grammar``'s tokens, in place.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_value_spans import spelled_change
from ollm_desktop.engine.fact_words import BOUNDARY, DETERMINERS, Tok, open_class
from ollm_desktop.engine.reference_words import NUMBER_WORDS

# Cardinals in words that count a plural noun ("five trains"; "one" counts no plural).
_COUNTS = NUMBER_WORDS - {"one", "hundred"}


def spelled_changes(sentence: str, tokens: list[Tok], first: int) -> None:
    """Both readings of numbers in words that a change names, in place."""
    spelled_change(sentence, tokens, first)
    _moved_from(sentence, tokens, first)


def _moved_from(sentence: str, tokens: list[Tok], first: int) -> None:
    """"five trains per hour (up from four)": a number in words after "up from" / "down
    from" is the old value of the count in words before it in its clause (a number in words
    and the plain plural noun it counts, not after a determiner: "the two teams" are the
    teams). Both are read as numbers, the count with its noun ("five trains")."""
    for k in range(first + 2, len(tokens) - 1):
        old = tokens[k + 1]
        if tokens[k].word != "from" or tokens[k - 1].word not in ("up", "down") or \
                old.value or old.word not in NUMBER_WORDS:
            continue
        count = _count_before(tokens, k - 1, first)
        if count is None:
            continue
        word, noun = tokens[count], tokens[count + 1]
        word.value = (word.start, noun.end, sentence[word.start:noun.end], "number")
        word.word, noun.word = "", "·"
        old.value = (old.start, old.end, sentence[old.start:old.end], "number")
        old.word = ""


def _count_before(tokens: list[Tok], end: int, first: int) -> int | None:
    """Where the nearest count in words before ``end`` in its clause stands (a cardinal
    before a plain plural noun), or None (a value or a boundary first: "$5, up from four"
    has its own reading)."""
    for i in range(end - 1, first - 1, -1):
        token = tokens[i]
        if token.value or (token.word in BOUNDARY and token.word not in ("(", ",")):
            return None
        noun = tokens[i + 1] if i + 1 < end else None
        if token.word in _COUNTS and noun is not None and not noun.value and \
                noun.word.endswith("s") and len(noun.word) > 3 and open_class(noun.word) and \
                not (i > first and tokens[i - 1].word in DETERMINERS):
            return i
    return None
