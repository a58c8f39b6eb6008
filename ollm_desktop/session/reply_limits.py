"""A reply cut at its length limit is not finished: it is marked so, and may be continued.

Ollama ends such a reply with ``done_reason: "length"``; a server that does not say so still
stops at ``num_predict``, so a reply whose token count reached the chat's limit counts too.
"""

from __future__ import annotations

from ollm_desktop.backend import ChatDone
from ollm_desktop.engine import Message
from ollm_desktop.engine.models import ReplyStats


def reply_stats(done: ChatDone, limit: int | None) -> ReplyStats:
    """The figures stored with the reply, with ``cut_off`` when it stopped at its limit."""
    stats = done.reply_stats()
    reached = limit is not None and done.eval_count is not None and done.eval_count >= limit
    if done.done_reason == "length" or reached:
        return stats.model_copy(update={"cut_off": True})
    return stats


def unfinished(message: Message) -> bool:
    """A reply Continue may finish: stopped (or cut by a crash), or cut at its length limit."""
    return message.role == "assistant" and (message.partial or message.cut_off)
