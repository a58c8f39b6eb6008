"""A name said to have failed, beside a new name: the old value (issue 28, names).

A user often corrects a name by saying why the old one is out rather than "not Y": "booked
Mitsui Garden instead, Granvia was full", "the old Bosch died, the thing that washes our
plates is a Miele now", "went with La Bella. the D'Addarios are off". The failed name is
the old value of the message's new name, as "instead of Granvia" would make it.

Structure only: a capitalised name of one to three words ([determiner] [old] NAME), then at
most two auxiliaries or adverbs of a closed class, then a word of failing (a closed class:
"died", "cancelled", "broke", "quit", "bailed"; after "be": "full", "taken", "off", "dead",
"broken", "gone"; a leaving: "left", "retired", "stepped down", "got sick") that ends its
clause, with at most whom it failed or where the leaver went ("cancelled on us", "left for
another team", "left the band"). Also a name seen off or ended ("Bye WordPress", "leadership
killed Slack", "sold the Honda") and a name replaced in the passive ("Tom was replaced by
Priya Shah"); a word of a change must stand in the message ("instead", "now", "took over",
"bye", "since Monday"). It is read only in a user's message that states a new name (a
current value of the name kind, not the failed one), never in a question, a condition ("if
Granvia is full"), a suggestion or another's message; the failed name goes with the nearest
sentence that states the new name. The failed name is its clause's subject (not "The
restaurant at Granvia closed", not "my mom's dentist Dr. Ames"), ended by no one else ("my
parents killed Netflix") and not "still" held; the new name is no acronym post ("Marco is PM
now") nor a pastime's object ("I'm reading Dune now").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ollm_desktop.engine.fact_message_lines import said_sentences
from ollm_desktop.engine.fact_words import DETERMINERS, FILLER, LEADS, PREPOSITIONS, PRONOUNS
from ollm_desktop.engine.provenance import MAX_FACT_TEXT, Found

_NAME = r"[A-Z][\w'’.-]*"
_FAILED = re.compile(
    r"(?<![\w'’])(?:(?:the|my|our|her|his|their|old)\s+){0,2}"
    rf"(?P<name>{_NAME}(?:\s+{_NAME}){{0,2}})\s+"
    r"(?:(?:is|are|was|were|has|have|had|just|got|been|already|totally|completely)\s+){0,2}"
    r"(?:died|cancell?ed|broke|quit|bailed|full|taken|off|dead|broken|gone"
    r"|left|retired|resigned|stepped\s+(?:down|away|back)|moved\s+away|dropped\s+out"
    r"|pulled\s+out|backed\s+out|closed(?:\s+down)?|shut\s+down|sick|ill|injured"
    r"|went\s+(?:out\s+of\s+business|under|bust)|out\s+of\s+business|flaked"
    r"|ghosted(?:\s+(?:us|me|them))?)"
    # what a leaving or a failing may take after it: whom it failed ("cancelled on us"),
    # where the leaver went ("left for another team"), what it left ("left the band")
    r"(?:\s+(?:on\s+(?:us|me|them|him|her)|for\s+(?:another|a\s+new|a\s+different)"
    r"(?:\s+[a-z]+){1,2}|(?:the|our|my)\s+(?:team|company|firm|band|choir|club|group"
    r"|project|job|practice|business|school)))?"
    r"(?=\s*(?:[,;.!—–-]|$|\s(?:so|and|but|now|again)\b))")
# A name seen off or ended by someone's verb ("Bye WordPress, bye Bluehost", "leadership
# killed Slack"): a farewell (a closed class of interjections) or a verb of ending with the
# name as its object, the name ending its clause or followed by why ("to save money").
_ENDED = re.compile(
    r"(?:(?<![\w'’])(?:bye|goodbye|farewell|so\s+long)(?:\s+to)?|\b(?:killed|axed|dumped|"
    r"ditched|scrapped|sold|got\s+rid\s+of))\s+(?:(?:the|our|my|old)\s+){0,2}"
    rf"(?P<name>(?-i:{_NAME}(?:\s+{_NAME}){{0,2}}))"
    r"(?=\s*(?:[,;.!—–-]|$|\s(?:so|and|but|now|to|because|for\s+good)\b))", re.IGNORECASE)
# A name whose replacing is said in the passive ("Tom was replaced by Priya Shah"): old.
_REPLACED_BY = re.compile(
    rf"(?<![\w'’])(?:(?:the|my|our|old)\s+)?(?P<name>{_NAME}(?:\s+{_NAME}){{0,2}})\s+"
    r"(?:was|were|has\s+been|have\s+been|got|just\s+got)\s+(?:replaced|swapped\s+out)"
    r"\s+(?:by|with|for)\s")
# Words that put the clause under a condition, a doubt or a proposal (a closed class).
UNASSERTED = re.compile(r"\b(?:if|unless|in case|maybe|perhaps|might|could|would|should|"
                         r"suppose|what if|whether)\b", re.IGNORECASE)
_PRONOUNS = frozenset({"I", "We", "It", "They", "He", "She", "You", "This", "That", "There"})


# The words by which a message tells that one thing took another's place ("booked Mitsui
# Garden instead", "... is a Miele now", "went with La Bella"): without one, a name that
# failed beside another name is news of its own ("The band is The Blue Notes. Marco
# cancelled." replaces no DJ).
_CHANGED = re.compile(r"\b(?:instead|now|went with|going with|switched|swapped|replaced|booked"
                      r"|hired|changed|took over|taken over|takes over|stepped in|bye|goodbye"
                      r"|since (?:last|yesterday|this|(?-i:[A-Z])\w+))\b",
                      re.IGNORECASE)


# A name that steps in for the failed one, the subject of a clause ending in "instead" ("her
# sister Jess is coming instead", "Maren is doing it instead of him"): the new name, where
# the finders read it as no value.
_STEPS_IN = re.compile(
    rf"(?<![\w'’])(?P<name>{_NAME}(?:\s+{_NAME}){{0,2}})\s+(?:is|'s|will\s+be)\s+(?P<verb>[a-z]+ing)"
    r"(?:\s+(?:it|them|him|her|us|in|over))?\s+instead\b")
_NO_ONE = frozenset({"Everyone", "Everybody", "Someone", "Somebody", "Nobody", "No"})


def _stepping_in(found: Sequence[Found], text: str) -> list[Found]:
    """``found`` with the names of ``text`` that step in for a failed one (``_STEPS_IN``) as
    new values of no key (they refer back), where a name of the message failed and the
    finders read the stepping name as no value (its verb, "coming", is none either)."""
    said = said_sentences(text)
    if not any(_FAILED.search(_capitalised(s)) for s in said):
        return list(found)
    out = list(found)
    for number, sentence in enumerate(said):
        for match in _STEPS_IN.finditer(sentence):
            name = match.group("name")
            if name.split()[0] in _PRONOUNS | _NO_ONE or "?" in sentence[match.end():] or \
                    UNASSERTED.search(sentence[:match.start()]) or \
                    any(f.value == name and not f.old for f in found):
                continue
            out = [f for f in out if f.sentence != number or f.value != match.group("verb")]
            out.append(Found("name", name, "", "name", True, sentence=number, key="||name"))
    return out


def _capitalised(sentence: str) -> str:
    """A sentence typed in lower case with its first word capitalised, where that word is no
    closed-class word ("hughes ghosted us", not "the plumber ..." nor "we ...")."""
    first = sentence.split(" ", 1)[0]
    if not first.isalpha() or not first.islower() or first in DETERMINERS or \
            first in PRONOUNS or first in FILLER or first in LEADS:
        return sentence
    return sentence[:1].upper() + sentence[1:]


def failed_olds(found: Sequence[Found], content: str, role: str) -> tuple[Found, ...]:
    """The message's facts with each failed name beside a new name added as an old value."""
    text = content[:MAX_FACT_TEXT]
    if role == "user":  # ("Jonas got sick, Maren is doing it instead")
        found = _stepping_in(found, text)
    ended = {m.group("name").rstrip(".").lower() for m in _ENDED.finditer(text)}
    news = [f for f in found if f.kind == "name" and not f.old  # ("bye X": X is no new
            and f.value.lower() not in ended and _a_new_name(f, text)]  # name of the message)
    if role != "user" or not news or _CHANGED.search(text) is None:
        return tuple(found)  # (no word of a change: "We're eating at Nobu. Tom is off.")
    out = list(found)
    for number, sentence in enumerate(said_sentences(text)):
        sentence = _capitalised(sentence)  # ("hughes ghosted us": a chat's lower case)
        for match in [*_FAILED.finditer(sentence), *_ENDED.finditer(sentence),
                      *_REPLACED_BY.finditer(sentence)]:
            name = match.group("name").rstrip(".")  # (the sentence's stop: "bye Bluehost.")
            before = sentence[:match.start()]
            if name.split()[0] in _PRONOUNS or "?" in sentence[match.end():] or \
                    UNASSERTED.search(before) or not _own(match, before) or \
                    _still(text, name):
                continue  # ("The restaurant at Granvia closed", "still Tom")
            low = name.lower().rstrip("s")
            said = match.group(0).lower().split()
            others = [f for f in news if low not in f.value.lower()  # ("off" of "are off"
                      and f.value.lower().rstrip("s") not in low  # is no new name)
                      and f.value.lower() not in said]
            if not others or any(f.old and f.value.lower().rstrip("s") == low for f in out):
                continue
            near = min(others, key=lambda f: (abs(f.sentence - number), -f.sentence))
            plural = re.search(r"\s(?:are|were|have)\s", match.group(0)) is not None
            value = name[:-1] if plural and name.endswith("s") else name  # "the D'Addarios
            # are off": the brand
            out.append(Found("name", value, "", "name", True, old=True,
                             sentence=near.sentence, key=near.key, guessed=True))
            out = [replace(f, correction=True) if f is near else f for f in out
                   if not (f.sentence == number and not f.old and f.value.lower() in (
                       said[-1], name.lower()))]  # ("off"; the name seen off: no value)
    return tuple(out)


