"""What a request knows: rows per fact at a probe point, per question, and whose identifiers.

Shared by the in-process runner and ``--app``: both hand in the request (the list of messages
the client sends) and get plain rows, so the report reads one shape.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bench.memory.generator import Conversation, Fact
from bench.memory.precision import replaces
from bench.memory.retention import bucket, normalise, retained, stale_as_current
from bench.memory.tokens import cl100k_messages

FORMS = ("direct", "paraphrase")


def facts_known(conversation: Conversation, turn: int) -> list[Fact]:
    """Facts whose (latest) statement has been made by the end of ``turn`` and that no later
    fact of the same key (the same question) has replaced by then: after "Let's call the
    staging server turbot from now on", "halibut" is no longer a fact to keep but a replaced
    value. The precision measure's truth (``precision.truth_at``) reads the generator so; the
    retention rows expected both values, which only a ledger that kept the old one beside the
    new ("turbot (replaced halibut)") could satisfy."""
    stated = [f for f in conversation.facts if f.turn <= turn]
    return [f for f in stated if not any(
        later.question == f.question and later.turn > f.turn
        and normalise(later.answer) != normalise(f.answer)
        and replaces(later.speaker, f.speaker) for later in stated)]


def fact_row(fact: Fact, messages: Sequence[dict[str, str]], turn: int, *,
             recall_from: int | None = None) -> dict[str, Any]:
    depth = turn - fact.turn
    return {"id": fact.id, "type": fact.type, "speaker": fact.speaker, "depth": depth,
            "bucket": bucket(depth),
            "retained": retained(messages, fact.answer, fact.stale, recall_from=recall_from),
            "stale_current": fact.stale is not None and stale_as_current(
                messages, fact.answer, fact.stale, recall_from=recall_from)}


def probe(conversation: Conversation, messages: list[dict[str, str]], turn: int,
          ) -> dict[str, Any]:
    """End-of-turn retention: every known fact against the request the client would send."""
    return {"turn": turn, "request_tokens": cl100k_messages(messages),
            "messages": len(messages),
            "facts": [fact_row(f, messages, turn) for f in facts_known(conversation, turn)]}


def question_text(fact: Fact, form: str) -> str:
    return fact.question if form == "direct" else fact.paraphrase


def question_row(fact: Fact, form: str, messages: Sequence[dict[str, str]], turn: int,
                 ) -> dict[str, Any]:
    """A question's row: is the answer in the very request that carries the question?

    Everything after the question in the newest user turn (recalled text) gets no
    "kept in place" exemption.
    """
    last = len(messages) - 1
    recall_from = last if messages and messages[-1].get("role") == "user" else None
    row = fact_row(fact, messages, turn, recall_from=recall_from)
    row["form"] = form
    row["asked"] = True
    return row


def unasked_row(fact: Fact, form: str, turn: int) -> dict[str, Any]:
    depth = turn - fact.turn
    return {"id": fact.id, "type": fact.type, "speaker": fact.speaker, "depth": depth,
            "bucket": bucket(depth), "form": form, "asked": False, "retained": False,
            "stale_current": False}


async def question_rows(conversation: Conversation, turn: int,
                        ask: Callable[[str, Fact, str], Awaitable[Sequence[dict[str, str]] | None]],
                        ) -> list[dict[str, Any]]:
    """Question-time retention: every fact known at ``turn`` asked in every form; ``ask``
    (question text, fact, form) returns the request that carried it, None when none did."""
    rows = []
    for fact in facts_known(conversation, turn):
        for form in FORMS:
            request = await ask(question_text(fact, form), fact, form)
            rows.append(unasked_row(fact, form, turn) if request is None
                        else question_row(fact, form, request, turn))
    return rows


def answer_row(fact: Fact, said: str | None, turn: int) -> dict[str, Any]:
    """A model's answer to a fact's question (None: not asked), correct when the normalised
    answer occurs in it."""
    return {"id": fact.id, "type": fact.type, "speaker": fact.speaker,
            "bucket": bucket(turn - fact.turn), "asked": said is not None,
            "correct": said is not None and normalise(fact.answer) in normalise(said)}


def identifier_provenance(messages: Sequence[dict[str, str]],
                          turns: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """Whose identifiers fill the request: stated by the user, or only used by the assistant.

    An identifier of the request (the engine's own finder) is the user's when it occurs in a
    user turn of the chat as played, assistant-only when it occurs only in replies, other
    (the engine's or the system prompt's wording) otherwise.
    """
    from ollm_desktop.engine.references import find_references

    users = normalise("\n".join(text for role, text in turns if role == "user"))
    replies = normalise("\n".join(text for role, text in turns if role == "assistant"))
    text = "\n".join(str(m.get("content", "")) for m in messages)
    counts = {"user": 0, "assistant_only": 0, "other": 0}
    for ref, _ in find_references(text):
        value = normalise(ref.rstrip("()"))
        if len(value) < 3:
            continue
        if value in users:
            counts["user"] += 1
        elif value in replies:
            counts["assistant_only"] += 1
        else:
            counts["other"] += 1
    mine = counts["user"] + counts["assistant_only"]
    return {**counts, "user_share": counts["user"] / mine if mine else None}
