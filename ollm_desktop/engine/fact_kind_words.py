"""Values a word's class tells (stop 51), in the places the other readings leave:

- a model year before a model's name ("we drive a 2015 Prius": one name, the year with it);
- how one travels ("I commute by bike": a mode of transport after "by", a closed class);
- a diet said of a person ("i'm vegetarian", "we're vegan now": after a person's copula);
- a colour a thing is painted or is ("painting the shed sage green", "the door is navy
  blue": a colour word, with its shade before it, ending the clause);
- what a thing is on, a bare noun phrase ("the hens are on layer pellets", "my dissertation
  is on urban heat islands"; "on the table" is a place, "on hold" an idiom);
- a vehicle's or a tool's name after "a" ("I drive a Corolla", "we use a Synology"; the
  user's verb of driving, leasing or using: "saw a Tesla", "he drives a Rivian" are none);
- a place's name and number before another preposition ("at Studio 4 on Hollis St": the
  number ends no clause there, so ``fact_values`` read no "Studio 4");
- where a thing is now ("we're at the library annex now", "the panel stays in the basement");
- a person by a relation and a name after a copula whose subject the other readings leave
  ("my emergency contact at work is my roommate Jess", "it's my neighbor Ruth, 555-0199");
- a plain word a key of two words or more is, before the time it holds at ("Monday gym
  class is spin at 6am": ``fact_values`` reads "K is X" at its clause's end only);
- a place's name that opens a fragment ("Hotel Sol in Seville, 3 nights", "Osteria
  Ventidue.": ``fact_words`` joins a kind of place opening a sentence to the name after it);
- a place by a compass point and a noun ("on the south wall"), or after a verb of position
  ("the tripod sits on the patio"): ``fact_place_words``.

Each is the user's own statement of a thing's value: a word of these classes elsewhere ("by
the way", "a vegan recipe", "green light") or in a reply is none.

Read over ``fact_grammar``'s tokens in place, after ``fact_values`` (full).
"""

from __future__ import annotations

from ollm_desktop.engine.fact_joined_values import joined_values
from ollm_desktop.engine.fact_keys import phrase_before
from ollm_desktop.engine.fact_phrase_words import participle, plain_word
from ollm_desktop.engine.fact_place_words import place_values
from ollm_desktop.engine.fact_value_spans import capital, ends_clause
from ollm_desktop.engine.fact_words import (
    BOUNDARY,
    COPULAS,
    DETERMINERS,
    NAME_HEADS,
    PREPOSITIONS,
    PRONOUNS,
    Tok,
    closed,
)

_MODES = closed("bike bicycle car train bus tram metro subway tube ferry boat plane air foot "
                "scooter e-scooter motorbike motorcycle taxi cab coach rail van")
_TRAVEL = closed("commute commutes commuting commuted go goes going went get gets getting got "
                 "travel travels travelling traveling travelled traveled come comes coming "
                 "came ride rides work works")
_DIETS = closed("vegetarian vegan pescatarian pescetarian keto paleo gluten-free dairy-free "
                "halal kosher teetotal flexitarian coeliac celiac")
_PERSONS = closed("i we she he they")
_CONTRACTED = closed("i'm we're she's he's they're")
_COLOURS = closed("green blue red yellow white black grey gray pink purple orange brown beige "
                  "cream teal navy charcoal ivory lilac mauve turquoise magenta burgundy "
                  "maroon olive mint sage terracotta")
_SHADES = closed("sage navy forest sky pale light dark bright deep olive mint duck-egg sea "
                 "royal baby lime bottle racing slate dove off jet ash")
# A colour's own label right before it ("…, colour ash grey", "finish matt black"): its key.
_COLOUR_LABELS = closed("colour color colours colors finish shade paint")
_PAINTING = closed("paint paints painting painted repaint repainting repainted")
_PLACING = closed("at in into to from")
_STAYING = closed("stays stay remains remain")
_POSSESSIVE = closed("my our his her their")
# The user as a verb's subject, or no subject after a clause's edge ("…, leasing a Golf").
_MINE = closed("i we i'm we're currently now still , ; — –")
# The states a thing is in at a time, no value of it ("the standup is late at 5pm").
_STATES = closed("late early done ready open closed busy free full off on over due back out "
                 "live down up empty available booked")
# Nouns of a position in a course, no place ("we're at the end now", "in the morning"), and of
# idioms of a state ("we're in the clear now", "my head is in the game now": no place).
_POSITIONS = closed("end start beginning middle moment point stage top bottom front back same "
                    "morning afternoon evening night weekend meantime process loop mood clear "
                    "game zone lead wrong right dark red black know money running way mix "
                    "picture groove spotlight doghouse hole past future works air clouds "
                    "pink green driver's hot home")
