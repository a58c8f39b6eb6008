"""The patterns ``provenance`` runs around the grammar: sentences, settings, bare values after
"is", decisions stated as a sentence, and a sentence's subject words (for sentence entries).

Corrections, old values and mood are read by ``fact_grammar`` from the sentence's structure
(issue 28), no longer by a cue-word regex here.
"""

from __future__ import annotations

import re
import unicodedata

DECISION = re.compile(  # not after a hyphen: "cherry-picked", "hand-picked" decide nothing
    r"(?<!-)\b(?:decid(?:e|ed|es|ing)|decision|agreed?|final call|we(?:'ll| will) (?:go with|use)"
    r"|(?:we|let'?s|let us|i'?ll|we'?re) go(?:ing)? with|let'?s (?:use|stick with)|settled on"
    r"|stick with|chose|chosen|switch(?:ed)? to|instead of|we pick|picked)\b", re.IGNORECASE)
GOAL_LINE = re.compile(r"^\s*\[(?:GOAL|DECISION|CHECKPOINT|NEXT|ARTIFACT)\]")
SETTING = re.compile(r"(?<![\w$])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{3,})=([^\s,;`'\"]+)")
# "the port is 8443", "retries: 5": a bare number that the finder leaves (no unit).
BARE_VALUE = re.compile(r"\b(?:is|are|=|:|becomes|set to|equals|to)\s+(\d[\d.,_]*\d|\d)\b"
                        r"(?![.,]?\d|\s*(?:%|[A-Za-z€$£]))")
# A street address ("14 Elm Street", "221B Baker St", "350 5th Avenue", "12 St Mary's Road
# NW"): a house number, one to three title-case words or an ordinal, and a street type (a
# closed class); one value, never a count of streets. "4 PM Dr Smith" is none (no title case).
_MONTHS = (r"(?:Jan|Febr)uary\b|March\b|April\b|May\b|June?\b|July\b|August\b"
           r"|(?:Sept|Nov|Dec)ember\b|October\b")  # (no street's name: "9 Thursday Dr Khan")
_POSTCODE = r"(?:,\s+\d{4,5}\s+[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?(?![\w'’-]))?"
ADDRESS = re.compile(
    r"\b\d{1,5}[A-Za-z]?\s+(?:(?:(?!(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b|" + _MONTHS
    + r")[A-Z][a-z][\w'’-]*|\d{1,3}(?:st|nd|rd|th))\s+){1,3}"
    r"(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Dr|Boulevard|Blvd|Way|Court|Ct|Place|Pl"
    r"|Close|Crescent|Terrace|Square|Sq|Row|Parkway|Pkwy|Highway|Hwy|Walk|Grove|Mews)\b"
    r"(?:\s+(?:NW|NE|SW|SE)\b)?"
    r"(?!\s+(?!is\b|was\b|has\b|does\b)[a-z]{2,}s\b)"  # ("5 Front Row seats": a count)
    # the street's kind before its name ("14 Rue Oberkampf, 75011 Paris", "12 Calle de Alcalá",
    # "3 Via della Spiga") or a street's name with its kind inside, then the number
    # ("Hauptstraße 12, 10115 Berlin"): one value with its postcode and town; chat writes the
    # kind in lower case ("14 rue Pasteur"), except an English word's ("2 via Slack")
    r"|\b\d{1,5}[A-Za-z]?,?\s+(?:Rue|Avenue|Boulevard|Bd|Place|Quai|Chemin|Allée|Impasse"
    r"|Calle|Avenida|Paseo|Plaza|Carrer|Rua|Via|Viale|Piazza|Corso|Largo|rue|avenue|boulevard"
    r"|quai|chemin|allée|impasse|calle|avenida|paseo|carrer|rua|viale|piazza)\s+"
    r"(?:(?:de|des|du|del|della|degli|di|da|do|dos|das|la|le|les)\s+|[dl]['’]){0,2}"
    r"[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2}" + _POSTCODE +
    r"|\b[A-Z][\w-]*(?:straße|strasse|weg|gasse|platz|allee|damm|ufer)\s+\d{1,4}[a-z]?\b"
    + _POSTCODE)
