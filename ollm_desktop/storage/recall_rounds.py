"""Recall's rounds made from a chat's stored messages: a user message and its reply, a tool's
result with its call (tool name and arguments) in front of it, so that a question naming the
tool, the file or the query finds a result whose text never says them. Split from
``recall_index`` (which writes and searches them)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass

from ollm_desktop.storage.recall_terms import round_keys

TEXT_LIMIT = 32_000  # characters of a message that recall reads (its words and fact keys)
_EXCLUDED = "CASE WHEN json_valid(meta) THEN json_extract(meta, '$.recall.excluded') END"


def chat_token(chat_id: str) -> str:
    """Digits only: the porter stemmer leaves them as they are."""
    return str(int(hashlib.sha1(chat_id.encode()).hexdigest()[:15], 16))



@dataclass(slots=True)
class _Message:
    rowid: int
    id: str
    role: str
    content: str
    excluded: bool
    calls: str | None = None  # an assistant message's tool calls (JSON, from its meta)
    call_id: str | None = None  # a tool result's call


@dataclass(slots=True)
class Round:
    anchor: int  # rowid of its first message
    user: _Message | None
    reply: _Message | None

    def texts(self) -> tuple[str, str]:
        """What is indexed of the round: each message's first ``TEXT_LIMIT`` characters (a
        reply of one 500 KB line is indexed in milliseconds, not a second per save)."""
        return (self.user.content[:TEXT_LIMIT] if self.user else "",
                self.reply.content[:TEXT_LIMIT] if self.reply else "")

    def row(self, chat_id: str) -> tuple:
        texts = self.texts()
        return (self.anchor, *texts, round_keys("\n".join(texts)), chat_token(chat_id))


_META = "CASE WHEN json_valid(meta) THEN json_extract(meta, '$.{0}') END"
READ_MESSAGES = (f"SELECT rowid, id, role, content, {_EXCLUDED}, {_META.format('tool_calls')}, "
                 f"{_META.format('tool_call_id')} FROM messages")


def message_of_row(row: tuple) -> _Message:
    return _Message(row[0], row[1], row[2], row[3], bool(row[4]),
                    row[5] if isinstance(row[5], str) else None, row[6])


def _calls(message: _Message) -> dict[str, str]:
    """An assistant message's calls by id, each as ``name({arguments})``."""
    try:
        rows = json.loads(message.calls or "[]")
    except ValueError:
        return {}
    return {str(row.get("id")): f"{row.get('name')}("
            f"{json.dumps(row.get('arguments') or {}, sort_keys=True, ensure_ascii=False)})"
            for row in rows if isinstance(row, dict) and row.get("id")}


def with_call(message: _Message, called: dict[str, str]) -> _Message:
    """A tool's result as indexed: its call (tool name and arguments) first, so a question
    that names the tool, the file or the query finds the result even when its text never
    says them."""
    call = called.get(message.call_id or "")
    if call is None:
        return message
    return _Message(message.rowid, message.id, message.role, f"{call}\n{message.content}",
                    message.excluded, None, message.call_id)


def rounds_of(messages: Iterable[_Message]) -> list[Round]:
    rounds: list[Round] = []
    previous: _Message | None = None
    called: dict[str, str] = {}
    for message in messages:
        if message.calls:
            called.update(_calls(message))
        if message.role == "tool":
            message = with_call(message, called)
        if message.role == "user":
            rounds.append(Round(message.rowid, message, None))
        elif message.role == "tool":  # a tool's whole result: recall finds what was pruned
            last = rounds[-1] if rounds else None
            if last is not None and last.reply is previous and previous is not None \
                    and previous.role == "assistant" and not previous.content.strip():
                last.reply = message  # the request's answer in place of its bare call
            else:
                rounds.append(Round(message.rowid, None, message))
        elif message.role == "assistant":
            last = rounds[-1] if rounds else None
            if last is not None and previous is not None and last.user is previous:
                last.reply = message
            else:
                rounds.append(Round(message.rowid, None, message))
        previous = message
    return [r for r in rounds if not any(m.excluded for m in (r.user, r.reply) if m)]