# Another person, whose thing is no user's ("my dad drives a 1998 Land Cruiser", "neighbour
# painted his fence black").
_OTHERS = closed("he she they his her their he's she's they're dad mum mom father mother "
                 "brother sister wife husband son daughter friend neighbour neighbor boss "
                 "partner uncle aunt cousin grandma grandpa colleague roommate kid kids")
# A copula of the past ("the door was green", "I was vegan from 2018 to 2020": no current value).
_PAST = closed("was were been")
# A hesitation that repairs the value before it ("vegetarian — er, pescatarian").
_REPAIRS = closed("er erm uh um no sorry actually wait")
# The verbs of driving, holding or using a thing, whose object "a NAME" is the user's one ("I
# drive a Corolla", "currently leasing a Golf", "we use a Synology"; "saw a Tesla" is none,
# and "got a Siamese now" may be one more: verbs of getting are left out), said by the user
# or of no subject.
_OWNING = closed("drive drives driving ride rides riding lease leases leasing rent rents "
                 "renting use uses using")
# The nouns of idioms after "on" (a state, no value: "on time", "on hold", "on leave").
_IDIOMS = closed("time holiday leave fire hold track sale board call duty schedule top average "
                 "purpose display order strike break vacation mute standby hand loan site line "
                 "budget target course point edge way fleek it request demand offer record "
                 "approval paper pause ice repeat autopilot")
_AFTER = closed("now , . ; and but so too instead anyway most every usually mostly")


def _mark(sentence: str, tokens: list[Tok], start: int, end: int) -> None:
    tokens[start].value = (tokens[start].start, tokens[end].end,
                           sentence[tokens[start].start:tokens[end].end], "name")
    tokens[start].word = ""
    for token in tokens[start + 1:end + 1]:
        token.word = "·"


def _dotted_on(tokens: list[Tok], i: int) -> bool:
    """The word at ``i`` goes on past a dot with no space ("a 2022 ID.4"): a name not whole."""
    return i + 2 < len(tokens) and tokens[i + 1].word == "." and \
        tokens[i].end == tokens[i + 1].start and tokens[i + 1].end == tokens[i + 2].start


def _ends(tokens: list[Tok], i: int) -> bool:
    return ends_clause(tokens, i) or (i + 1 < len(tokens) and tokens[i + 1].word in _AFTER)


def _others(tokens: list[Tok], first: int, end: int) -> bool:
    """Another person is named before ``end``: the thing is theirs, not the user's."""
    return any(t.word in _OTHERS for t in tokens[first:end])


def _repaired(tokens: list[Tok], i: int) -> bool:
    """The value at ``i`` is taken back by a hesitation after it ("vegetarian — er, X")."""
    return any(t.word in _REPAIRS for t in tokens[i + 1:i + 3])


def _on_plain(sentence: str, tokens: list[Tok], i: int, first: int) -> bool:
    """"the hens are on layer pellets", "my dissertation is on urban heat islands": a noun
    subject, its copula, "on" and a bare noun phrase (no determiner: "on the table" is a
    place) of no idiom ("on time", "on hold"), ending the clause or before a preposition."""
    if i - 2 < first or tokens[i - 1].word not in ("is", "are") or \
            not plain_word(tokens[i - 2]) or tokens[i - 2].word in PRONOUNS:
        return False
    end = i + 1
    while end < len(tokens) and end - i <= 3 and plain_word(tokens[end]) and \
            tokens[end].word.islower() and tokens[end].word not in _IDIOMS:
        end += 1
    if end == i + 1 or not (end >= len(tokens) or tokens[end].word in BOUNDARY or
                            tokens[end].word in PREPOSITIONS or tokens[end].word in _AFTER):
        return False
    _mark(sentence, tokens, i + 1, end - 1)
    return True


def _placed_now(sentence: str, tokens: list[Tok], i: int, first: int) -> bool:
    """"we're at the library annex now", "panel stays in the basement": where a thing is
    now, after a copula with "now" at the clause's end, or after a verb of staying."""
    verb = tokens[i - 1].word if i > first else ""
    if i + 2 >= len(tokens) or tokens[i + 1].word != "the" or \
            not (verb in _STAYING or verb in COPULAS or verb in _CONTRACTED - {"i'm"} | {"it's"}):
        return False
    end = i + 2
    while end < len(tokens) and end - i <= 4 and plain_word(tokens[end]) and \
            tokens[end].word.islower() and tokens[end].word not in _POSITIONS:
        end += 1
    after = tokens[end].word if end < len(tokens) else ""
    now = after == "now" and ends_clause(tokens, end)
    if end == i + 2 or not (now or (verb in _STAYING and ends_clause(tokens, end - 1))):
        return False
    _mark(sentence, tokens, i + 2, end - 1)
    return True