# An address that names the subject's owner before its verb ("the rent for 14 Elm Street is
# $1200", "the wifi password at 14 Elm Street is …"): the owner of a key, no value.
ADDRESS_OWNER = re.compile(r"\b(?:for|at|of|on|in)\s+$", re.IGNORECASE)
ADDRESS_VERB = re.compile(r"\s+(?:is|are|was|were|has|costs?)\b")
# A number of a unit of time ("2 weeks", "6 hrs"), a period's length after "every".
DURATION_TEXT = re.compile(r"\d[\d.,]*\s*(?:min(?:ute)?s?|h(?:ou)?rs?|hours?|days?|weeks?|"
                           r"months?|years?|yrs?|wks?)", re.IGNORECASE)
# "from B12 to C4", "from gate A3 to B7": two codes of one shape (letters, then digits) a
# change joins are its old and new value; a code alone may be a vitamin or a paper size, and
# digits before a letter are a quantity and its unit ("from 20A to 30A", "50K").
CODE_CHANGE = re.compile(r"\bfrom\s+([A-Z]{1,2}\d{1,4})\s+to\s+([A-Z]{1,2}\d{1,4})\b")
# A ratio ("split 80/20", "70/15/15"): one value, no path and no identifier to reference.
# With colons ("1:1:1", "1:4", "16:9"): not a clock's "9:30" / "1:05:30" (two digits in
# every later part), nor a thing so named after a determiner or bare ("my 1:1 with Sam",
# "15:00 1:1 tomorrow": a meeting).
# (a result, no ratio: "Arsenal won 2:1", "we lost 3:2", "the odds were 5:1", "final score 2:1")
_RESULT = "".join(rf"(?<!\b{w} )" for w in (
    "won", "lost", "drew", "beat", "ended", "finished", "set", "score", "odds", "odds were",
    "odds are", "odds of", "odds at", "score was", "score is", "score of"))
RATIO = re.compile(r"(?<![\w./-])\d{1,3}(?:/\d{1,3})+(?![\w/]|\.\d)"
                   r"|(?<![\w.:/])(?<!\ba )(?<!\bmy )(?<!\bour )(?<!\bthe )(?<!\byour )"
                   r"(?<!\bthis )(?<!\bnext )(?<!\bweekly )(?!1:1(?![:\d]))" + _RESULT +
                   r"(?!\d{1,3}(?::\d\d)+(?![\d:]))\d{1,3}(?::\d{1,3}){1,3}(?![\w:]|\.\d)")
# A sentence ends at . ! ? and a space, whatever case follows (chat text is often lower case),
# but not after a common abbreviation.
# (not after a title before a name: "Dr. Lindqvist", "Mrs. Haas", a closed class)
# (in any case: chat text is often all lower case, "dr. lindqvist")
# (but "ms." and "st." in lower case are units and ordinals: "300 ms. The port ...")
SENTENCE_END = re.compile(r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\betc\.)(?<!\bvs\.)"
                          r"(?<!\b[DMdm]r\.)(?<!\b[Mm]rs\.)(?<!\bMs\.)(?<!\b[Pp]rof\.)"
                          r"(?<!\bSt\.)(?<=[.!?])\s+")
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
# A sentence's closing courtesy ("… to 12 thx", "… is yellow, cheers!"): the closed class of
# courtesy interjections, after a word and at the sentence's end, is no part of its last phrase.
CLOSING = re.compile(r"(?<=\w)[\s,;.!-]+(?:thx|thanks|thank\s+you|ty|tia|cheers|pls|plz|please)"
                     r"[\s.!]*$", re.IGNORECASE)
EMOTICON = re.compile(r"\s+[:;]-?[()DPp]$")
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
        out.extend(s for s in map(_unclosed, SENTENCE_END.split(line.strip())) if s)
    return out


def _emoji_part(char: str) -> bool:
    return (unicodedata.category(char) == "So" or "\U0001f3fb" <= char <= "\U0001f3ff"
            or char in "\u200d\ufe0f\u20e3")


def _unclosed(sentence: str) -> str:
    """The sentence without what closes it and says nothing of a value: trailing emoji
    (Unicode's other symbols, skin-tone modifiers, joiners and variation selectors; not a
    modifier letter such as a backtick, which closes a code span, nor a combining accent,
    which belongs to its word) and emoticons, then a courtesy word."""
    text = sentence.strip()
    while text and _emoji_part(text[-1]):
        text = text[:-1].rstrip()
    text = EMOTICON.sub("", text)
    return CLOSING.sub("", text).strip()


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


def clip_words(sentence: str, limit: int = MAX_SENTENCE_WORDS) -> str:
    words = sentence.split()
    return sentence if len(words) <= limit else " ".join(words[:limit]) + " …"
