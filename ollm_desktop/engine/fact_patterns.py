"""The words that make a sentence a fact: cues for corrections and decisions, subjects, old values.

Only patterns live here (``provenance`` runs them). A correction is told by its cue, never by a
value merely differing: "see v1.20.3" then "see v2.11.1" are two facts, while "actually",
"correction", "instead of", "not X but Y", "moved to", "is superseded" make the newer value
replace the older one of the same subject.
"""

from __future__ import annotations

import re

CORRECTION = re.compile(
    r"\b(?:correction|corrected|correcting|actually|update:|instead|rather than|no longer"
    r"|not\b[^;]{0,60}\bbut|superseded|supersedes|replaces|replaced by|changed (?:to|from)"
    r"|has changed|moved (?:to|from)|switch(?:ed|ing)? (?:to|from|over)|scratch that"
    r"|any ?more|was wrong|is wrong|outdated|obsolete"
    r"|changed our minds?|on second thought|we now use|now uses?|now listens|is now|are now"
    r"|bumped (?:to|from)|upgraded (?:to|from)|downgraded (?:to|from)"
    r"|(?:changed|moved|switched|bumped|raised|lowered|increased|decreased|reduced|went"
    r"|upgraded|downgraded|migrated|cut|dropped)\b[^;]{0,50}\bfrom\b[^;]{1,50}\bto"
    r"|typo|i meant|meant to say|earlier figure|earlier value)\b",
    re.IGNORECASE)
DECISION = re.compile(  # not after a hyphen: "cherry-picked", "hand-picked" decide nothing
    r"(?<!-)\b(?:decid(?:e|ed|es|ing)|decision|agreed?|final call|we(?:'ll| will) (?:go with|use)"
    r"|(?:we|let'?s|let us|i'?ll|we'?re) go(?:ing)? with|let'?s (?:use|stick with)|settled on"
    r"|stick with|chose|chosen|switch(?:ed)? to|instead of|we pick|picked)\b", re.IGNORECASE)
# A value is the replaced one when one of these precedes it in its clause...
OLD_BEFORE = re.compile(
    r"(?:\bnot(?: in| at| on| to| the)?|\binstead of|\brather than|\bfrom|\breplaces|\bformerly"
    r"|\bwas|\bused to be|\bearlier figure of|\bearlier value of|\bprevious(?:ly)?|\bold)"
    r"(?:\s+\S+){0,2}\s*$", re.IGNORECASE)
# ...or one of these follows it.
OLD_AFTER = re.compile(
    r"^\s*(?:\S+\s+){0,2}?(?:is|was|are)?\s*(?:no longer|superseded|obsolete|outdated|wrong"
    r"|gone|retired|deprecated|replaced|not used|any ?more)\b", re.IGNORECASE)
CLAUSE_BREAK = re.compile(r"[;,]|\bbut\b|\bto\b|\bnow\b", re.IGNORECASE)
CLAUSE_END = re.compile(r"[;,]|\bbut\b|\band\b|\binstead\b", re.IGNORECASE)
GOAL_LINE = re.compile(r"^\s*\[(?:GOAL|DECISION|CHECKPOINT|NEXT|ARTIFACT)\]")
QUESTION = re.compile(r"\?[.\s]*$")
SETTING = re.compile(r"(?<![\w$])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{3,})=([^\s,;`'\"]+)")
# "the port is 8443", "retries: 5": a bare number that the finder leaves (no unit).
BARE_VALUE = re.compile(r"\b(?:is|are|=|:|becomes|set to|equals|to)\s+(\d[\d.,_]*\d|\d)\b"
                        r"(?![.,]?\d|\s*(?:%|[A-Za-z€$£]))")
# A sentence ends at . ! ? and a space, whatever case follows (chat text is often lower case),
# but not after a common abbreviation.
SENTENCE_END = re.compile(r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bvs\.)(?<=[.!?])\s+")
WORD = re.compile(r"[A-Za-z][A-Za-z0-9'-]*")
STOP = frozenset("""
a an the and or but if so as of in on at by to for from with into onto about than then that
this these those it its it's is are was were be been being am do does did done has have had
will would should could can may might must shall let let's lets we us our you your i me my they
them their he she his her there here what which who whom whose when where why how all any some
each every more less most much many other another such same own just only also still even very
really please now again yet already ever never always new old current currently correction
corrected update updated actually instead rather changed change changes moved move moving
switch switched plan plans note noted okay ok sure yes no not anymore longer earlier previous
previously later first last next use used using uses get got set make made take took go goes
going went come came need needs needed want wants wanted think know see look looks keep kept
put call called name named say said tell told mean meant right wrong we'll i'll you'll it'll
that's there's don't doesn't isn't aren't won't can't we're i'm we've i've from-here off up
down over under out via per thing things way bit lot one two three final decision decided
decide agree agreed for-now fine good great well superseded replaced replaces obsolete outdated
moment
""".split())  # noqa: SIM905 (a word list reads better)
MAX_SUBJECT_WORDS = 4
MAX_SENTENCE_WORDS = 30


def sentences(text: str) -> list[str]:
    """Lines, then sentences; code fences and goal marker lines are skipped."""
    out: list[str] = []
    fenced = False
    for line in text.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or not line.strip() or GOAL_LINE.match(line):
            continue
        out.extend(s.strip() for s in SENTENCE_END.split(line.strip()) if s.strip())
    return out


def subject_words(before: str) -> str:
    """What a value is a value of: the meaningful words just before it, lower case, each
    once (values must be blanked out of ``before`` by the caller)."""
    words = [w.lower().strip("'-") for w in WORD.findall(before)]
    kept: list[str] = []
    for word in words:
        if word in STOP or len(word) < 2 or any(c.isdigit() for c in word):
            continue
        word = word[:-1] if word.endswith("s") and len(word) > 4 and not word.endswith("ss") \
            else word
        if word in kept:
            kept.remove(word)
        kept.append(word)
    return " ".join(kept[-MAX_SUBJECT_WORDS:])


def is_old(sentence: str, start: int, end: int, floor: int = 0) -> bool:
    """In a correction, is the value at ``start:end`` the replaced one? ``floor``: where the
    previous value ended (a cue before it belongs to that value)."""
    before = sentence[:start]
    last_break = max((m.end() for m in CLAUSE_BREAK.finditer(before)), default=0)
    last_break = max(last_break, min(floor, start))
    clause = before[last_break:]
    after = sentence[end:]
    cut = CLAUSE_END.search(after)
    return bool(OLD_BEFORE.search(clause) or OLD_AFTER.match(after[:cut.start()] if cut
                                                              else after))


def clip_words(sentence: str, limit: int = MAX_SENTENCE_WORDS) -> str:
    words = sentence.split()
    return sentence if len(words) <= limit else " ".join(words[:limit]) + " …"
