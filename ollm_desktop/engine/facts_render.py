"""The ledger as sent: one line per key, the user's entries first, within a token budget.

Split from ``facts`` (which keeps the entries and what replaced what): this module only reads
them. A value possibly replaced by a later value of the very same key is named on the later
value's line; replaced values stand beside their replacement, never as current.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ollm_desktop.engine.fact_label_keys import PLACE_NOUNS
from ollm_desktop.engine.fact_supersession import chain_ends
from ollm_desktop.engine.fact_types import SENTENCE_KINDS, Fact
from ollm_desktop.engine.facts import (
    HEADER,
    MAX_REPLACED_SHOWN,
    USER_SECTION,
    annotate,
    dispute_note,
    value_notes,
)


@dataclass(frozen=True, slots=True)
class Rendered:
    text: str
    shown: tuple[str, ...]  # ids of the current facts on a line
    left_out: tuple[str, ...]  # eligible facts that did not fit
    blocking_pins: tuple[str, ...]  # pinned facts alone exceed the budget


def _rank(fact: Fact) -> int:
    if fact.pinned:
        return 0
    if fact.source == "manual" or fact.edited:
        return 1
    return 2 if fact.users else 3


def possibly_note(by_id: dict[str, Fact], fact: Fact) -> str | None:
    """"possibly replaced by X (turn N)": a later value of a key that may be this one (the
    user's later value, even where a reply disputes it: the reply's claim is unconfirmed, and
    without the note the older value read as current beside it)."""
    later = by_id.get(fact.possibly_replaced_by or "")
    if fact.status != "current" or later is None or later.status != "current":
        return None
    return f"possibly replaced by {later.value} (turn {later.turn or 0})"


def _folded(by_id: dict[str, Fact], lines: Sequence[Fact]) -> dict[str, list[Fact]]:
    """Lines folded into a later one: a value possibly replaced by a later value of the very
    same key, both on a line (a restatement without a correction's shape), is named on the
    later value's line ("pilot study: avocet-anvil (possibly replaced halibut-orchard)")
    instead of a line of its own that repeats the key: one line per key, the older value kept
    and marked. Keys that are only possibly the same keep two lines. {later id: [older]}."""
    on_line = {f.id for f in lines}
    out: dict[str, list[Fact]] = {}
    for fact in lines:
        if fact.pinned or fact.source == "manual" or fact.edited:
            continue  # the user's own effort keeps its own line
        head, seen = fact, {fact.id}
        while True:
            later = by_id.get(head.possibly_replaced_by or "")
            if later is None or later.id in seen or later.id not in on_line or \
                    not later.key or later.key != fact.key or \
                    possibly_note(by_id, head) is None:
                break
            head = later
            seen.add(head.id)
        if head is not fact:
            out.setdefault(head.id, []).append(fact)
    return out


def _line(fact: Fact, replaced: Sequence[Fact], disputed: str | None = None,
          notes: dict[str, str | None] | None = None, possibly: str | None = None,
          earlier: Sequence[Fact] = ()) -> str:
    if fact.kind in SENTENCE_KINDS:
        body = annotate(fact.value, {v: n for v, n in (notes or {}).items()  # (not by itself)
                                     if n != f"replaced by {fact.value}"})
    else:
        named = set(fact.subject.split()) <= set(fact.value.lower().split())
        body = f"{fact.subject}: {fact.value}" if fact.subject and not named else fact.value
        head, _, rest = fact.value.partition(" ")
        label = fact.subject.lower().split()[-1:]
        if fact.subject and not named and rest and label == [head.lower()]:  # "view distance
            body = f"{fact.subject} {rest}"  # 12", not "view distance: distance 12"
        elif label and label[0] in PLACE_NOUNS and fact.value.isdecimal():
            body = f"{fact.subject} {fact.value}"  # "inbound dock 4": a place's number
    if fact.edited and fact.original and fact.original != fact.value:
        body += f" (the user corrected this; was {fact.original})"
    # the values this one possibly replaced first, beside it: a reply's note after them
    # ("...; unconfirmed") never parts the value from the older ones it is read with
    maybe = list(dict.fromkeys(e.value for e in earlier if e.value != fact.value))
    if maybe:
        body += f" (possibly replaced {', '.join(maybe[-MAX_REPLACED_SHOWN:])})"
    olds = list(dict.fromkeys(r.value for r in reversed(replaced) if r.kind not in SENTENCE_KINDS
                              and r.value not in (fact.value, fact.subject.upper())))  # (not
    # the setting's own name: "max_conn: 200", fact_setting_names); newest first
    olds = olds[:MAX_REPLACED_SHOWN][::-1]
    if olds:
        body += f" (replaced {', '.join(olds)})"
    if disputed is not None:
        body += f" ({disputed})"
    if possibly is not None:
        body += f" ({possibly})"
    lines = [f"- {body}"]
    lines += [f"  - earlier, now replaced: {r.value}"
              for r in replaced if r.kind in SENTENCE_KINDS][-MAX_REPLACED_SHOWN:]
    return "\n".join(lines)


def _olds_marked_elsewhere(olds: Sequence[Fact], compacted: set[str]) -> bool:
    """The line may leave its replaced values out: each was stated in a compacted message, so
    wherever the request still quotes it (a checkpoint, a kept quote) it carries its own
    "(replaced by X)" (``value_notes``); only a recent turn quotes it unmarked. Issue 28: the
    replaced value stands beside the current one where that helps the model, and at 2K the
    notes cost the lines of the user's oldest facts."""
    return bool(olds) and all(o.message_id is not None and o.message_id in compacted
                              for o in olds)


def render(facts: Sequence[Fact], *, compacted: set[str], quoted: set[str], budget: int,
           count: Callable[[str], int], notes: dict[str, str | None] | None = None,
           ) -> Rendered:
    """The ledger's text within ``budget`` tokens.

    Eligible: facts of ``compacted`` messages (no longer sent word for word in their place),
    typed, edited or pinned ones; a current fact whose message is ``quoted`` word for word is
    left to its quote unless it replaced something. A replaced fact is listed beside the fact
    that replaced it (that line is shown even while its own message is recent), with every
    other value that fact replaced; a sentence on a line has its replaced values marked
    (``notes``: ``value_notes(facts)``, which the region has worked out already). When the
    lines do not all fit, a line whose replaced values are marked wherever they are quoted
    drops them (``_olds_marked_elsewhere``) before any line is left out.
    """
    by_id = {f.id: f for f in facts}
    replaced: dict[str, list[Fact]] = {}  # every value each current fact replaced
    heads: set[str] = set()  # current facts that replaced a value no longer sent in place
    ends = chain_ends(by_id)
    for fact in facts:
        if fact.status == "replaced":
            head = ends[fact.id]
            if head is not None and head.status == "current":
                replaced.setdefault(head.id, []).append(fact)
                if fact.message_id in compacted or fact.message_id in quoted:
                    heads.add(head.id)
    lines: list[Fact] = []
    for fact in facts:  # the user's ledger: an assistant's value only once adopted
        if fact.status != "current" or not fact.users or fact.kind == "question":
            continue
        own = fact.source == "manual" or fact.pinned or fact.edited or (
            fact.message_id in compacted and fact.message_id not in quoted)
        if own or fact.id in heads:
            lines.append(fact)
    if not lines:
        return Rendered("", (), (), ())
    if notes is None:  # a sentence on a line marks the old values it holds
        notes = value_notes(facts)
    folded = _folded(by_id, lines)
    inside = {f.id for olds in folded.values() for f in olds}
    lines = [f for f in lines if f.id not in inside]
    for head_id, olds in folded.items():  # what a folded value replaced, the line says too
        replaced[head_id] = sorted([*replaced.get(head_id, []),
                                    *(r for o in olds for r in replaced.get(o.id, []))],
                                   key=lambda r: r.sequence)
    texts = {f.id: _line(f, replaced.get(f.id, []), dispute_note(by_id, f), notes,
                         possibly_note(by_id, f), folded.get(f.id, ())) for f in lines}
    costs = {fid: count(text) + 1 for fid, text in texts.items()}
    fixed = count(HEADER) + count(USER_SECTION) + 3
    if fixed + sum(costs.values()) > budget:  # short lines before any fact is left out
        for fact in lines:
            if _olds_marked_elsewhere(replaced.get(fact.id, []), compacted):
                texts[fact.id] = _line(fact, [], dispute_note(by_id, fact), notes,
                                       possibly_note(by_id, fact), folded.get(fact.id, ()))
                costs[fact.id] = count(texts[fact.id]) + 1
    pins = [f for f in lines if f.pinned]
    blocking = tuple(f.id for f in pins) if fixed + sum(costs[f.id] for f in pins) > budget \
        else ()
    chosen: set[str] = set()
    used = fixed
    for fact in sorted(lines, key=lambda f: (_rank(f), -f.sequence)):
        if fact.pinned or used + costs[fact.id] <= budget:
            chosen.add(fact.id)
            used += costs[fact.id]
    body = [HEADER, USER_SECTION, *(texts[f.id] for f in lines if f.id in chosen)]
    text = "\n".join(body) if chosen else ""
    left = tuple(f.id for f in lines if f.id not in chosen)
    left += tuple(o.id for f in lines if f.id not in chosen for o in folded.get(f.id, ()))
    shown = tuple(i for f in lines if f.id in chosen
                  for i in (f.id, *(o.id for o in folded.get(f.id, ()))))
    return Rendered(text, shown, left, blocking)
