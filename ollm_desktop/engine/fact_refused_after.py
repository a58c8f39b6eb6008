"""A sentence that acts on the previous one's values (issue 28: an offer the user turns down
never replaces the user's value, whether the refusal shares the offer's sentence, which
``fact_mood_refused`` reads, or opens the next one).

- **An obligation that retires the previous value** ("… released 31 Jun. This should have
  been 31 May."): ``fact_back_obligation``.
- **A refusal that turns down the previous sentence's offer**: a sentence that opens with
  the speaker's bare refusal ("I said no", "I said no thanks", "We refused", "I declined",
  "I turned it down", "No thanks", "Nope"; after "but", "and", "so" too), nothing after the
  verb but the sentence's end, a break or a new clause ("I said no — staying at $132k", "I
  refused and signed the 12-month"), right after a sentence that tells of another's offer
  (a subject other than the speaker before "offered", "proposed", "suggested", "quoted",
  "countered", "pitched", "came back with", "tried to sell / upsell": "Recruiter came back
  with $145k.", "The landlord offered a 24-month lease at £1,300."). The values after the
  offer's verb were the offer's: they are read as a proposal, never the user's. A refusal
  with its own object ("I refused the upgrade", "I said no to Friday") points at nothing
  before it, and an offer the speaker made ("I offered $300.") is the speaker's.
- **A decider's no** (stop 54): a short third-person subject's bare refusal ("Board said no
  at Tuesday's meeting.", "The landlord refused.", "My manager declined.") turns down the
  previous sentence's offer or request as the speaker's does ("HR asked about moving it to
  the 28th."), and a request the speaker made ("I asked to move it to 10:00. Boss said
  no."). An adjunct of where, when or how may follow the refusal ("at the meeting",
  "again"), never "at first" (it may have given in).

The words are closed classes: the verbs of refusing and of offering, the first person.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ollm_desktop.engine.fact_back_obligation import retired
from ollm_desktop.engine.fact_mood_dismissed import dismissal
from ollm_desktop.engine.fact_mood_words import FIRST_PERSON
from ollm_desktop.engine.fact_words import TOKEN, closed

if TYPE_CHECKING:
    from ollm_desktop.engine.provenance import Found

_OPENING = closed("but and so then")  # before the refusal's subject
_WHO = closed("i we")
_ADVERBS = closed("just politely flatly immediately")
REFUSING = closed("refused declined rejected")
_BACK = closed("it that this them")
_NEXT = closed(", ; : — – - . ! and but so because as since")  # a break or a new clause
OFFERING = closed("offered offering offers proposed suggested quoted countered pitched wanted "
                  "wants pushed pushing asked requested floated mooted")  # (another's wish,
# push or request, turned down after: "HR asked about moving it to the 28th. Board said no.")
_REQUESTING = closed("asked requested")
_SELLING = closed("sell upsell")  # "they tried to upsell the Touring trim at $34,200"


def _refusal(sentence: str) -> int:
    """Whether the sentence opens with the speaker's bare refusal (1), or a decider's (2:
    "Board said no."); 0: none."""
    return int(_refused_by(sentence))  # (True: 1)


_BY_OTHER = 2


def _refused_by(sentence: str) -> bool | int:
    words = [m.group(0).lower() for m in TOKEN.finditer(sentence[:80])]
    k = 0
    while k < len(words) and (words[k] in _OPENING or words[k] == ","):
        k += 1
    head = words[k:k + 2]
    if head[:1] in (["nope"], ["declined"]) or head == ["no", "thanks"]:
        return True
    if (n := dismissal(words, k)) > 0:  # (fact_mood_dismissed) "Not happening.", "I laughed."
        return not _accepted(words[k + n:])
    if not head:
        return False
    if head[0] not in _WHO:
        k = _decider(words, k)  # "Board said no.", "The landlord refused."
        if k < 0:
            return False
        other = True
    else:
        k, other = k + 1, False
    while k < len(words) and words[k] in _ADVERBS:
        k += 1
    if words[k:k + 2] == ["said", "no"]:
        k += 2 + (words[k + 2:k + 3] == ["thanks"])
    elif words[k:k + 1] and words[k] in REFUSING:
        k += 1 + (words[k + 1:k + 2] != [] and words[k + 1] in _BACK)
    elif words[k:k + 1] == ["turned"]:
        k += 1 + (words[k + 1:k + 2] != [] and words[k + 1] in _BACK)
        if words[k:k + 1] != ["down"]:
            return False
        k += 1
    else:
        return False
    if words[k:k + 1] and words[k] in _ADJUNCTS and words[k + 1:k + 2] not in (
            ["to"], ["for"], ["first"]):  # ("said no at first": it may have given in)
        k = next((j for j in range(k, len(words)) if words[j] in _NEXT), len(words))  # "said
        # no at Tuesday's meeting", "refused again yesterday": how or when, no object
    refused = (k >= len(words) or words[k] in _NEXT) and not _accepted(words[k:])
    return _BY_OTHER if refused and other else refused


# Words after a bare refusal that tell where, when or how it was said, no object of its own.
_ADJUNCTS = closed("at in on during yesterday today again outright straight")
# The words of a short third-person subject of a refusal ("Board", "the board", "my
# manager", "HR", "the landlord"): a determiner or possessive and plain nouns.
_DECIDER_DETS = closed("the my our his her their")
_NOT_DECIDER = closed("it that this there he she they you i we who which what not never "
                      "nobody everyone someone everybody somebody")


def _decider(words: list[str], k: int) -> int:
    """Where the verb of a third party's refusal opens, after a short subject of its own
    ("Board said no", "the landlord refused", "my manager declined"; -1: none): a decider's
    no after another's request turns the request down as the speaker's no does."""
    j = k + (words[k:k + 1] != [] and words[k] in _DECIDER_DETS)
    start = j
    while j < len(words) and j - start < 2 and words[j].isalpha() and \
            words[j] not in _NOT_DECIDER and words[j] not in REFUSING and \
            words[j:j + 2] != ["said", "no"] and words[j] != "turned":
        j += 1
    return j if j > start else -1


# The words by which the same sentence takes the offer after all ("I said no, then caved and
# signed it", "Nope, I took it gladly": stop 49's review).
_ACCEPTED = closed("then later eventually caved signed took accepted agreed relented")
_TAKING = closed("signed took accepted")
_YIELDING = closed("caved agreed relented")


def _accepted(words: list[str]) -> bool:
    """The rest of the refusal's sentence takes the offer after all ("…, then caved and
    signed it"); a verb of taking with an object of its own, a figure in it, takes another
    thing ("I refused and signed the 12-month at £1,350": the offer stays refused)."""
    other = any(word in _TAKING and any(w[:1].isdigit() for w in words[i + 1:i + 4])
                for i, word in enumerate(words))
    return bool(_YIELDING.intersection(words)) or (
        not other and bool(_ACCEPTED.intersection(words)))


def _offer_at(sentence: str, own_request: bool = False) -> int:
    """Where another's offer verb ends in the sentence (-1: none, or the speaker's own); with
    ``own_request``, the speaker's own request too ("I asked to move it to 10. Boss said
    no.": a third party refused it)."""
    matches = list(TOKEN.finditer(sentence))
    words = [m.group(0).lower() for m in matches]
    for i, word in enumerate(words):
        offered = word in OFFERING
        came = word == "came" and words[i + 1:i + 3] == ["back", "with"]
        sold = word == "tried" and words[i + 1:i + 2] == ["to"] and \
            words[i + 2:i + 3] != [] and words[i + 2] in _SELLING
        if offered or came or sold:
            subject = words[i - 1] if i else ""
            if not subject[:1].isalpha() or (subject in FIRST_PERSON and not (
                    own_request and word in _REQUESTING)):
                return -1
            return matches[i + (2 if came or sold else 0)].end()
    return -1


def read_back(before: list[Found], found: list[Found], said: Sequence[str], number: int,
              ) -> tuple[list[Found], list[Found]]:
    """``before`` (the message's earlier facts) and ``found`` (those of sentence ``number``
    of the message's sentences ``said``), as a sentence that acts on the previous one leaves
    them."""
    sentence, previous = said[number], said[number - 1] if number else ""
    before, found = retired(before, found, sentence, number)  # "This should have been X."
    if not previous or not (by := _refusal(sentence)) or (
            at := _offer_at(previous, by == _BY_OTHER)) < 0:
        return before, found
    offered = {f.value for f in before if f.sentence == number - 1 and not f.old and
               f.kind not in ("correction", "decision", "question") and
               previous.find(f.value, at) >= 0}
    # (the offer's sentence read as a change, "X offered to move me to week 3.", is the
    # offer's too: it changed nothing)
    return [replace(f, kind="question", correction=False) if f.sentence == number - 1 and
            f.value in offered else f for f in before
            if f.sentence != number - 1 or f.kind != "correction"], found
