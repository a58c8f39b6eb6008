"""Recall: earlier rounds of the chat that the new message asks about, brought back word for word.

The engine asks a ``RecallSource`` (the session's full-text index over the store, or the
benchmark's own) for the rounds that match the new user message, and puts the best ones inside
that message as sent, after the user's own text, quoted as earlier conversation that was
already answered, each with its turn number. Only the room the request leaves under the usable
budget is used: recall never causes a compaction and never pushes a request over it. A round
that does not fit whole goes as its matching sentences. Recalled text is never stored and never
carried into later requests; replaced values in it are annotated with the current value, edited
ones with the user's edit, forgotten ones masked (``facts.annotate``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ollm_desktop.engine import fact_patterns
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.facts import Correction, annotate, mark_corrected, quantity_forms
from ollm_desktop.engine.facts_render import possibly_note

INTRO = ("(Recalled from earlier in this conversation, already answered; use it only if it "
         "helps with the message above:)")
MIN_ROOM = 24  # tokens: below this nothing is recalled
_WORD = re.compile(r"[\w.-]+", re.UNICODE)
_VALUE = re.compile(r"\d|\w[_/.]\w|\w[a-z][A-Z]")  # a number, a path or name of code


@dataclass(frozen=True, slots=True)
class RecalledRound:
    """One round (a user message and its reply) found for a query."""

    message_ids: tuple[str, ...]  # the user message, then its reply (if any)
    turn: int  # 1-based exchange number in the chat
    user: str  # the user's text of the round
    reply: str  # the assistant's text of the round ("" if none)
    score: float  # the source's relevance (higher is better); only rounds above its threshold


class RecallSource(Protocol):
    """Search rounds of one chat for a text; ``exclude``: message ids the request already
    holds word for word (their rounds are skipped)."""

    def search(self, text: str, *, exclude: set[str], limit: int) -> Sequence[RecalledRound]:
        ...


@dataclass
class Recalled:
    """What a send recalled: for the reply's row ("Recalled 2 earlier messages")."""

    rounds: list[RecalledRound] = field(default_factory=list)
    partial: list[bool] = field(default_factory=list)  # sent as matching sentences only
    text: str = ""  # exactly what was appended to the user's message
    tokens: int = 0


def quoted_notes(facts: Sequence[Fact], notes: dict[str, str | None]) -> dict[str, str | None]:
    """What recall marks in the rounds it quotes: the ledger's notes (replaced, edited,
    forgotten values) and, for a value a later value of a key that may be the same one
    possibly replaced, that later value ("web-prd-01 (possibly replaced by web-prd-02 (turn
    81))"), as the ledger's own line says, for the values the ledger sends (the user's): a
    quote is never exempt, and an old round recalled beside the question would state the
    older value as current (the request's kept turns keep their place in the chat, so they
    are left as they are). A reply's invented value is not marked: its "possibly replaced"
    guesses are the grammar's, across the replies' inventions, and only noise in a quote.
    A quantity is marked in either of the forms people write it in (``quantity_forms``: the
    ledger's "48 hours" in the quote's "a 48-hour window"), unless that form is itself a
    current value."""
    by_id = {f.id: f for f in facts}
    found = dict(notes)
    for fact in facts:
        if fact.possibly_replaced_by and fact.users and len(fact.value) >= 2 \
                and fact.value not in found:
            note = possibly_note(by_id, fact)
            if note is not None:
                found[fact.value] = note
    live = {f.value for f in facts if f.status == "current"}
    for value, note in list(found.items()):
        for form in quantity_forms(value):
            if form not in live:
                found.setdefault(form, note)
    return found


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip()]


def _matching(text: str, query: str) -> list[str]:
    """The sentences of ``text`` that share a word (3+ letters) with ``query``."""
    wanted = _words(query)
    return [s for s in _sentences(text) if wanted & _words(s)]


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if len(w) >= 3}


def _weight(word: str) -> int:
    """An identifier (a digit, ``_``, ``.``, ``/`` or ``-`` in it: a path, a constant, a
    version) says more about what is asked than a plain word."""
    return 2 if any(not c.isalpha() for c in word) else 1


def _weighed(piece: str, query: str) -> int:
    """How much of the query a sentence states (identifiers weigh double): when room is
    short, the line that names the asked value with its subject goes before a line that only
    shares a word."""
    return sum(_weight(w) for w in _words(query) & _words(piece))


def _content_words(text: str) -> frozenset[str]:
    return frozenset(w.lower() for w in fact_patterns.WORD.findall(text)
                     if len(w) > 2 and w.lower() not in fact_patterns.STOP)


def _block(round_: RecalledRound, user: str, reply: str) -> str:
    lines = [f"[Turn {round_.turn}] User: {user}"]
    if reply:
        lines.append(f"[Turn {round_.turn}] Assistant: {reply}")
    return "\n".join(lines)


def _pieces(turn: int, chosen: list[str], found: list[str], count: Callable[[str], int],
            ) -> tuple[str, int]:
    """The chosen sentences in the order the round has them, and their cost."""
    kept = [piece for piece in found if piece in chosen]
    text = f"[Turn {turn}] " + " … ".join(kept)
    return text, count(text) + 2


def compose(rounds: Sequence[RecalledRound], query: str, *, room: int,
            count: Callable[[str], int], notes: dict[str, str | None],
            later: Sequence[Correction] = ()) -> Recalled:
    """The recalled text for ``rounds`` (best first) within ``room`` tokens; ``later``: the
    corrections stated as sentences, marked beside what they correct."""
    result = Recalled()
    if room < MIN_ROOM or not rounds:
        return result
    used = count(INTRO) + 4
    blocks: list[str] = []
    wanted = _content_words(query)

    def rank(piece: str) -> tuple[int, bool, int, int]:
        """First the sentences that share two or more of the query's words and state a value
        (what a question asks back), then by the words they share."""
        shared = len(_content_words(piece) & wanted)
        return (-min(shared, 2), _VALUE.search(piece) is None, -_weighed(piece, query),
                -shared)

    for left, round_ in enumerate(rounds):
        user = mark_corrected(annotate(round_.user, notes), later, round_.turn)
        reply = mark_corrected(annotate(round_.reply, notes), later, round_.turn)
        whole = _block(round_, user, reply)
        cost = count(whole) + 2
        partial = False
        # A round goes whole only within its share of the room left (the rounds after it
        # get theirs): in a tight room each round's matching sentences, not the first
        # round whole and nothing of the rest (the answer is often the second's).
        share = (room - used) // (len(rounds) - left) if left < len(rounds) - 1 \
            else room - used
        if cost > share:
            found = _matching(user, query) + _matching(reply, query)
            if not found:
                continue
            pieces = sorted(found, key=rank)
            whole, cost = _pieces(round_.turn, pieces, found, count)
            partial = True
            while cost > share and len(pieces) > 1:
                pieces.pop()
                whole, cost = _pieces(round_.turn, pieces, found, count)
            if used + cost > room:
                continue
        blocks.append(whole)
        result.rounds.append(round_)
        result.partial.append(partial)
        used += cost
    if blocks:
        result.text = "\n\n" + INTRO + "\n" + "\n\n".join(blocks)
        result.tokens = used
    return result
