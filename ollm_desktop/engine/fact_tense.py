"""Past states in a clause (``fact_mood``): a before-time ("used to", "back then", "last
quarter", "originally"), an anterior adjective ("the previous owners"), a year, with a past
tense where the marker alone does not say it. A past state's values say nothing about now;
a past change ("we moved it to 10") and a correction's shape ("now", "not", "instead") still
hold. A period of before named as such ("in years past", "in days gone by") and a series'
start told in the past ("started out with a 10 gallon") are before-times too; a part told
with a past copula ends at the comma before a present one ("my old number was 555-0123, the
new one is 555-0177"); "as originally arranged" dates nothing (the value holds as agreed).
"""

from __future__ import annotations

import itertools

from ollm_desktop.engine import fact_mood_words as cues
from ollm_desktop.engine.fact_tense_ended import TRIGGERS, ended
from ollm_desktop.engine.fact_words import DETERMINERS, Tok, closed, is_change, is_replace


def past_words(clause: list[Tok]) -> int:
    """How many of the clause's words a past state covers (0: none): "we used to use
    MySQL", "back in 2019 ...", "the previous owners were ...", "we were on Heroku until
    2023". A past change ("moved", "raised") and a correction's shape ("now", "not",
    "instead") still hold."""
    words = [t.word for t in clause]
    cut = _past_then_present(words)
    if cut:  # "my old number was 555-0123, the new one is 555-0177": the past ends at ","
        return min(past_words(clause[:cut]), cut)
    present = set(words)
    head = cues.clause_head(words)
    # "was still referencing version 16", "the docs were still on v16": a state that held
    # then and has changed since (a past copula or auxiliary with "still")
    held = any(w in cues.PAST and words[i + 1] == "still" for i, w in enumerate(words[:-1]))
    # "it had been 30 per minute": the past perfect of "be" is a state before a past time
    held = held or any(w == "had" and words[i + 1] == "been" for i, w in enumerate(words[:-1]))
    # "I remember being able to buy a bag for $3.50", "I recall when it was 9:00": a state
    # remembered (a remembered act, "I remember buying it for $1,200", is a fact that holds)
    recalled = bool(present & cues.RECALLED) and any(
        w in cues.RECALLED and words[i + 1] in ("being", "having", "when")
        for i, w in enumerate(words[:-1]))
    # "we were on Trello for years", "I lived in Bristol for ages": a past state over a span
    # not counted (the past tense says it is over; "I've lived here for years" holds)
    spanned = any(w == "for" and (words[i + 1] in _SPANS or words[i + 1:i + 3] in (
        ["a", "while"], ["a", "long"], ["so", "long"], ["many", "years"], ["a", "decade"]))
        for i, w in enumerate(words[:-1])) and not present & _PERFECT
    counted = next((i for i in range(len(words) - 1) if _counted(clause, words, i)), -1)
    if counted >= 0 and not present & _PERFECT and all(
            not w[:1].isalnum() or w in _AFTER_SPAN for w in words[counted + 2:]):
        return counted + 2  # (a clause going on, ", been on a Telecaster since", is read as
        # before: the sentence's mood follows its first value)
    bygone = _bygone(words, head)
    if not held and not recalled and not spanned and not bygone and \
            not present & cues.PAST_CUES and \
            not any(map(is_year, clause)) and words[head:head + 1] != ["when"] and \
            not present & _ENDING:
        return 0  # no before-time, no anterior adjective, no year: the common case
    dated = any(w in ("in", "until", "till", "during") and is_year(clause[i + 1])
                for i, w in enumerate(words[:-1])) or _dated_event(clause, words)
    pairs = set(itertools.pairwise(words))
    now = words.index("now") if "now" in present else len(words)
    used = ("used", "to") in pairs and words[max(0, words.index("used") - 1)] not in (
        "is", "are", "be", "get", "got")
    if not used and ((cues.CONTRAST - {"now"}) & present or any(  # ("when we moved in":
            (is_change(w) or is_replace(w)) and words[i + 1:i + 2] not in _MOVED_HOUSE  # no
            and not (w.endswith("ing") and words[i - 1:i] in _TIME_PREPS)  # value moved,
            for i, w in enumerate(words))):  # the speaker did; "before switching" a time)
        return 0
    text = f" {' '.join(words)} "
    # a fronted place or thing of before: "In my old flat I paid $1,200", "at my previous job"
    fronted = words[head:head + 1] in (["in"], ["at"], ["on"], ["under"]) and \
        len(words) > head + 2 and words[head + 1] in DETERMINERS and \
        (words[head + 2] in cues.ANTERIOR_ADJ or (words[head + 2] == "last" and  # "in my
                                                   words[head + 1] in _POSSESSIVE))  # last job"
    timed = fronted or used or held or bygone or (spanned and tensed_any(words)) or bool(pairs & {
        ("back", "then"), ("back", "in"), ("back", "when"), ("last", "time")}) or \
        " in the past " in text or \
        " at the time " in text or _anterior(words) or \
        words[head:head + 1] == ["before"] or recalled
    # a time adverbial of the past: "last quarter" (not "the last build"), "when we started"
    adverbial = words[head:head + 1] == ["when"] or any(
        w == "last" and (i == 0 or words[i - 1] not in DETERMINERS or words[
            i - 2:i - 1] in (["at"], ["in"], ["during"])) and i + 1 < len(words)  # ("at the
        and words[i + 1].isalpha() for i, w in enumerate(words))  # last review": a time)
    described = any(w in cues.ANTERIOR_ADJ and (i == head or words[i - 1] in DETERMINERS)
                    for i, w in enumerate(words)) or any(  # (a terse "Previous owners were")
        w == "first" and words[i - 1] in _POSSESSIVE for i, w in enumerate(words) if i)
    # ("my first pair were KRK Rokits", "our first office was in Leeds": the first of the
    # owner's series, told in the past, is history; "the first floor was" is read as before)
    tensed = any(w in cues.PAST or (w.endswith("ed") and len(w) > 4) for w in words[:now])
    # a past state ("last quarter the retro was on Friday"), not a dated event ("peak traffic
    # reached 11,600 requests per minute last week": a fact of its own, which holds)
    stative = any(w in cues.PAST for w in words[:now])
    if not used and present & cues.PRESENT:
        return 0  # "like last time, the venue is Hall C": it holds now
    timed = timed or ended(clause, words[:now], tensed_any(words[:now]), stative)  # (ended)
    if not (timed or ((described or dated) and tensed) or (adverbial and stative)):
        return 0
    # "originally on Tuesday, the meeting is now on Monday": the past ends before "now"
    return max((i for i, w in enumerate(words[:now]) if w == ","), default=now) \
        if now < len(words) else now


