"""Issue 28's first measure of false supersessions, kept beside the corrected one
(``precision.false_supersessions``) so that one run shows both counts; drop it once the
landed figures are restated with the new measure.

It differed in two ways: the ground truth ordered a question's statements by the correcting
fact's turn only (the user's 20456, 10291, 36581 of one port, corrected by replies later, left
20456 current), and any current value shown only inside another entry's notes counted, a
reply's unconfirmed claim on the user's own key too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bench.memory.generator import Conversation
from bench.memory.ledger_text import Entry, current_text, mentioned
from bench.memory.precision import Truth, replaces
from bench.memory.retention import normalise


def truth_before(conversation: Conversation, turn: int, played: Sequence[tuple[str, str]],
             invented: Sequence[str]) -> Truth:
    """Ground truth after exchange ``turn`` (0-based): ``played`` is the chat as played.

    A reply that corrects or restates the user's value with another one leaves the user's value
    current (``replaces``): the engine shows it with the reply's claim beside it, and the
    reply's value is an assistant fact (never sent until adopted)."""
    out = Truth(invented=sorted(set(invented)))
    # Two facts may share a question (the gateway moves twice): the later one replaces the
    # earlier one's answer, as the same key, when it has the authority to.
    stated = [f for f in conversation.facts if f.turn <= turn]
    for fact in stated:
        replaced = any(other.question == fact.question and other.turn > fact.turn
                       and replaces(other.speaker, fact.speaker) for other in stated)
        if replaced:
            out.stale += [v for v in (fact.answer, fact.stale) if v]
            later = [o.answer for o in stated if o.question == fact.question
                     and o.turn > fact.turn]
            for value in (fact.answer, fact.stale):
                if value:
                    out.replacements.setdefault(value, []).extend(later)
            continue
        (out.user if fact.speaker == "user" else out.assistant).append(fact.answer)
        if fact.stale is not None and fact.stale_turn is not None:
            stale_speaker = fact.stale_speaker or "user"
            if replaces(fact.speaker, stale_speaker):
                out.stale.append(fact.stale)  # (a stale value planted earlier)
                out.replacements.setdefault(fact.stale, []).append(fact.answer)
            else:  # a reply's correction of the user's value: the user's stands
                out.user.append(fact.stale)
        if fact.type == "decision" and fact.speaker == "user":
            out.user_decisions.append(fact.answer)
    for fact in conversation.facts:
        if fact.decoys and max(fact.also_turns, default=fact.turn) <= turn:
            out.decoys += fact.decoys
        if fact.turn > turn and fact.stale is not None and fact.stale_turn is not None \
                and fact.stale_turn <= turn:
            speaker = fact.stale_speaker or "user"
            (out.user if speaker == "user" else out.assistant).append(fact.stale)
    out.user_text = normalise("\n".join(t for r, t in played if r == "user"))
    out.assistant_text = normalise("\n".join(t for r, t in played if r == "assistant"))
    return out


def false_supersessions_before(entries: Sequence[Entry], panel: Sequence[dict[str, Any]],
                        truth: Truth) -> list[str]:
    """Current planted values shown only as replaced (request), or replaced in the panel
    while no shown row has them."""
    out = []
    for value in (*truth.user, *truth.assistant):
        in_ledger = [e for e in entries if mentioned(" ".join((e.text, *e.notes)), value)]
        ledger_replaced = bool(in_ledger) and not any(current_text(e.text, value)
                                                      for e in in_ledger)
        panel_replaced = any(not r["shown"] and r["status"] == "replaced"
                             and mentioned(r["text"], value) for r in panel) and \
            not any(r["shown"] and mentioned(r["text"], value) for r in panel)
        if ledger_replaced or panel_replaced:
            out.append(value)
    return out
