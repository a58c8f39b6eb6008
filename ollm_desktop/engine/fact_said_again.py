"""An earlier value a plain restatement says again as it stands: it holds, it is never what
the restatement replaces.

"The primer stock is in box 14 in freezer B" then "Primer stock is in box 17 freezer B.":
both values had one key (the primer stock's), so the new "box 17" took "freezer B" back with
"box 14", though the message says "freezer B" again. The mechanism is the ledger's state and
the message's text, never its words: a current value (of any key), stated in an
earlier message, that the message states again whole (case aside) and names as no old value
(no "from X", "not X", "instead of X", "X to …", "X →", "was X", "X no longer") stays current
beside the new one ("moved the meeting from room 4 to room 6" still replaces room 4), where
the earlier message stated it beside a value of the new one's key that is not said again (the
sibling the new value replaces, current or replaced by it already: a compaction reads the
chat again), or the new value is the letter that labels it ("B" of "freezer B"). Split
from ``facts`` (full): ``facts.absorb`` passes these as ``live`` to ``restated``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ollm_desktop.engine.fact_types import SENTENCE_KINDS, Fact
from ollm_desktop.engine.provenance import Found
from ollm_desktop.engine.references import locate

# Words before a value that name it as the old one, and words after it that do.
_OLD_BEFORE = re.compile(r"(?:\bfrom|\bnot|\binstead of|\brather than|\bwas|\bwere|\bold|"
                         r"\bno longer|\bn't|\bno more|\bexcept|\breplac\w*|\bswap\w*|\boff|"
                         r"\bout of|\baway from|\bleft|\bleav\w+|\bquit|\bditch\w*|\bdrop\w*|"
                         r"\bcancel\w*|\bdump\w*|\bmov\w+|\bswitch\w*|\bchang\w*|\bover)"
                         r"\s+(?:the\s+|a\s+|an\s+)?$", re.IGNORECASE)
_OLD_AFTER = re.compile(r"^\s*(?:to\b|->|=>|→|is\s+(?:gone|out|old|wrong|full|closed)|was\b|"
                        r"no\s+longer|isn't|is\s+not|anymore|any\s+more|became|becomes)",
                        re.IGNORECASE)


def _lettered(old: str, new: str) -> bool:
    """``new`` is the letter that labels the noun of ``old`` ("B" of "freezer B"): the one
    thing named twice, read once with its noun and once without it."""
    words = old.split()
    return len(new) == 1 and new.isalpha() and len(words) == 2 and words[0].isalpha() and \
        words[1].lower() == new.lower()


def said_again(facts: Sequence[Fact], new: Fact, content: str, message_id: str) -> set[str]:
    """The ids of the current values of ``new``'s key that ``content`` states again as they
    stand (the module's docstring)."""
    if not new.key or new.kind in SENTENCE_KINDS or new.kind == "question":
        return set()
    text = content.lower()
    out: set[str] = set()
    for old in facts:
        if old is new or old.status != "current" or \
                old.message_id == message_id or old.kind in SENTENCE_KINDS or \
                len(old.value) < 3 or old.value.lower() == new.value.lower():
            continue
        value = old.value.lower()
        at = locate(value, text)
        if at < 0 or locate(value, text[at + len(value):]) >= 0:  # said once, as it stands
            continue
        if _OLD_BEFORE.search(text[:at]) or _OLD_AFTER.match(text[at + len(value):]):
            continue
        if not _lettered(old.value, new.value) and not any(
                f is not old and f.message_id == old.message_id and f.key == new.key and
                (f.status == "current" or f.replaced_by == new.id) and f.kind == new.kind and
                locate(f.value.lower(), text) < 0 for f in facts):
            continue  # (its sibling, the value the new one replaces, is not said again)
        out.add(old.id)
    return out


def live_beside(made: Sequence[tuple[Found, Fact]], item: Found, new: Fact,
                facts: Sequence[Fact], content: str, message_id: str) -> set[str]:
    """What a plain restatement (``item``, read as ``new``) leaves standing: an earlier value
    its sentence maps to the new one ("map port 5000 to 2000", no change: both hold), and
    the values ``said_again``."""
    return {f.id for i, f in made if i.sentence == item.sentence and f is not new
            and f.message_id != message_id and f"{f.value} to {new.value}" in content
            } | said_again(facts, new, content, message_id)