def _past_then_present(words: list[str]) -> int:
    """The comma that ends a part told with a past copula ("was", "were", "had") and no
    present one, where a present copula follows ("…, the new one is …"; 0: none); or a part
    told with any past verb where a word of now or of the new one opens the next ("our old
    landlord charged £700, the new place charges £820", "I paid £40 before, now I pay
    £55"): the contrast of old and new ends the past at the comma."""
    for k, w in enumerate(words):
        if w != "," or set(words[:k]) & cues.PRESENT:
            continue
        if any(x in cues.PAST for x in words[:k]) and set(words[k + 1:]) & cues.PRESENT:
            return k
        if tensed_any(words[:k]) and set(words[k + 1:k + 4]) & _NOW_NEW:
            return k
    return 0


_NOW_NEW = closed("now new nowadays currently today")  # (opening the part after the comma)


def _anterior(words: list[str]) -> bool:
    """A word of before ("originally", "previously") that dates the clause, not one of a
    manner clause that says the value holds as it was agreed ("we remain in the Ballroom as
    originally arranged", "as we previously agreed", "like originally planned")."""
    return any(w in cues.ANTERIOR and not (
        (words[i - 1:i] in (["as"], ["like"]) or (
            words[i - 2:i - 1] in (["as"], ["like"]) and words[i - 1] in _AS_SUBJECTS)) and
        i + 1 < len(words) and (words[i + 1].endswith("ed") or words[i + 1] in _PARTICIPLES))
        for i, w in enumerate(words))


_AS_SUBJECTS = closed("i we you they he she it was were had")
_PARTICIPLES = closed("said told written given set sent agreed put bought made done")


