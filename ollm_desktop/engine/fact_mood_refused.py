"""Values a later clause of the same sentence turns down or undoes (issue 28: a refused offer
or a trial given up never replaces the user's value; ``fact_mood_others`` asks this module
per segment, beside the other declines).

- **A refusal after the value**: a clause that is only a subject and a verb of refusing,
  with at most a pronoun that points back ("…, and we refused", "… but I declined it", "…
  and they said no"), after "and", "but" or a comma: the clauses before it in its segment
  were an offer or a wish turned down ("the agent wanted us to go to $425,000 and we
  refused"; a relative "…, which I turned down" points back too). A refusal with its own
  object or complement ("we refused the upgrade", "refused to pay", "turned down the
  discount") points at nothing before it and is read as before. The refusing verbs include
  "turned (it) down"; a refusal with its subject left out after "and" shares the speaker's
  subject of the segment ("we looked at Pulumi and rejected it"); "but no" before a comma
  or the end answers an offer or a question asked ("finance asked about GLACIER, but no,
  …"); "but (I said) not X", X repeating a value before it, turns that value down ("they
  offered Tuesday but I said not Tuesday"; "not X" with a value of its own is a correction,
  read as before).
- **A trial given up**: "tried X" (with its subject, or none) whose segment goes on to keep
  another value, to go back, or says the trial did not help or work ("Tried 8g, it didn't
  help, so we kept 4g", "…, so we went back"): the value tried is not the one that holds.
  "Tried 8g and it works" and "tried 8g and kept it" give nothing up and are read as
  before.

The words are closed classes: the verbs of refusing, of keeping and going back, and the
pronouns that point back.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from typing import Literal

from ollm_desktop.engine.fact_mood_dismissed import dismissal, may_dismiss
from ollm_desktop.engine.fact_words import Tok, closed, is_change

RefusedMark = tuple[int, int, Literal["negated"]]

REFUSING = closed("refused declined rejected refuse decline reject refuses declines rejects "
                  "vetoed")
_BACK = closed("it that this them")
_OPENS = closed("and but , ;")
_ENDS = closed(". ! , ; … ) and but so")
_WHO = closed("i we they he she")
TRIED = closed("tried trialled trialed tested")
UNDOING = closed("kept reverted")  # "so we kept 4g", "reverted to 4g"
_BACK_TO = closed("went rolled switched moved changed")  # before "back"
_NO_USE = closed("help work")  # "it didn't help", "didn't work"


def may_refuse(words: set[str]) -> bool:
    """The words each structure needs (a cheap pre-check)."""
    return bool(words & REFUSING or ("no" in words and words & {"said", "say", "but", "told"}) or
                ("pushed" in words and "back" in words) or
                words & TRIED or ("turned" in words and "down" in words) or
                ("not" in words and "but" in words) or may_dismiss(words))


def _refusal(tokens: Sequence[Tok], i: int, b: int) -> int:
    """Where the clause of a refusal at ``i`` opens (its "and" / "but" / comma; -1: none)."""
    word = tokens[i].word
    nxt = tokens[i + 1].word if i + 1 < b else ""
    if word == "no" and i > 0 and tokens[i - 1].word == "but":
        return i - 1 if nxt in _ENDS or i + 1 >= b else -1  # "…, but no, we read it too often"
    if word == "not" and i + 1 < b and tokens[i + 1].value is not None:
        return _not_again(tokens, i, b)  # "they offered Tuesday but I said not Tuesday"
    said_no = word in ("said", "say") and nxt == "no"  # ("always I say no")
    told_no = word == "told" and nxt in _TOLD_WHO and i + 2 < b and tokens[i + 2].word == "no"
    turned = word == "turned" and (nxt == "down" or (  # "I turned it down", "turned down"
        nxt in _BACK and i + 2 < b and tokens[i + 2].word == "down"))
    # "we pushed back and kept $12,000": resisted ("pushed it back to May" is a change)
    resisted = word == "pushed" and nxt == "back" and (i + 2 >= b or tokens[i + 2].word in _ENDS)
    if not (word in REFUSING or said_no or told_no or turned or resisted):
        return -1  # ("told him no": said no to him)
    after = i + 3 if told_no else i + 2 if said_no or resisted else (
        i + 2 + (nxt != "down") if turned else i + 1)
    if not turned and after < b and tokens[after].word in _BACK:
        after += 1
    while after < b and _manner(tokens[after].word):
        after += 1  # "rejected it obviously", "declined it politely"
    if after < b and tokens[after].word not in _ENDS:
        return -1  # "refused the upgrade", "refused to pay": an object of its own
    j = i - 1
    while j >= 0 and tokens[j].word in _ADVERBS:
        j -= 1
    if j >= 0 and tokens[j].word in _WHO:
        j -= 1
    while j >= 0 and tokens[j].word in _ADVERBS:  # ("…, always I say no")
        j -= 1
    if j > 0 and tokens[j].word == "which" and tokens[j - 1].word == ",":
        j -= 1  # "…, which we declined", "…, which I turned down": it points back
    return j if j >= 0 and opens(tokens[j].word) else -1


def opens(word: str) -> bool:
    """A clause's opening before a refusal: "and", "but", a comma, or a symbol said as a
    break in chat ("a 5am slot 🚫 declined")."""
    return word in _OPENS or (bool(word) and all(_symbol(c) for c in word))


def _symbol(char: str) -> bool:
    return unicodedata.category(char) == "So" or char in "\u200d\ufe0f"


def _manner(word: str) -> bool:
    """An adverb after a refusal that says how, not what ("rejected it obviously", "declined
    politely", "said no immediately"): one of the closed class, or a word in "-ly"."""
    return word in _ADVERBS or word in _AFTER or (
        len(word) > 4 and word.endswith("ly") and word.isalpha() and word not in _NOT_MANNER)


_AFTER = closed("outright again too anyway instantly straightaway")
_NOT_MANNER = closed("only family early daily weekly monthly yearly hourly nightly quarterly "
                     "supply reply apply rally july italy")


def _not_again(tokens: Sequence[Tok], i: int, b: int) -> int:
    """Where the "but" stands before "(I said) not X" at ``i`` when X repeats a value of the
    segment before it ("they had a Sunday slot too but not Sunday": the offer refused; "not
    X" with a value of its own is a correction, read as before; -1: none)."""
    again = _text(tokens[i + 1])
    j = i - 1 - (i > 1 and tokens[i - 1].word == ",")  # ("I said, not Tuesday")
    if j > 0 and tokens[j].word == "said" and tokens[j - 1].word in _WHO:
        j -= 2
    if j < 0 or tokens[j].word != "but":
        return -1
    return j if any(_text(t) == again for t in tokens[:j]) else -1


def _text(token: Tok) -> str:
    return token.value[2].lower() if token.value is not None else ""


def _undone(tokens: Sequence[Tok], i: int, b: int) -> bool:
    """The segment after a trial at ``i`` keeps or goes back to a value, or says the trial
    did not help or work."""
    for j in range(i + 1, b):
        word = tokens[j].word
        if word in UNDOING and any(t.value is not None for t in tokens[j + 1:min(b, j + 4)]):
            return True  # "so we kept 4g" ("tried 8g and kept it" keeps the trial)
        if word == "back" and tokens[j - 1].word in _BACK_TO:
            return True
        if word in _NO_USE and tokens[j - 1].word.endswith("n't"):
            return True
    return False


def refused_marks(tokens: Sequence[Tok], a: int, b: int) -> list[RefusedMark]:
    """The ranges of a segment ``(a, b)`` that a later refusal turns down or a trial given
    up leaves unset."""
    out: list[RefusedMark] = []
    for i in range(a, b):
        word = tokens[i].word
        if word in TRIED and i + 1 < b and tokens[i + 1].value is not None and \
                _undone(tokens, i + 1, b):
            out.append((i, i + 2, "negated"))  # "Tried 8g, it didn't help, so we kept 4g"
        elif (at := _dismissed(tokens, a, i, b)) > a + 1:  # "…, not doing it", "no way"
            out.append((a, at, "negated"))
        elif (at := _refusal(tokens, i, b)) > a + 1 and _turned_down(tokens, a, at, i):
            # (a name the grammar finds later in the range takes its mood too: "Pulumi")
            again = word == "not"  # ("but not Sunday" repeats the value it turns down)
            out.append((a, i + 2 if again else at, "negated"))  # "… and we refused"
    return out


def _dismissed(tokens: Sequence[Tok], a: int, i: int, b: int) -> int:
    """Where the clause of a dismissal at ``i`` opens (``fact_mood_dismissed``: "…, not
    doing it", "… but no way"), when an offer, a push or another's wish stands before it in
    its segment and no value follows it ("Dana suggested 8080, nope, 8081" repairs; -1:
    none)."""
    if i <= a or not opens(tokens[i - 1].word):
        return -1
    words = [t.word for t in tokens[i:b]]
    n = dismissal(words, 0)
    if not n or any(t.value is not None or t.word[:1].isdigit() for t in tokens[i + n:i + n + 3]):
        return -1
    offered = any(t.word in _OFFERS or t.word in _SELLING or t.word in _TOLD
                  for t in tokens[a:i - 1])  # ("friend told me to set it to 144 Hz, haven't
    # bothered": advice not taken)
    tried = any(t.word in TRIED or t.word == "experimented" or (
        t.word in _TRIAL_NOUNS and k > a and tokens[k - 1].word == "a")
        for k, t in enumerate(tokens[a:i - 1], a))  # "we had a go at DADGAD but …, not
    # doing that": a trial given up
    return i - 1 if offered or tried else -1


_TRIAL_NOUNS = closed("go try whirl shot")  # "had a go at", "gave it a try", "gave X a shot"
_TOLD = closed("told advised recommended")
_ADVERBS = closed("just flatly politely then all always obviously")
_TOLD_WHO = closed("him her them")
# What another offered, asked or wanted: a refusal by a third party turns down only that.
_OFFERS = closed("offered offer offers wanted wants asked asks proposed proposes suggested "
                 "suggests countered pushed pushing quoted")
_SELLING = closed("sell upsell upsold pitched")  # "they tried to upsell the Touring trim"


def _turned_down(tokens: Sequence[Tok], a: int, at: int, i: int) -> bool:
    """The refusal is the speaker's ("… and we refused"), or it turns down an offer or a
    wish ("they countered at $100k, and they rejected it"); "We moved the party to Saturday
    and she declined" is a change made, which another declined to come to."""
    said = {t.word for t in tokens[at:i]} | ({"i"} if tokens[i].word == "not" else set())
    own = said & {"i", "we"} or (not said & _WHO and tokens[a].word in ("i", "we")) or (
        said == {","} and any(t.word in _OFFERS | _SELLING for t in tokens[a:at]))
    # (a note's bare ", declined." after another's offer: the speaker's, subject dropped)
    return bool(own) or any(t.word in _OFFERS or t.word in _SELLING for t in tokens[a:at])


def standing_change(tokens: Sequence[Tok], first: int, mood_at: Callable[[int], str]) -> bool:
    """A change verb the sentence does not turn down (``fact_grammar``'s "V the K to X"): one
    outside a refused clause, or a refused one whose sentence goes on with an asserted "to" /
    "from" ("We didn't move the offsite to Lisbon but to Valencia"); "vet offered to switch
    Bella to the monthly injection, I said no" changes nothing."""
    refused = False
    for token in tokens[first:]:
        if is_change(token.word):
            if mood_at(token.start) != "negated":
                return True
            refused = True
    return refused and any(t.word in ("to", "from") and mood_at(t.start) == "statement"
                           for t in tokens[first:])
