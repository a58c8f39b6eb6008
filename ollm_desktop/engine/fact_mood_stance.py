"""The speaker's stance around a clause: a wish, a trailing hedge (issue 28).

Two structures state a value without asserting it as the user's current fact:

- a **wish**: a leading first-person wish verb ("I hope the port will be 9000", "we wish
  it were Friday") or a leading wish adverb ("hopefully", "fingers crossed") governs all of
  its sentence;
- a **trailing hedge**: a last clause after a comma (or bare, before the end) that is only a
  first-person verb of belief ("..., I guess", "9000 I think?"), a hedge adverb ("...,
  probably"), or a memory hedge ("if I remember right", "IIRC") takes back the whole
  assertion before it. A first-person verb of knowing ("..., I checked") confirms instead;
- a **doubt still to be checked**: "I vaguely remember $1,650 …", or a last clause with no
  value that says the value is still to be checked ("…, need to double-check", "…, to be
  confirmed", "…, still have to verify").

A **possible change** ("we can easily put it to 500", "you can move the call to Friday") is
an ability or an offer: "can" before a verb whose object goes "to" a value, or before a change
verb, changes nothing yet. "The hall can hold up to 200" (no object before "to") and "you can
reach me at ..." state what is so, and so does an ability that came about ("we can finally
push the deadline to Monday": the change is made). **Advice** is read the same way: "should"
("ought to") right after "we", "I" or "you", before a change verb, a verb whose object goes
"to" a value, or one whose object is the value ("Instead of MySQL, we should use
PostgreSQL"; stop 46). "The port should be 9090" and "Port in example should use 443, not
8443" (a subject of its own) still state what the value is.

Another's word ("Bob said the port is 9000") is not read here: a reading by the reporter's
structure cost one held-out correction (issue 28 report), so it waits for a narrower rule.

A **change named as only possible** ("a possible increase to 20 mg", "a likely switch to
Jira"): an adjective of possibility before a noun of change, up to the value after its "to".

The words are closed classes (wish verbs, belief verbs, hedge adverbs, adjectives of
possibility, nouns of change).
"""

from __future__ import annotations

from collections.abc import Sequence

from ollm_desktop.engine import fact_mood_words as cues
from ollm_desktop.engine.fact_mood_open import OpenMark
from ollm_desktop.engine.fact_words import DETERMINERS, HEDGES, Tok, closed, is_change

WISH = closed("hope hoping wish praying pray")
WISH_ADVERB = closed("hopefully fingers")  # "fingers crossed"
GUESS = closed("guess think suppose believe reckon assume imagine")
MEMORY = closed("iirc afaik afaict")
_END = closed(". ! ? …")
CHECKING = closed("check double-check doublecheck recheck confirm verify confirmed")
_STILL_TO = closed("need needs must to")  # "need to double-check", "to be confirmed"
_STILL_HAVE = closed("have has need needs")  # "[still] have to confirm" (not "have confirmed")
CAN = closed("can can't cannot")
SHOULD = closed("should ought")  # after "we", "I", "you": advice, a change not made
_ADVISED = closed("we i you")
_IN_PLACE = closed("instead rather over")  # advice to put one value in another's place
_OBJECT = closed("it them this that these those")  # a pronoun object ("put it to 500")
ATTAINED = closed("finally")  # an ability that came about: the change is made
_ALONG = closed("and also just easily safely simply then still")  # between "can" and its verb
POSSIBLE = closed("possible potential probable likely tentative mooted hypothetical")
_MADE = closed("confirmed approved official final settled decided agreed happened happening")
CHANGE_NOUNS = closed("move moves switch change changes increase increases decrease rise hike "
                      "bump cut drop shift upgrade downgrade extension reduction delay")


def _alnum(tokens: Sequence[Tok], a: int, b: int) -> list[int]:
    return [i for i in range(a, b) if tokens[i].value or tokens[i].word[:1].isalnum()]


def _wish(tokens: Sequence[Tok], first: int) -> bool:
    heads = _alnum(tokens, first, len(tokens))[:2]
    words = [tokens[i].word for i in heads]
    return bool(words) and (words[0] in WISH_ADVERB or (
        len(words) == 2 and words[0] in cues.FIRST_PERSON and words[1] in WISH))


def _trailing_hedge(tokens: Sequence[Tok], first: int) -> bool:
    """The last clause (after the last comma, or the last words) is only a hedge."""
    end = len(tokens)
    while end > first and tokens[end - 1].word in _END:
        end -= 1
    commas = [i for i in range(first, end) if tokens[i].word == ","]
    tail = [tokens[i].word for i in _alnum(tokens, commas[-1] + 1 if commas else first, end)]
    if any(tokens[i].value for i in range(commas[-1] if commas else first, end)) and commas:
        return False
    if commas and tail:
        if len(tail) == 1 and tail[0] in HEDGES | MEMORY:
            return True
        if len(tail) == 2 and tail[0] in cues.FIRST_PERSON and tail[1] in GUESS:
            return True
        return len(tail) <= 5 and tail[:2] == ["if", "i"] and "remember" in tail
    # no comma: "9000 I think?" (the hedge straight after the value, at the end)
    return len(tail) >= 3 and tokens[end - 3].value is not None and \
        tail[-2] in cues.FIRST_PERSON and tail[-1] in GUESS