def _bygone(words: list[str], head: int) -> bool:
    """A period of before named as such ("in years past", "in past years", "in the earlier
    seasons", "in days gone by", "back in the day"), or the start of a series told in the
    past at the clause's head ("started out with a 10 gallon", "we began with 3 servers"):
    what held then says nothing about now."""
    text = f" {' '.join(words)} "
    started = words[head:head + 1] in (["started"], ["began"]) or (
        words[head:head + 1] in (["i"], ["we"]) and words[head + 1:head + 2] in (
            ["started"], ["began"]))
    at = words.index("with") if started and "with" in words else -1
    if (0 < at <= head + 3 and all(w in _START for w in words[head:at])) or any(
            p in text for p in _BYGONE):
        return True
    # (a perfect reaches up to now: "over the past days the load has been 80%")
    return not set(words) & _UP_TO_NOW and (any(
        w in _BYGONE_ADJ and words[i - 1] in _IN_THE and words[i + 1] in _PERIODS
        for i, w in enumerate(words[1:-1], 1)) or any(
        w in _PERIODS and words[i + 1:i + 2] in (["past"], ["gone"]) and
        words[i - 1] in _IN_THE for i, w in enumerate(words[1:-1], 1)))


_START = closed("i we started began out off")
_IN_THE = closed("in during over the those")
_BYGONE_ADJ = closed("past earlier previous prior former bygone olden")
_PERIODS = closed("years days times seasons decades terms")
_BYGONE = (" back in the day ", " in my day ", " once upon a time ")
_SPANS = closed("years ages decades")
_MOVED_HOUSE = (["in"], ["out"], ["away"], ["abroad"], ["house"], ["here"], ["there"])
_POSSESSIVE = closed("my our his her their")
_TIME_PREPS = (["before"], ["after"], ["since"], ["until"])
_ENDING = TRIGGERS  # (fact_tense_ended) "until March", "when I lived in", "as a student"
_PERFECT = closed("have has 've i've we've they've he's she's")
_UP_TO_NOW = _PERFECT | closed("been")
_IRREGULAR = closed("ran grew went drove rode kept sat stood wore spent knew met had paid")


def held_for(tokens: list[Tok], i: int) -> bool:
    """"for" at ``i`` before a counted span of years or months, after a verb of holding."""
    return tokens[i].word == "for" and i + 1 < len(tokens) and \
        _counted(tokens, [t.word for t in tokens[:i + 1]], i)  # (asked of every token)


def _counted(clause: list[Tok], words: list[str], i: int) -> bool:
    """A past state held over a counted span of years or months ("I played a Strat for ten
    years", "we were on Heroku for 3 years"): a verb of holding a state before "for", and a
    span after it. A contract's term ("signed the lease for 2 years") holds: its verb is none
    of these."""
    if words[i] != "for":
        return False
    token = clause[i + 1]
    span = token.value[2].lower() if token.value else ""
    return span.endswith(_LONG_UNITS) and span[:1].isalnum() and \
        any(w in HOLDING for w in words[:i])


_AFTER_SPAN = closed("before then ago lol haha tbh back in the day")
_LONG_UNITS = ("years", "months", "decades", "year", "month")
HOLDING = closed("was were had played used lived worked drove rode owned")


def _dated_event(clause: list[Tok], words: list[str]) -> bool:
    """A year that dates an event's noun after a preposition and a determiner ("at the 2015
    boundary review it was 6,900", "in the 2021 census", "for the 2019 season"): a time
    before now, like "in 2015"."""
    return any(w in DETERMINERS and (not i or words[i - 1] in _EVENT_PREPS) and  # ("the 2015
               is_year(clause[i + 1]) and words[i + 2].isalpha()  # figure was 6,900")
               for i, w in enumerate(words[:-2])) or any(
        w == "of" and words[i - 1] == "as" and is_year(clause[i + 1])  # "as of 2015 it was"
        for i, w in enumerate(words[:-1]) if i)


_EVENT_PREPS = closed("at in during for after before by since")


def tensed_any(words: list[str]) -> bool:
    """A verb in the past: a past copula or auxiliary, "-ed", or a common irregular past."""
    return any(w in cues.PAST or w in _IRREGULAR or (w.endswith("ed") and len(w) > 4) or
               w == "used" for w in words)


def is_year(token: Tok) -> bool:
    text = token.value[2] if token.value else token.word
    return len(text) == 4 and text.isdigit() and text[:2] in ("19", "20")
