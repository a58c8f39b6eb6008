"""A lower-case value after a label's colon ("north bed: basil.", "log level: debug",
"favourite colour: teal"): the label opens its clause, the value ends it, and the label names
a thing, not a part of the message ("update: done", "edit: typo", "PS: ignore that").

Split from ``fact_values`` (full): its ``_statement_slot`` asks here for the ":" place.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_keys import phrase_before
from ollm_desktop.engine.fact_words import BOUNDARY, Tok, closed

# Labels of a message's parts, not of a thing.
_NO_LABELS = closed("update edit note ps p.s btw fyi q a question answer reminder tldr context "
                    "summary re subject warning caveat problem issue todo ok okay nb")


def participle(word: str) -> bool:
    """A passive or progressive verb form ("tagged", "shipped", "running"), lower-case: what
    happens to K, not a name for it."""
    return word.islower() and len(word) > 4 and word.endswith(("ed", "ing"))


def labelled_value(tokens: list[Tok], i: int, first: int) -> bool:
    """The word at ``i`` (its clause's last) is the value of the label before its colon."""
    phrase = phrase_before(tokens, i - 1, first)
    at = i - 2 - len(phrase)
    return bool(phrase) and phrase[0] not in _NO_LABELS and not participle(tokens[i].word) and (
        at < first or tokens[at].word in BOUNDARY)
