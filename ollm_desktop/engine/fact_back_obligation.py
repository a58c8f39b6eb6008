"""A sentence that says what the previous one's value should have been: "CHANGELOG.md states
that version 0.13 was released 31 Jun, 2022. I guess this should have been 31 May, 2022."

``fact_old_values`` reads "…Y…, it should be X" inside one sentence. People also put the
obligation in a sentence of its own, its subject a pronoun that points back ("This should
have been X.", "It must read X.", "That is supposed to be X."), bare or under the speaker's
own belief verb ("I guess this should have been X"). The previous sentence's one value of
X's kind is then the wrong one: it is marked old, and both sentences are read as a correction.

Not read so: a pronoun under someone else's belief ("Dana thinks it should be X": an opinion),
an inference ("So it should be X": "so", "then" open no subject of this shape), a value that
follows with when or on what condition it must hold ("It should be X from January": a
requirement, ``fact_old_values``' rule), a previous sentence with two values of X's kind (which
one is meant is not said), and a previous sentence that asks or hedges (it stated no value).

Nor a wish or a norm about the world ("The rent is 1200. It should be 1100 but the landlord
refuses", "… ideally", "… in my opinion", "… in 2027"): the rent IS 1200. The obligation
corrects a value only when nothing follows X but the sentence's end or "instead" / "actually" (a
requirement's "from January" is such a tail too). The wrong value is then recorded as replaced
by the right one (on this sentence's number, so the ledger pairs the two), and the right one
takes the wrong one's key, so a later statement of that key meets it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ollm_desktop.engine.fact_mood_words import BELIEF, FIRST_PERSON
from ollm_desktop.engine.fact_old_values import obligation_value_at
from ollm_desktop.engine.fact_words import TOKEN

if TYPE_CHECKING:
    from ollm_desktop.engine.provenance import Found


_BACK = frozenset({"it", "this", "that"})
# What may follow the right value: the sentence's end, or the words that assert it against the
# previous one.
_CLOSES = frozenset({"instead", "actually"})
# "… all along": the time a repair says the value held.
_ALL_ALONG = (["to", "begin", "with"], ["in", "the", "first", "place"],
              ["from", "the", "start"])


def _points_back(sentence: str) -> bool:
    """Whether the sentence opens with "[I <belief verb>] it/this/that <modal of obligation>
    (have) be(en)/read/say …" and names a value right after it."""
    words = [m.group(0).lower() for m in TOKEN.finditer(sentence)]
    at = 0
    if words[:1] and words[0] in FIRST_PERSON and words[1:2] and words[1] in BELIEF:
        at = 2  # the speaker's own belief: "I guess this should have been X"
    return words[at:at + 1] != [] and words[at] in _BACK and \
        obligation_value_at(words, at + 1) > 0


def _repairs(sentence: str) -> bool:
    """Whether the sentence opens with "[it/this/that] should/must have been X": the past of
    an obligation, bare or after a pronoun that points back, says what a value given was
    meant to be all along (a self-repair), not what it has to become."""
    words = [m.group(0).lower() for m in TOKEN.finditer(sentence)]
    at = 1 if words[:1] and words[0] in _BACK else 0
    return words[at:at + 3] in (["should", "have", "been"], ["must", "have", "been"]) and \
        obligation_value_at(words, at) > 0


def retired(before: list[Found], found: list[Found], sentence: str, number: int,
            ) -> tuple[list[Found], list[Found]]:
    """``before`` (the message's earlier facts) with the previous sentence's value of the
    kind of ``found``'s new value marked old, and ``found`` read as a correction, when
    ``sentence`` (number ``number``) says what that value should have been;     both as they are
    otherwise."""
    news = [f for f in found if not f.old and f.kind != "question"]
    if not news or not (_points_back(sentence) or _repairs(sentence)):
        return before, found
    right = news[0]
    at = sentence.find(right.value)
    after = [m.group(0).lower() for m in TOKEN.finditer(sentence[at + len(right.value):])
             ] if at >= 0 else ["?"]
    along = False  # ("… should have been 8080 to begin with")
    for since in _ALL_ALONG:
        along = along or after[:len(since)] == since
        after = after[len(since):] if after[:len(since)] == since else after
    if any(w not in _CLOSES and w.isalnum() for w in after) or "?" in after:
        return before, found  # "It should be €990 from January / but the landlord refuses"
    wrong = [f for f in before if f.sentence == number - 1 and not f.old and
             f.ref_kind == right.ref_kind and f.value != right.value and
             f.key.rpartition("|")[2] == right.key.rpartition("|")[2]]
    bare = [m.group(0).lower() for m in TOKEN.finditer(sentence)][:1] != ["it"]
    if not wrong and _repairs(sentence) and (along or bare) and not any(
            f.sentence == number - 1 and not f.old for f in before):
        # the value it repairs is an earlier message's: the sentence is a correction of it,
        # where it says the value held all along or says no "it" ("It should have been
        # 9:05." after "The train got in at 9:40." is a complaint: stop 49's review)
        return before, [replace(f, correction=True) if f is right else f for f in found]
    if len(wrong) != 1 or wrong[0].kind == "question":
        return before, found
    key = wrong[0].key if right.key.startswith("||") else right.key
    return ([replace(f, old=True, correction=True, sentence=number) if f is wrong[0] else f
             for f in before],
            [replace(f, correction=True, key=key) if f is right else f for f in found])
