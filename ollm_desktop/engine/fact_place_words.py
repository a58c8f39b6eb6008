"""Places a word class tells (stop 52): a compass point and a noun, or the noun after a verb
of position (a module of its own because ``fact_values`` is full and ``fact_grammar`` nearly
so: ``fact_kind_words`` asks this one).

"the back door goes on the south wall", "practice is on the east pitch", "the pier goes at
the north end", "we're in the west wing now": after a preposition of place and "the", a
compass point (a closed class: "north", "south-east", "northern", …) and one plain noun
name one place among its like, the way a name does; ``fact_values`` reads capitalised
names only, so "south wall" was never read. The pair is a value when it ends its clause,
or a preposition, "now" or a time follows it ("on the north side of the house", "on the
east pitch at 17:15"). The user's own sentences only: a reply's "on the south side" is
its prose.

The same module reads where a thing is kept by a verb of position: "the tripod sits on the
patio by the shed for now", "the spare key lives in the shed", "the printer stands in the
hallway" (a present verb of sitting, standing, living, hanging or lying, then "on / in / at /
under the", one or two plain nouns, and the clause's end, a preposition or "now" after
them): the noun phrase is where the thing is, a value. Nouns of a position in a course or
an idiom ("in the end", "in the way") are none.

The words are closed classes: the compass points, the prepositions of place, the verbs of
position.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_phrase_words import plain_word
from ollm_desktop.engine.fact_value_spans import ends_clause
from ollm_desktop.engine.fact_words import PREPOSITIONS, Tok, closed

COMPASS = closed("north south east west northern southern eastern western north-east "
                 "north-west south-east south-west northeast northwest southeast southwest "
                 "ne nw se sw")
_PLACE = closed("on at in to into onto by near from")
_AFTER = closed("now instead today then for")
_POSED = closed("sits sit stands stand lives live hangs hang lies lie")
_AT = closed("on in at under")
_NOT_PLACES = closed("end start beginning middle way same moment meantime morning afternoon "
                     "evening night weekend past future dark air sun shade wind rain corner")


def _then(tokens: list[Tok], k: int) -> bool:
    """The place's noun phrase may end before ``k``: the clause's end, a preposition, "now",
    "for now" or a time."""
    after = tokens[k] if k < len(tokens) else None
    return after is None or ends_clause(tokens, k - 1) or after.word in PREPOSITIONS or \
        after.word in _AFTER or (after.value is not None and after.value[3] in ("time", "date"))


def _posed(sentence: str, tokens: list[Tok], i: int) -> None:
    """"sits on the patio": the plain nouns after a verb of position, "on / in …" and "the"."""
    if tokens[i - 1].word not in _POSED or tokens[i].word not in _AT or \
            tokens[i + 1].word != "the":
        return
    end = i + 2
    while end < len(tokens) and end - i <= 3 and plain_word(tokens[end]) and \
            tokens[end].word.islower() and tokens[end].word not in _NOT_PLACES:
        end += 1
    if end == i + 2 or not _then(tokens, end):
        return
    start = tokens[i + 2]
    start.value = (start.start, tokens[end - 1].end,
                   sentence[start.start:tokens[end - 1].end], "name")
    start.word = ""
    for token in tokens[i + 3:end]:
        token.word = "·"


def place_values(sentence: str, tokens: list[Tok], first: int, role: str = "user") -> None:
    """Mark "the south wall" after a preposition of place, and "the patio" after a verb of
    position, as values, in place."""
    if role != "user":
        return
    for i in range(first + 1, len(tokens) - 2):
        if not tokens[i].value:
            _posed(sentence, tokens, i)
    for i in range(max(first, 2), len(tokens) - 1):
        noun, point = tokens[i + 1], tokens[i]
        if point.value or point.word not in COMPASS or tokens[i - 1].word != "the" or \
                tokens[i - 2].word not in _PLACE or not plain_word(noun) or \
                not noun.word.islower() or noun.word in COMPASS:
            continue
        if not _then(tokens, i + 2):
            continue
        point.value = (point.start, noun.end, sentence[point.start:noun.end], "name")
        point.word = ""
        noun.word = "·"
