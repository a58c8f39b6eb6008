"""Errata: a correction between two quoted texts, read whole (issue 28, stop 44).

People correct a text by quoting it: a knitting pattern ("The “Patt 6” at the start should be
“Patt 4”"), a document ("It says 'Dear Sir' where it should say 'Dear Ms Lee'"), a label
("should read "Exit" instead of "Quit""), a rename ('from "new-gui" to "gui"'). The quotes say
where each value begins and ends, which the value finder cannot know for a phrase of ordinary
words: it read nothing of the first two, and "p2'" and "k1" of "Row 12 should be 'k2, p2' not
'k1, p1'". Here the quoted spans are the values, and the structure between them says which is
old: "Q1 … should (be | read | say | have been) Q2", "Q2, not Q1", "not Q1 but Q2", "Q2
instead of (rather than) Q1", "Q1 -> Q2", and "from Q1 to Q2" in a sentence with a change
verb. A question or a hedge ("Should it read 'Exit'?", "Maybe 'Exit' instead of 'Quit'")
corrects nothing and is left to the mood readers, as is every sentence without this shape.
"""

from __future__ import annotations

import re
from typing import NamedTuple

_QUOTED = re.compile(r"“([^”\n]{1,40})”|\"([^\"\n]{1,40})\"|‘([^’\n]{1,40})’"
                     r"|(?<![\w'])'([^'\n]{1,40})'(?![\w'])")
_OBLIGED = r"(?:should|must|needs?\s+to|ought\s+to|has\s+to)\s+(?:have\s+been|be|read|say)" \
           r"(?:\s+(?:changed|corrected|updated|replaced|fixed)\s+(?:to|with|by))?"
# (old, new) as the groups' order says: "o" then "n" or "n" then "o"
_SHAPES = (
    re.compile(rf"Q(?P<o>\d)\s[^Q?]{{0,40}}?\b{_OBLIGED}\s+(?:\w+\s+){{0,2}}?Q(?P<n>\d)", re.I),
    re.compile(r"Q(?P<n>\d)\s*(?:,|;|—|–|-)?\s*(?:and\s+)?not\s+Q(?P<o>\d)", re.I),
    re.compile(r"\bnot\s+Q(?P<o>\d)\s*,?\s*but\s+Q(?P<n>\d)", re.I),
    re.compile(r"Q(?P<n>\d)\s*,?\s+(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+Q(?P<o>\d)",
               re.I),
    re.compile(r"Q(?P<o>\d)\s*(?:->|→|=>)\s*Q(?P<n>\d)"),
)
_FROM_TO = re.compile(r"\bfrom\s+Q(?P<o>\d)\s+to\s+Q(?P<n>\d)", re.I)
_CHANGE_VERB = re.compile(r"\b(?:renam|chang|switch|mov|updat|correct|fix|replac|edit|amend"
                          r"|set|bump|alter)\w*", re.I)
_UNSURE = re.compile(r"\?\s*$|^\s*(?:maybe|perhaps|what\s+if|should\s+(?:we|i|it|they)"
                     r"|could|would|shall|i\s+(?:think|guess|wonder)|how\s+about)\b", re.I)


class Quoted(NamedTuple):
    """A quoted text's place in its sentence (inside the quotes, without the spaces at its
    ends) and the text."""

    start: int
    end: int
    text: str


def errata(sentence: str) -> tuple[Quoted, Quoted] | None:
    """(old, new): the quoted text the sentence corrects and its replacement, with their
    places (the caller needs no search for them, which could land on an unquoted earlier
    occurrence of the same words), or None."""
    spans = list(_QUOTED.finditer(sentence))
    if len(spans) < 2 or _UNSURE.search(sentence):
        return None
    texts = [_inside(m) for m in spans]
    placed, last = [], 0
    for index, match in enumerate(spans):
        placed += [sentence[last:match.start()], f"Q{index}"]
        last = match.end()
    shaped = "".join([*placed, sentence[last:]])
    shapes = [*_SHAPES, *((_FROM_TO,) if _CHANGE_VERB.search(shaped) else ())]
    for pattern in shapes:
        match = pattern.search(shaped)
        if match is None:
            continue
        old, new = texts[int(match.group("o"))], texts[int(match.group("n"))]
        if old.text and new.text and old.text.lower() != new.text.lower():
            return old, new
    return None


def _inside(match: re.Match[str]) -> Quoted:
    """The text between a match's quotes, stripped, with its place."""
    group = next(k for k in range(1, 5) if match.group(k) is not None)
    raw = match.group(group)
    start = match.start(group) + len(raw) - len(raw.lstrip())
    text = raw.strip()
    return Quoted(start, start + len(text), text)
