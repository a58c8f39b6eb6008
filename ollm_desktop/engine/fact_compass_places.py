"""A place named by a compass point and a noun (stop 52; a module of its own because
``fact_values`` is full and ``fact_grammar`` nearly so: ``fact_kind_words`` asks this one).

"the back door goes on the south wall", "practice is on the east pitch", "the pier goes at
the north end", "we're in the west wing now": after a preposition of place and "the", a
compass point (a closed class: "north", "south-east", "northern", …) and one plain noun
name one place among its like, the way a name does; ``fact_values`` reads capitalised
names only, so "south wall" was never read. The pair is a value when it ends its clause,
or a preposition, "now" or a time follows it ("on the north side of the house", "on the
east pitch at 17:15"). The user's own sentences only: a reply's "on the south side" is
its prose.

The words are closed classes: the compass points and the prepositions of place.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_phrase_words import plain_word
from ollm_desktop.engine.fact_value_spans import ends_clause
from ollm_desktop.engine.fact_words import PREPOSITIONS, Tok, closed

COMPASS = closed("north south east west northern southern eastern western north-east "
                 "north-west south-east south-west northeast northwest southeast southwest "
                 "ne nw se sw")
_PLACE = closed("on at in to into onto by near from")
_AFTER = closed("now instead today then")


def compass_places(sentence: str, tokens: list[Tok], first: int, role: str = "user") -> None:
    """Mark "the south wall" after a preposition of place as a value, in place."""
    if role != "user":
        return
    for i in range(max(first, 2), len(tokens) - 1):
        noun, point = tokens[i + 1], tokens[i]
        if point.value or point.word not in COMPASS or tokens[i - 1].word != "the" or \
                tokens[i - 2].word not in _PLACE or not plain_word(noun) or \
                not noun.word.islower() or noun.word in COMPASS:
            continue
        after = tokens[i + 2] if i + 2 < len(tokens) else None
        if not (ends_clause(tokens, i + 1) or after is None or after.word in PREPOSITIONS or
                after.word in _AFTER or (after.value is not None and after.value[3] in (
                    "time", "date"))):
            continue
        point.value = (point.start, noun.end, sentence[point.start:noun.end], "name")
        point.word = ""
        noun.word = "·"