def kind_values(sentence: str, tokens: list[Tok], first: int, role: str = "user") -> None:
    """Mark the values of ``sentence`` that a word's class tells, in place (a user's only: a
    reply's "by train" or "navy blue" is its own prose, never the user's value)."""
    if role != "user":
        return
    place_values(sentence, tokens, first)  # (fact_place_words) "on the south wall"
    joined_values(sentence, tokens, first)  # (fact_joined_values) "are sage and cream"
    for i in range(first, len(tokens)):
        token, word = tokens[i], tokens[i].word
        if token.value or not word:
            continue
        prev = tokens[i - 1].word if i > first else ""
        if word.isdecimal() and len(word) == 4 and 1950 <= int(word) <= 2039 and \
                prev in DETERMINERS and i + 1 < len(tokens) and \
                tokens[i + 1].value is None and capital(sentence, tokens[i + 1]) and \
                tokens[i + 1].word.replace(" ", "").isalpha() and (
                    _ends(tokens, i + 1) or (i + 2 < len(tokens) and
                                             tokens[i + 2].word in PREPOSITIONS)) and \
                i - 2 >= first and tokens[i - 2].word.isalpha() and \
                not _others(tokens, first, i) and not _dotted_on(tokens, i + 1):  # (an object)
            _mark(sentence, tokens, i, i + 1)  # "a 2015 Prius" (not "a 2019 Nature paper")
        elif prev in _PLACING and capital(sentence, token) and word.isalpha() and \
                i + 1 < len(tokens) and tokens[i + 1].value is None and \
                tokens[i + 1].word.isdigit() and len(tokens[i + 1].word) <= 4 and \
                i + 2 < len(tokens) and tokens[i + 2].word in PREPOSITIONS:
            _mark(sentence, tokens, i, i + 1)  # "at Studio 4 on Hollis St", "in Hall 3 at 9"
        elif prev in ("a", "an") and i - 2 >= first and tokens[i - 2].word in _OWNING and \
                (i - 3 < first or tokens[i - 3].word in _MINE) and \
                capital(sentence, token) and word.replace(" ", "").isalnum() and \
                (_ends(tokens, i) or (i + 1 < len(tokens) and tokens[i + 1].word in PREPOSITIONS)):
            _mark(sentence, tokens, i, i)  # "I drive a Corolla", "got a Pixel"
        elif i - 3 >= first and capital(sentence, token) and word.isalpha() and \
                tokens[i - 2].word in _POSSESSIVE and plain_word(tokens[i - 1]) and \
                tokens[i - 1].word.islower() and (tokens[i - 3].word in COPULAS or
                                                  tokens[i - 3].word in ("it's", "that's")) \
                and (_ends(tokens, i) or tokens[i + 1].word in PREPOSITIONS):
            _mark(sentence, tokens, i - 1, i)  # "… is my roommate Jess", "it's my neighbor Ruth"
        elif prev in ("is", "are", "it's") and plain_word(token) and word.islower() and \
                i + 2 < len(tokens) and tokens[i + 1].word in ("at", "on") and \
                (tokens[i + 2].value or ("", "", "", ""))[3] in ("time", "date") and \
                _ends(tokens, i + 2) and not participle(word) and word not in _STATES and (
                    (prev == "it's" and [t.word for t in tokens[i + 3:i + 4]] in (["now"], [
                        "instead"])) or len(set(phrase_before(tokens, i - 1, first)) -
                                            DETERMINERS) >= 2):  # ("it's yoga at 6am now")
            _mark(sentence, tokens, i, i)  # "Monday gym class is spin at 6am"
        elif i == first and " " in word and word.split()[0] in NAME_HEADS and \
                (_ends(tokens, i) or tokens[i + 1].word in PREPOSITIONS):
            _mark(sentence, tokens, i, i)  # "Hotel Sol in Seville, …", "Osteria Ventidue."
        elif (word in ("at", "in") and _placed_now(sentence, tokens, i, first)) or (
                word == "on" and _on_plain(sentence, tokens, i, first)):
            continue
        elif word in _MODES and prev == "by" and _ends(tokens, i) and any(
                t.word in _TRAVEL for t in tokens[max(first, i - 5):i - 1]):
            _mark(sentence, tokens, i, i)  # "I commute by bike"
        elif word in _DIETS and _ends(tokens, i) and not _repaired(tokens, i) and (
                prev in _CONTRACTED or (prev in COPULAS - _PAST and i - 2 >= first and
                                        tokens[i - 2].word in _PERSONS)):
            _mark(sentence, tokens, i, i)  # "i'm vegetarian"
        elif word in _COLOURS and _ends(tokens, i) and i - 1 >= first:
            start = i - 1 if prev in _SHADES and not tokens[i - 1].value else i
            before = tokens[start - 1].word if start - 1 >= first else ""
            painted = any(t.word in _PAINTING for t in tokens[first:start]) and \
                not _others(tokens, first, start)  # (not "neighbour painted his fence black")
            if painted or (before in COPULAS - _PAST and start - 2 >= first and
                           tokens[start - 2].word not in _PERSONS) or before in _COLOUR_LABELS:
                _mark(sentence, tokens, start, i)  # "painting the shed sage green"
