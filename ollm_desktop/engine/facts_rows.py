"""The facts panel's rows, decided in the engine so that what the panel lists and what a
benchmark reads are one decision (issue 28).

One row per key (what a value is a value of): its current value on top, the values it held
before beneath. The user's rows first, values adopted from the assistant next, the assistant's
suggestions last. ``shown_by_default`` is whether the panel lists the row with its
"Suggested by the assistant" filter off: the user's and adopted rows are, an assistant's
suggestion is not (it is not sent either), and neither is an open question (asked, supposed or
suggested, never stated: no fact, it replaces nothing) -- both stay one click away.
"""

from __future__ import annotations

from dataclasses import dataclass

from ollm_desktop.engine.fact_grammar import MANY
from ollm_desktop.engine.fact_key_match import family
from ollm_desktop.engine.fact_supersession import chain_ends
from ollm_desktop.engine.fact_types import SENTENCE_KINDS, Fact

USERS, ADOPTED, SUGGESTED = 0, 1, 2


@dataclass(frozen=True, slots=True)
class FactRow:
    """One key's row: ``fact`` on top (its current value), ``history`` oldest first."""

    fact: Fact
    history: tuple[Fact, ...]
    group: int  # USERS, ADOPTED or SUGGESTED
    shown_by_default: bool  # listed with the panel's suggestions filter off

    @property
    def status(self) -> str:
        return self.fact.status

    @property
    def value(self) -> str:
        return self.fact.value

    @property
    def subject(self) -> str:
        return self.fact.subject

    @property
    def source(self) -> str:
        return self.fact.source


def group_of(fact: Fact) -> int:
    """The user's (stated, typed, or edited by the user), adopted, or a suggestion."""
    if fact.source in ("user", "manual") or (fact.edited and not fact.confirmed):
        return USERS
    return ADOPTED if fact.users else SUGGESTED


def row_key(fact: Fact, ends: dict[str, Fact | None]) -> str:
    """Which row a fact is listed in: its replacement chain's end, merged by key where a key
    holds one value at a time (the API's port); a sentence, a note, an open question or a
    value of a list (files, links) is a row of its own, and so is each kind of value of one
    noun phrase ("46,500 documents" and the name "dedup" read off one sentence)."""
    head = ends[fact.id] or fact
    parts = head.key.split("|") if head.key.count("|") == 2 else []
    if not parts or not parts[1] or parts[2] in MANY or head.kind in SENTENCE_KINDS or \
            head.kind == "question" or head.status == "forgotten":
        return head.id
    return f"{head.key}|{family(head)}"  # a name never hides a count under its row


def fact_rows(facts: list[Fact]) -> tuple[FactRow, ...]:
    """The panel's rows of ``facts``: one per key, the user's first, adopted next, the
    assistant's suggestions last; within a group in the order stated."""
    ordered = sorted(facts, key=lambda f: f.sequence)
    ends = chain_ends({f.id: f for f in ordered})
    keyed: dict[str, list[Fact]] = {}
    for fact in ordered:
        keyed.setdefault(row_key(fact, ends), []).append(fact)
    out: list[FactRow] = []
    for group in keyed.values():
        live = [f for f in group if f.status == "current"]
        users = [f for f in live if f.users]
        top = (users or live or group)[-1]
        rank = group_of(top)
        out.append(FactRow(top, tuple(f for f in group if f is not top), rank,
                           rank != SUGGESTED and top.kind != "question" and _of_a_key(
                               top, any(f.replaced_by == top.id for f in group))))
    return tuple(sorted(out, key=lambda r: (r.group, r.fact.sequence)))


def _of_a_key(fact: Fact, replaced: bool) -> bool:
    """A value the user would write down: one of a key (what it is a value of), a sentence
    (a decision), an identifier, a value that replaced another, or one the user typed,
    edited or pinned. A plain name read with no noun phrase at all that replaced nothing
    ("the CLI paged them twice": what the chat is about, not a value of anything; "switch
    auth over to JWT") is kept behind the filter."""
    if fact.kind != "name" or fact.pinned or fact.edited or fact.source == "manual" or \
            replaced:
        return True
    parts = fact.key.split("|")
    return len(parts) != 3 or bool(parts[0] or parts[1])
