"""A short sentence that only says a thing was moved in time, as a correction's lead.

"band postponed. 2025-09-13, tickets still valid", "surgery got moved. 17 March.",
"Flight delayed! 7:25 now": the first sentence holds no value and says only that something
was postponed, rescheduled, moved or delayed; the value of the next sentence is its new
time, as after "Scratch that." (``fact_grammar.lead_only``, which asks this; the sentence is
a lead and no note). Up to six words, the participle its last word (or "back" / "forward"
after "pushed" / "brought"), no question, no condition, no wish; a separate module:
fact_grammar is full.
"""

from __future__ import annotations

from ollm_desktop.engine.fact_words import BOUNDARY, Tok, closed

_MOVED = closed("postponed rescheduled moved delayed rebooked rearranged")
_PHRASAL = {"back": closed("pushed put moved"), "forward": closed("brought moved pulled")}
_MAX_WORDS = 6
# Words that make the sentence no statement of a change made: a condition, a question's
# auxiliary, a wish, a negation, a future.
_NOT_MADE = closed("if maybe might may could would should will can't cannot not never "
                   "did does do was were wants want hope wish unless")


def rescheduled_only(tokens: list[Tok]) -> bool:
    """The sentence's tokens are a short statement that something was moved in time."""
    if any(t.value is not None or t.word == "?" for t in tokens):
        return False
    words = [t.word for t in tokens if t.word not in BOUNDARY and t.word]
    if not words or len(words) > _MAX_WORDS or set(words) & _NOT_MADE:
        return False
    last = words[-1]
    return last in _MOVED or (len(words) > 1 and words[-2] in _PHRASAL.get(last, ()))
