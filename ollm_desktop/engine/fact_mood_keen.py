"""Another's leaning, said by an adjective or an idiom of preference (issue 28: someone
else's wish never replaces the user's value; ``fact_mood_others`` reads "wants", "prefers"
and "pushing for", and asks this module per segment beside them).

A subject other than the speaker before a phrase of leaning: an adjective and its
preposition ("the new hire is keen on Postgres 17", "my mum is dead set on lilac", "the
kids are sold on Lisbon", "Dan's partial to the 2pm slot", "she's all for Friday"), an
idiom ("has her heart set on the blue one", "swears by 1:5:5", "is rooting / gunning /
holding out / itching / dying for 9 pm"), "fancies", or a verb of saying after
"keeps" ("my dad keeps saying 3pm", "the garage guy keeps telling me 36 psi": an
insistence, not a report of what holds; a clause with its copula after it, "they keep
saying the code is 1234", reports and is read as before). What follows, to its
clause's end, is the other's taste or wish, not the user's value. The speaker's own
leaning ("I'm keen on Friday") and a pronoun that is no person ("it's set on 8080": a
setting) are read as before, and so is a clause with a correction's shape ("now",
"instead", "not"). A leaning needs its verb and a person: "a fancy place" and "is fancy"
are adjectives, "sold on" leans only after a present copula ("the bike sold on eBay", "was
sold on June 3": sales), and a subject after a determiner or a count must name a person or
a choosing party ("the scale keeps saying 82 kg", "the 3 rooms are all for Saturday": things).

The words are closed classes: the adjectives and idioms of leaning, their prepositions,
the auxiliaries between subject and phrase.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ollm_desktop.engine.fact_mood_pressed import KIN
from ollm_desktop.engine.fact_mood_words import FIRST_PERSON
from ollm_desktop.engine.fact_words import DETERMINERS, PREPOSITIONS, Tok, closed

KeenMark = tuple[int, int, Literal["reported"]]

# (head, preposition): "keen on", "sold on", "partial to", "swears by", "rooting for"
_LEANING = {"keen": "on", "set": "on", "sold": "on", "partial": "to", "swears": "by",
            "swear": "by", "swearing": "by", "rooting": "for", "gunning": "for",
            "holding": "out", "itching": "for", "dying": "for", "fancies": "",
            "fancy": "", "all": "for"}
_BE = closed("is are am was were 's 're has have had got")  # "is keen", "has her heart set"
_ALONG = _BE | closed("really so very pretty quite dead totally still also just always "
                      "heart her his their kinda definitely super absolutely completely "
                      "seriously genuinely honestly def defo") | DETERMINERS
_NO_PERSON = closed("it this that which there what who")
_SHAPE = closed("now instead rather not")  # a correction's shape
_EDGE = closed(", ; : — – but so because and . ! ?")
_BACK = closed("them him her one")
# Verbs of saying after "keeps": an insistence ("my dad keeps saying 3pm", "the guy at the
# garage keeps telling me 36 psi"), another's push, not a report of what holds.
_INSISTING = closed("saying telling suggesting insisting recommending asking")
_KEEPS = closed("keeps keep kept")
_COPULA = closed("is are was were be")
_TOLD = closed("me us")
_OWN = closed("i'm we're i've we've i'd we'd im ive id")
# Nouns of persons and of the parties that choose: a subject with a determiner or a count
# before it ("the scale keeps saying 82 kg", "the 3 rooms are all for Saturday") leans only
# when it is one of these; a bare one ("Dan", "mechanic") or a pronoun may be anyone.
_PERSONS = KIN | closed("guy guys man men woman women lady ladies bloke dude person people "
                        "folks boss manager landlord landlady client clients customer doctor "
                        "gp dentist nurse vet mechanic plumber builder electrician contractor "
                        "agent teacher coach trainer physio therapist neighbour neighbor "
                        "neighbours neighbors team hire designer architect pm ceo director "
                        "owner host planner seller buyer uncle aunt cousin parents parent "
                        "family group everyone everybody vendor supplier agency committee "
                        "board fiance fiancé fiancee in-laws grandmother grandfather nan")
_PRESENT_BE = closed("is are am 's 're")  # "the kids are sold on Lisbon" ("was sold on": a sale)


def may_lean(words: set[str]) -> bool:
    """The words the structure needs (a cheap pre-check)."""
    return bool(words & _LEANING.keys()) or bool(words & _KEEPS and words & _INSISTING)


def _subject(tokens: Sequence[Tok], a: int, i: int, depth: int = 0) -> str:
    """The subject word before the phrase at ``i``, past its auxiliaries ("" when none, and
    when it is a thing: a noun after a determiner or a count that names no person; "the guy
    at the garage" is the guy's)."""
    j = i - 1
    while j >= a and tokens[j].word in _ALONG:
        j -= 1
    if j < a or tokens[j].value is not None or tokens[j].word in PREPOSITIONS:
        return ""
    word = tokens[j].word
    word = word[:-2] if word.endswith("'s") else word  # "she's keen", "Dan's partial"
    if j - 2 >= a and tokens[j - 1].word in DETERMINERS and \
            tokens[j - 2].word in PREPOSITIONS and depth < 2:
        return _subject(tokens, a, j - 2, depth + 1)  # ("the guy at the garage keeps telling me")
    before = tokens[j - 1] if j > a else None
    if before is not None and (before.word in DETERMINERS or before.word[:1].isdigit() or
                               before.value is not None) and word not in _PERSONS:
        return ""
    return word


def _leaning(tokens: Sequence[Tok], i: int, b: int) -> int:
    """Where the wished value's span opens after the phrase at ``i`` (-1: not a leaning)."""
    word, prep = tokens[i].word, _LEANING.get(tokens[i].word)
    if word in _INSISTING and i > 0 and tokens[i - 1].word in _KEEPS:
        return i + 1 + (i + 1 < b and tokens[i + 1].word in _TOLD)  # "keeps telling me X"
    if prep is None:
        return -1
    nxt = tokens[i + 1].word if i + 1 < b else ""
    before = tokens[i - 1].word if i > 0 else ""
    if word in ("fancies", "fancy"):  # (a verb: "a fancy place", "is fancy" are adjectives)
        return i + 1 if i + 1 < b and nxt not in _EDGE and before not in DETERMINERS and \
            before not in _BE and before not in PREPOSITIONS else -1
    if word == "sold" and not _present(tokens, i):
        return -1  # ("the bike sold on eBay", "the house was sold on June 3": a sale)
    if word == "holding":  # "holding out for"
        return i + 3 if nxt == "out" and i + 2 < b and tokens[i + 2].word == "for" else -1
    if word == "set" and not (i > 0 and tokens[i - 1].word in ("dead", "heart")):
        return -1  # ("the thermostat is set on 21" is a setting: only "dead / heart set on")
    if word == "all" and not (i > 0 and tokens[i - 1].word in _BE):
        return -1  # ("she's all for Friday"; not "all for £40")
    return i + 2 if nxt == prep and i + 2 < b else -1


def _present(tokens: Sequence[Tok], i: int) -> bool:
    """A copula of the present before ``i``, past degree words ("is totally sold on")."""
    j = i - 1
    while j >= 0 and tokens[j].word in _ALONG and tokens[j].word not in _PRESENT_BE:
        j -= 1
    return j >= 0 and (tokens[j].word in _PRESENT_BE or tokens[j].word.endswith(("'s", "'re")))


def keen_marks(tokens: Sequence[Tok], a: int, b: int) -> list[KeenMark]:
    """The ranges of a segment ``(a, b)`` that tell another's leaning. (Each clause's end
    and its words of shape and copula are counted once for the segment: a match costs no
    scan to its clause's end, so a long segment of many matches reads in linear time.)"""
    out: list[KeenMark] = []
    ends, shapes, copulas = [b] * (b - a + 1), [0] * (b - a + 1), [0] * (b - a + 1)
    for x in range(b - 1, a - 1, -1):
        ends[x - a] = x if tokens[x].word in _EDGE else ends[x - a + 1]
    for x in range(a, b):
        word = tokens[x].word
        shapes[x - a + 1] = shapes[x - a] + (word in _SHAPE)
        copulas[x - a + 1] = copulas[x - a] + (word in _COPULA or word.endswith("'s"))
    for i in range(a, b):
        at = _leaning(tokens, i, b)
        if at < 0:
            continue
        subject = _subject(tokens, a, i - (tokens[i].word in _INSISTING))  # (past "keeps")
        if not subject[:1].isalpha() or subject in FIRST_PERSON or subject in _OWN or \
                subject in _NO_PERSON or subject.startswith(("i'", "we'")):
            continue
        stop = ends[at - a]
        if tokens[i].word in _INSISTING and copulas[stop - a] > copulas[at - a]:
            continue  # ("my GP keeps telling me my BP is 140/90": a report of what holds)
        if shapes[stop - a] > shapes[i - a] or all(
                tokens[x].word in _NO_PERSON or tokens[x].word in _BACK for x in range(at, stop)):
            continue  # ("the team is keen on it": a pronoun names no value of theirs)
        out.append((at, stop, "reported"))
    return out
