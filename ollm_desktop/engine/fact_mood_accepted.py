"""Another's wish the user says yes to is the user's (issue 28, stop 51 review).

"My brother wants to borrow my car on Friday." reads the wish as his (``fact_mood_others``:
a wish of kin or a peer), so "Friday" is no value of the user's. Then "Told him yes." (or
"I said yes", "we agreed", "gave her the go-ahead", in the same message or the next one the
user sends) grants it: the wish's values are the user's, as they were read before wishes of
kin were told apart. Only a report of answering someone grants: a bare "Agreed." or "ok"
may answer the assistant, and "told him yes, but only till noon" grants something else; a
"no" is ``fact_mood_refused``'s. ``facts.absorb`` asks here of each user message.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from ollm_desktop.engine.fact_message_lines import said_sentences
from ollm_desktop.engine.fact_types import SENTENCE_KINDS, Fact, FactKind

if TYPE_CHECKING:  # (provenance reads the moods that read these)
    from ollm_desktop.engine.models import Message
    from ollm_desktop.engine.provenance import Found

_PERSON = r"(?:him|her|them|my \w+)"
_YES = r"(?:yes|yeah|yep|ok|okay|sure|fine)"
# A clause that reports the speaker's yes to someone, whole (its subject may be left out).
_GRANTED = re.compile(
    rf"(?:(?:ok|okay|so|and|then|well|anyway)\s*,?\s+)*(?:(?:i|we)\s+)?"
    rf"(?:just\s+|finally\s+|eventually\s+|already\s+)?(?:"
    rf"told\s+{_PERSON}\s+{_YES}|said\s+{_YES}(?:\s+to\s+(?:{_PERSON}|it|that))?|"
    rf"gave\s+{_PERSON}\s+the\s+(?:ok|okay|go-ahead|green\s+light)|"
    rf"let\s+{_PERSON}(?:\s+have\s+it)?|(?<=we\s)agreed|(?<=i\s)agreed)"
    rf"(?:\s+in\s+the\s+end|\s+after\s+all)?\s*[.!]*",
    re.IGNORECASE)
_CLAUSE = re.compile(r"\s*(?:[,;]|—|–|\s-\s)\s*")


def granted(text: str) -> bool:
    """``text`` (a sentence) is, or ends with, a clause that reports the speaker's yes."""
    clause = _CLAUSE.split(text.strip())[-1]
    return _GRANTED.fullmatch(clause.strip()) is not None


def accepted(found: list[Found], facts: list[Fact], message: Message) -> list[Found]:
    """``found`` (a message's facts) with the wishes it grants as the user's: a wish's values
    (read as a question) in a sentence before the one that grants, or in that sentence
    before its granting clause; a message that grants and states no value itself grants the
    wish of the user's last message that stated anything (in ``facts``, changed in place)."""
    if message.role != "user":
        return found
    said = said_sentences(message.content)
    yes = [n for n, sentence in enumerate(said) if granted(sentence)]
    if not yes:
        return found
    if any(f.kind == "question" and f.sentence <= yes[-1] for f in found):
        return [replace(f, kind=_kind(f.ref_kind)) if f.kind == "question" and
                f.sentence <= yes[-1] else f for f in found]
    if any(f.kind not in SENTENCE_KINDS for f in found):
        return found  # (a value of its own: what it grants is not the last message's)
    users = [f for f in facts if f.source == "user" and f.message_id != message.id]
    last = max(users, key=lambda f: f.sequence, default=None)
    for fact in users:
        if last is not None and fact.message_id == last.message_id and \
                fact.kind == "question" and fact.status == "current":
            fact.kind = _kind(fact.ref_kind)
    return found


def _kind(ref_kind: str) -> FactKind:
    """The kind a value of the finder's kind is stated as (``provenance._kind``)."""
    if ref_kind in ("setting", "name"):
        return ref_kind  # type: ignore[return-value]
    if ref_kind == "address":
        return "name"
    return "number" if ref_kind in ("number", "date", "time") else "identifier"