def possible_change(tokens: Sequence[Tok], i: int) -> bool:
    """"can" at ``i`` before a change: a change verb, or a verb whose object goes "to" a
    value ("we can put it to 500", "can bump the pool to 12")."""
    if tokens[i].word not in CAN and not _advised(tokens, i):
        return False
    j = i + 1 + (tokens[i].word == "ought")  # ("ought to")
    while j < len(tokens) and (tokens[j].word in _ALONG or tokens[j].word.endswith("ly")):
        if tokens[j].word in ATTAINED:
            return False  # "we can finally push it to Monday": the ability came about
        j += 1  # its adverbs ("can easily and safely put")
    if j >= len(tokens) or not tokens[j].word.isalpha() or tokens[j].value is not None:
        return False
    if is_change(tokens[j].word):
        return True
    if tokens[i].word in SHOULD and j + 1 < len(tokens) and tokens[j + 1].value is not None \
            and any(t.word in _IN_PLACE for t in tokens):  # "Instead of MySQL, we should use
        return True  # PostgreSQL"; "we should reserve 94 GiB for it" states what is wanted
    k = j + 1
    if k < len(tokens) and tokens[k].word in _OBJECT:
        k += 1
    elif k < len(tokens) and tokens[k].word in DETERMINERS:
        k += 1
        while k < len(tokens) and k <= j + 4 and tokens[k].word.isalpha() and \
                tokens[k].word != "to":
            k += 1  # the object's noun phrase ("the pool size")
    return k > j + 1 and k < len(tokens) and tokens[k].word == "to"


def _advised(tokens: Sequence[Tok], i: int) -> bool:
    """"should" ("ought to") right after "we", "I" or "you": advice ("Instead of MySQL, we
    should use PostgreSQL"); not "it should be 9090" (a correction's "should")."""
    return tokens[i].word in SHOULD and i > 0 and tokens[i - 1].word in _ADVISED and \
        (tokens[i].word == "should" or (i + 1 < len(tokens) and tokens[i + 1].word == "to"))


def _unchecked(tokens: Sequence[Tok], first: int) -> bool:
    """A memory the speaker doubts ("I vaguely remember $1,650"), or a last clause after a
    comma, with no value, that says the value is still to be checked ("…, need to
    double-check", "…, to be confirmed"; not "…, I checked": ``_trailing_hedge``)."""
    if any(tokens[i].word == "vaguely" and tokens[i + 1].word in cues.RECALLED
           for i in range(first, len(tokens) - 1)):
        return True
    end = len(tokens)
    while end > first and tokens[end - 1].word in _END:
        end -= 1
    comma = max((i for i in range(first, end) if tokens[i].word == ","), default=-1)
    tail = tokens[comma + 1:end] if comma >= 0 else []
    return 0 < len(tail) <= 5 and not any(t.value for t in tail) and \
        _still_to([t.word for t in tail]) and any(t.word in CHECKING for t in tail)


def _still_to(words: list[str]) -> bool:
    """The tail says the check is to come ("need to double-check", "must verify", "to be
    confirmed", "still have to confirm"), not that it was made ("have confirmed", "will
    confirm tomorrow" after a change made, "still confirmed": stop 45's review)."""
    if words[0] in _STILL_TO:
        return True
    rest = words[1:] if words[0] == "still" else words
    return len(rest) >= 2 and rest[0] in _STILL_HAVE and rest[1] == "to"


def stance_marks(sentence: str, tokens: Sequence[Tok], first: int) -> list[OpenMark]:
    """The spans (token ranges) a wish, a trailing hedge or a doubt still to be checked
    leaves unasserted."""
    if first >= len(tokens):
        return []
    if _wish(tokens, first) or _trailing_hedge(tokens, first) or _unchecked(tokens, first):
        return [(first, len(tokens), "tentative")]
    return _possible_changes(tokens, first)


def _possible_changes(tokens: Sequence[Tok], first: int) -> list[OpenMark]:
    """A change named as only possible: an adjective of possibility before a noun of change
    and its "to" a value ("a possible increase to 20 mg", "a potential move to 10:00", "the
    proposed switch to Jira"): from the adjective to that value, nothing is made yet."""
    out: list[OpenMark] = []
    for i in range(first, len(tokens) - 3):
        if tokens[i].word not in POSSIBLE or tokens[i + 1].word not in CHANGE_NOUNS or (
                i > first and tokens[i - 1].word not in DETERMINERS):
            continue
        to = next((k for k in range(i + 2, min(i + 5, len(tokens))) if tokens[k].word == "to"),
                  None)
        end = next((k for k in range(to + 1, min(to + 4, len(tokens))) if tokens[k].value),
                   None) if to is not None else None
        if end is not None and not any(t.word in _MADE for t in tokens[end:]):
            out.append((i, end + 1, "tentative"))  # (not "… is now confirmed")
    return out
