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
                  "wants pushed pushing")  # (another's wish or push, turned down after)
_SELLING = closed("sell upsell")  # "they tried to upsell the Touring trim at $34,200"


def _refusal(sentence: str) -> bool:
    """Whether the sentence opens with the speaker's bare refusal."""
    words = [m.group(0).lower() for m in TOKEN.finditer(sentence[:80])]
    k = 0
    while k < len(words) and (words[k] in _OPENING or words[k] == ","):
        k += 1
    head = words[k:k + 2]
    if head[:1] in (["nope"], ["declined"]) or head == ["no", "thanks"]:
        return True
    if (n := dismissal(words, k)) > 0:  # (fact_mood_dismissed) "Not happening.", "I laughed."
        return not _accepted(words[k + n:])
    if not head or head[0] not in _WHO:
        return False
    k += 1
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
    return (k >= len(words) or words[k] in _NEXT) and not _accepted(words[k:])


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


def _offer_at(sentence: str) -> int:
    """Where another's offer verb ends in the sentence (-1: none, or the speaker's own)."""
    matches = list(TOKEN.finditer(sentence))
    words = [m.group(0).lower() for m in matches]
    for i, word in enumerate(words):
        offered = word in OFFERING
        came = word == "came" and words[i + 1:i + 3] == ["back", "with"]
        sold = word == "tried" and words[i + 1:i + 2] == ["to"] and \
            words[i + 2:i + 3] != [] and words[i + 2] in _SELLING
        if offered or came or sold:
            subject = words[i - 1] if i else ""
            if not subject[:1].isalpha() or subject in FIRST_PERSON:
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
    if not previous or not _refusal(sentence) or (at := _offer_at(previous)) < 0:
        return before, found
    offered = {f.value for f in before if f.sentence == number - 1 and not f.old and
               f.kind not in ("correction", "decision", "question") and
               previous.find(f.value, at) >= 0}
    # (the offer's sentence read as a change, "X offered to move me to week 3.", is the
    # offer's too: it changed nothing)
    return [replace(f, kind="question", correction=False) if f.sentence == number - 1 and
            f.value in offered else f for f in before
            if f.sentence != number - 1 or f.kind != "correction"], found
