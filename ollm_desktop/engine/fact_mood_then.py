"""A past state set against now in one sentence (``fact_mood``, issue 28): "I grew up in
Leeds and lived in Bristol for years, but now I'm in Glasgow", "the office was in Leeds for
years, now it's in York", "we used Trello for years but these days we use Jira".

A clause that opens with a time of now ("now", "right now", "these days", "nowadays",
"currently", "at the moment", "since then"), after a comma, ";" or a conjunction, sets the
clauses before it against the present: each of them told in the past tense (a past copula,
"had", a verb in "-ed" or a common irregular past) with no present copula and no change verb
("we moved it to 10, now it's 12" keeps its change) is a past state, whose values say nothing
about now. ``fact_tense`` reads a past clause by its own before-time ("used to", "back
then"); here the before-time is the later clause's "now". Its own module: ``fact_mood`` and
``fact_tense`` are full.

A clause of its value and "now" ("…over summer; once daily now", "…; £35 now") is a clause
of now too.

A fronted before-time cut off by its comma ("Prior to the bot troubles, this was at 180 per
minute") sets the past clause after it in the past as well.

The words are closed classes: time adverbs of the present, past auxiliaries and copulas.
"""

from __future__ import annotations

from collections.abc import Sequence

from ollm_desktop.engine import fact_mood_words as cues
from ollm_desktop.engine.fact_words import Tok, closed, is_change, is_replace

NOW_WORDS = closed("now nowadays currently presently rn")  # ("rn": right now)
NOW_PAIRS = frozenset({("these", "days"), ("right", "now"), ("at", "present"), ("for", "now"),
                       ("since", "then"), ("just", "now"), ("as", "of")})
# (an "as of" must be followed by "now" / "today": ``now_opens``)
_IRREGULAR = closed("used met ran grew went drove rode kept sat stood lay wore spent sang knew "
                    "dwelt slept had made paid led held got")
_EDGE = closed(", ; but and so")  # what may come before a clause of now


def now_opens(words: Sequence[str], k: int) -> int:
    """How many words a time of now takes at ``k`` (0: none): "now", "these days", "right
    now", "at the moment", "as of today", "since then"."""
    word = words[k] if k < len(words) else ""
    nxt = words[k + 1] if k + 1 < len(words) else ""
    if word in NOW_WORDS:
        return 1
    if (word, nxt) == ("as", "of"):
        return 3 if words[k + 2:k + 3] in (["now"], ["today"]) else 0
    if (word, nxt) in NOW_PAIRS:
        return 2
    if [word, nxt, *words[k + 2:k + 3]] == ["at", "the", "moment"]:
        return 3
    return 0


def _told_past(words: list[str]) -> bool:
    """A clause told in the past tense, with nothing present or changing in it."""
    if any(w in cues.PRESENT or w in cues.CONTRAST or is_change(w) or is_replace(w)
           for w in words):
        return False
    return any(w in cues.PAST or w in _IRREGULAR or (w.endswith("ed") and len(w) > 4)
               for w in words)


def _verbless(words: list[str]) -> bool:
    """A clause with no verb or subject of its own ("(~3 per second)", ", with a warning at
    90"): an aside of the clause before it."""
    return not any(w in cues.BE or w in cues.PAST or w in cues.SUBJECTS or w in NOW_WORDS or
                   is_change(w) or (w.endswith("ed") and len(w) > 4) for w in words)


def _value_now(tokens: Sequence[Tok], k: int, b: int) -> bool:
    """A clause of now said as its value and "now" ("…; once daily now", "…, 19 now"): a
    value opens it and "now" follows the value."""
    return k + 1 < b and tokens[k].value is not None and tokens[k + 1].word == "now"


def then_marks(tokens: Sequence[Tok], clauses: Sequence[tuple[int, int, bool]],
               ) -> list[tuple[int, int]]:
    """The token ranges of the past clauses a later clause of now sets against the present."""
    out: list[tuple[int, int]] = []
    for n, (a, b, _) in enumerate(clauses):
        words = [t.word for t in tokens[a:b]]
        if (words[:2] == ["prior", "to"] or words[:1] == ["before"]) and \
                words[-1:] == [","] and n + 1 < len(clauses) and _told_past(
                    [t.word for t in tokens[clauses[n + 1][0]:clauses[n + 1][1]]]):
            end = n + 2  # "Prior to the outage, this was at 180 (~3 per second), with …"
            while end < len(clauses) and _verbless(
                    [t.word for t in tokens[clauses[end][0]:clauses[end][1]]]):
                end += 1  # (its asides with no verb of their own)
            out.append((a, clauses[end - 1][1]))
        if not n:
            continue
        k = 0
        while k < len(words) and words[k] in _EDGE:
            k += 1
        if not k and tokens[a - 1].word not in _EDGE:
            continue  # a clause of now follows a comma, ";" or a conjunction
        size = now_opens(words, k)
        if (not size or words[k + size:k + size + 1] == ["that"]) and \
                not _value_now(tokens, a + k, b):
            continue  # ("now that I think of it": a subordinator)
        back = n - 1
        while back >= 0 and _told_past([t.word for t in tokens[clauses[back][0]:
                                                               clauses[back][1]]]):
            out.append((clauses[back][0], clauses[back][1]))
            back -= 1
        break
    return out


_SAID_NOW = (("these", "days"), ("right", "now"), ("at", "the", "moment"), ("at", "present"),
             ("since", "then"), ("nowadays",), ("currently",), ("rn",))
# Times that say how things stand, not that they changed: read as one word, "currently", so
# no key takes "moment", but not as "now", whose shapes mark a change ("the server runs
# RabbitMQ 13.3 at the moment" corrects nothing; as "now" it replaced another key's value).
_STATE = (("at", "the", "moment"), ("at", "present"), ("currently",))


def now_said(tokens: list[Tok], sentence: str = "") -> list[Tok]:
    """The sentence's times of now read as "now" ("these days it's 55 EUR", "at the moment
    it's Monday", "currently we run Postgres 16", "…; since then Jira"): one adverb, so the
    key readers take none of its words for a key ("day", "moment") and the shapes of "now"
    read it."""
    out: list[Tok] = []
    k = 0
    while k < len(tokens):
        phrase = next((p for p in _SAID_NOW if tuple(t.word for t in tokens[k:k + len(p)])
                       == p and not any(t.value for t in tokens[k:k + len(p)])), None)
        if phrase == ("rn",) and (sentence[tokens[k].start:tokens[k].end] not in ("rn", "") or
                                  (out[-1:] and out[-1].word in ("a", "an", "the"))):
            phrase = None  # ("an RN at St Mary's": a nurse, not "right now")
        if phrase is None:
            out.append(tokens[k])
            k += 1
            continue
        word = "currently" if phrase in _STATE else "now"  # (a state's time is no change's
        out.append(Tok(word, tokens[k].start, tokens[k + len(phrase) - 1].end))  # "now")
        k += len(phrase)
    return out


def may_then(tokens: Sequence[Tok], first: int) -> bool:
    """A time of now after a clause edge, or a span of the past ("for years", ``fact_tense``):
    a cheap test before the clauses are cut."""
    words = [t.word for t in tokens]
    if "for" in words and {"years", "ages", "decades", "while", "long"} & set(words):
        return True
    return any(words[i - 1] in _EDGE and (now_opens(words, i) or
                                          _value_now(tokens, i, len(tokens)))
               for i in range(first + 1, len(words)))
