"""A user's value said to have ended, with no new value for it (issue 28, stop 51): "Sold it.",
"It got stolen.", "Totalled it last week.", "not vegan anymore", "I quit being vegan.", "Off
keto now.", "Was vegan." A value that stays current after the user said it ended is worse than
none, and no other reading takes these: they name no new value to replace the old one with.

The ending is the user's statement (no question, condition, wish or plan; no one else its
subject: "my daughter drives it now" ends nothing) and refers back to exactly one value:

- by naming it ("quit being vegan", "off keto now", "sold the Polo", "sold the car"): the one
  current value of the user's that is that word, or ends with it ("2010 Polo"), or whose
  key's thing it is ("car: 2016 Golf");
- by "it" / "them" after a verb that ends a thing held ("Sold it.", "it got stolen"): the
  one current value the user's latest statement of values left (two or more there, or none:
  nothing is ended). A bare "Not anymore." or "quit it" may answer what a reply asked ("Do
  you still smoke?"), which the ledger does not see: it ends nothing.

The ending sentence is kept as the user's own (as "Not anymore." is), and the value
is the old one it replaces: the ledger shows the value replaced by what the user said.
Split from ``facts`` (full), which asks ``ended`` after ``keyed_by_named_olds``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ollm_desktop.engine.fact_key_match import family
from ollm_desktop.engine.fact_message_lines import said_sentences
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.provenance import MAX_FACT_TEXT, Found

_BY = r"(?:^|[,;:—–-]\s*|\b(?:i|we|and|so|just|finally|already)\s+)"
# Verbs that end a thing held ("sold it"; not a habit's "quit it", "gave it up": "it" may be
# what a reply asked about, "do you still smoke?").
_ENDING_VERBS = (r"sold|totall?ed|wrecked|scrapped|crashed|returned|gave away|got rid of|"
                 r"traded in|ditched|replaced")
_ME = r"(?:^|[,;.!]\s*|\b(?:i'?m|i am|we'?re|we are)\s+)"
_ENDINGS = (
    re.compile(rf"{_BY}(?:{_ENDING_VERBS})\s+(?:it|them|that|(?:the|my|our)\s+(?P<v>[\w-]+))"
               r"\b(?!\s+(?:to|for)\b)"),
    re.compile(r"(?:^|[,;.!]\s*)(?:it|they|(?:my|our|the)\s+(?P<v>[\w-]+))\s+(?:got|was|were|"
               r"has been|have been|just got)\s+(?:stolen|totall?ed|written off|towed|"
               r"scrapped|repossessed|sold|nicked)\b"),
    re.compile(rf"{_ME}not\s+(?:a\s+)?(?P<v>[\w-]+)\s+(?:anymore|any more)\b"),
    re.compile(rf"{_ME}no longer\s+(?:a\s+)?(?P<v>[\w-]+)\b"),
    re.compile(rf"{_BY}(?:quit|stopped|gave up|am no longer|'m no longer|m no longer|"
               r"no longer|not)\s+being\s+(?P<v>[\w-]+)"),
    re.compile(r"(?:^|[,;.!]\s*)(?:i'?m\s+|we'?re\s+)?(?:off|done with|over)\s+(?P<v>[\w-]+)"
               r"\s+now\b"),
    re.compile(r"^(?:i\s+|we\s+)?(?:was|were)\s+(?P<v>[\w-]+)\s*[.!]"),
    re.compile(r"(?:^|[,;.!]\s*)(?:(?:the|my|our)\s+)?(?P<v>[\w-]+)\s+(?:died|is dead|broke|"
               r"broke down|got eaten)\s*(?:[,;.!]|$)"),
)
# Words of a question, a condition, a wish, a plan or a doubt: no ending stated.
_UNSURE = re.compile(r"\?|\b(?:if|would|might|should|could|maybe|want|wants|thinking|plan|"
                     r"planning|going to|gonna|considering|may|will|unless|whether)\b")


def _current(facts: Sequence[Fact]) -> list[Fact]:
    return [f for f in facts if f.source == "user" and f.replaced_by is None and
            family(f) not in ("sentence", "question")]


def _target(facts: Sequence[Fact], named: str | None) -> Fact | None:
    """The one value the ending refers back to, or None."""
    live = _current(facts)
    if named:
        low = named.lower()
        hits = [f for f in live if f.value.lower() == low or f.value.lower().endswith(" " + low)
                or f.subject.lower().rstrip("s") == low.rstrip("s")]  # "sold the car": its key
        return hits[0] if len(hits) == 1 else None
    if not live:
        return None
    latest = max(f.turn or 0 for f in live)
    hits = [f for f in live if (f.turn or 0) == latest]
    return hits[0] if len(hits) == 1 else None


def ended(found: Sequence[Found], facts: Sequence[Fact], content: str,
          role: str) -> list[Found]:
    """``found`` with the value a user's ending sentence refers back to as its old value."""
    if role != "user" or any(f.old for f in found) or any(
            f.kind not in ("correction", "note", "decision") for f in found):
        return list(found)  # (a new value of its own: the other readings decide)
    out = list(found)
    for number, sentence in enumerate(said_sentences(content)):
        low = sentence.strip().lower()
        if _UNSURE.search(low):
            continue
        match = next((m for m in (e.search(low) for e in _ENDINGS) if m), None)
        if match is None:
            continue
        fact = _target(facts, match.groupdict().get("v"))
        if fact is None:
            continue
        if not any(f.sentence == number for f in out):
            out.append(Found(kind="correction", value=sentence.strip()[:MAX_FACT_TEXT],
                             subject="", ref_kind="correction", correction=True,
                             sentence=number))
        out.append(Found(kind=fact.kind, value=fact.value, subject=fact.subject,
                         ref_kind=fact.ref_kind, correction=True, old=True, sentence=number,
                         key=fact.key))
        break
    return out