# The words before a failed name that leave it its clause's subject: a determiner or "old",
# a lower-case noun of an appositive ("our plumber Hughes"), a filler; not a preposition ("The
# restaurant at Granvia closed": its restaurant failed) nor another's possessive ("my mom's
# dentist Dr. Ames": her dentist).
_CLAUSE_START = re.compile(r"(?:^|[,;:(—–]\s*|\b(?:and|but|so|then|because)\s+)"
                           r"(?P<words>(?:[A-Za-z]+\s+){0,3})$")
# Someone else as the one who ended a name ("my parents killed Netflix", "she dumped Hulu"):
# their practice, not the user's value.
_OTHERS = re.compile(r"(?:\b(?:my|his|her|their)\s+[a-z]+|\b(?:he|she|they))\s+"
                     r"(?:\w+\s+)?$", re.IGNORECASE)


def _still(text: str, name: str) -> bool:
    """The failed name restated as still holding ("our manager is still Tom", "still Orion")."""
    return re.search(r"\bstill\s+(?:(?:is|with|at|on|using|the|our|my)\s+){0,2}"
                     rf"{re.escape(name.split()[0])}\b", text) is not None


def _own(match: re.Match[str], before: str) -> bool:
    """The failed name is its clause's subject (``_FAILED``, ``_REPLACED_BY``) or the object
    of an ending said by no one else (``_ENDED``)."""
    if match.re is _ENDED:
        return _FAREWELL.match(match.group(0)) is not None or _OTHERS.search(before) is None
    start = _CLAUSE_START.search(before)
    return start is not None and not any(
        w.lower() in PREPOSITIONS or w.lower() in _VERBS for w in start.group("words").split())


_FAREWELL = re.compile(r"(?:bye|goodbye|farewell|so\s+long)\b", re.IGNORECASE)
_VERBS = frozenset({"is", "are", "was", "were", "has", "have", "had"})
# A verb of a pastime (a closed class) whose object a value is keyed by: "I'm reading Dune
# now", "they watch Hulu now" name what one does, no holder of the failed one's post.
_DOING = frozenset({"reading", "reads", "watching", "watch", "watches", "playing", "plays",
                    "listening", "studying"})  # (not "sees": "she's seeing Dr. Okafor now")


def _a_new_name(found: Found, text: str) -> bool:
    """A value that can be the new name of a failed one: not an acronym after a copula ("Marco
    is PM now": the post, ``fact_new_roles``), nor the object of a verb of doing its key names
    ("I'm reading Dune now")."""
    attribute = found.key.split("|")[1] if found.key.count("|") == 2 else ""
    if attribute in _DOING and re.search(rf"\b{attribute}\w*\s+(?:the\s+)?{re.escape(found.value)}",
                                         text, re.IGNORECASE):
        return False
    return not (found.value.isupper() and len(found.value) <= 5 and re.search(
        rf"\b(?:is|as)\s+{re.escape(found.value)}\b", text) is not None)
