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
"instead", "not").

The words are closed classes: the adjectives and idioms of leaning, their prepositions,
the auxiliaries between subject and phrase.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ollm_desktop.engine.fact_mood_words import FIRST_PERSON
from ollm_desktop.engine.fact_words import DETERMINERS, Tok, closed

KeenMark = tuple[int, int, Literal["reported"]]

# (head, preposition): "keen on", "sold on", "partial to", "swears by", "rooting for"
_LEANING = {"keen": "on", "set": "on", "sold": "on", "partial": "to", "swears": "by",
            "swear": "by", "swearing": "by", "rooting": "for", "gunning": "for",
            "holding": "out", "itching": "for", "dying": "for", "fancies": "",
            "fancy": "", "all": "for"}
_BE = closed("is are am was were 's 're has have had got")  # "is keen", "has her heart set"
_ALONG = _BE | closed("really so very pretty quite dead totally still also just always "
                      "heart her his their kinda") | DETERMINERS
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


def may_lean(words: set[str]) -> bool:
    """The words the structure needs (a cheap pre-check)."""
    return bool(words & _LEANING.keys()) or bool(words & _KEEPS and words & _INSISTING)


def _subject(tokens: Sequence[Tok], a: int, i: int) -> str:
    """The subject word before the phrase at ``i``, past its auxiliaries ("" when none)."""
    j = i - 1
    while j >= a and tokens[j].word in _ALONG:
        j -= 1
    if j < a or tokens[j].value is not None:
        return ""
    word = tokens[j].word
    return word[:-2] if word.endswith("'s") else word  # "she's keen", "Dan's partial"


def _leaning(tokens: Sequence[Tok], i: int, b: int) -> int:
    """Where the wished value's span opens after the phrase at ``i`` (-1: not a leaning)."""
    word, prep = tokens[i].word, _LEANING.get(tokens[i].word)
    if word in _INSISTING and i > 0 and tokens[i - 1].word in _KEEPS:
        return i + 1 + (i + 1 < b and tokens[i + 1].word in _TOLD)  # "keeps telling me X"
    if prep is None:
        return -1
    nxt = tokens[i + 1].word if i + 1 < b else ""
    if word in ("fancies", "fancy"):
        return i + 1 if i + 1 < b and nxt not in _EDGE else -1
    if word == "holding":  # "holding out for"
        return i + 3 if nxt == "out" and i + 2 < b and tokens[i + 2].word == "for" else -1
    if word == "set" and not (i > 0 and tokens[i - 1].word in ("dead", "heart")):
        return -1  # ("the thermostat is set on 21" is a setting: only "dead / heart set on")
    if word == "all" and not (i > 0 and tokens[i - 1].word in _BE):
        return -1  # ("she's all for Friday"; not "all for £40")
    return i + 2 if nxt == prep and i + 2 < b else -1


def keen_marks(tokens: Sequence[Tok], a: int, b: int) -> list[KeenMark]:
    """The ranges of a segment ``(a, b)`` that tell another's leaning."""
    out: list[KeenMark] = []
    for i in range(a, b):
        at = _leaning(tokens, i, b)
        if at < 0:
            continue
        subject = _subject(tokens, a, i - (tokens[i].word in _INSISTING))  # (past "keeps")
        if not subject[:1].isalpha() or subject in FIRST_PERSON or subject in _OWN or \
                subject in _NO_PERSON or subject.startswith(("i'", "we'")):
            continue
        stop = next((x for x in range(at, b) if tokens[x].word in _EDGE), b)
        if tokens[i].word in _INSISTING and any(t.word in _COPULA or t.word.endswith("'s")
                                                for t in tokens[at:stop]):
            continue  # ("my GP keeps telling me my BP is 140/90": a report of what holds)
        if any(t.word in _SHAPE for t in tokens[i:stop]) or all(
                t.word in _NO_PERSON or t.word in _BACK for t in tokens[at:stop]):
            continue  # ("the team is keen on it": a pronoun names no value of theirs)
        out.append((at, stop, "reported"))
    return out
