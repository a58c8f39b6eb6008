"""A realistic conversation for the documentation's screenshots (no filler words).

The user's messages and the assistant's replies come from the memory benchmark's seeded
coding-project conversation (bench.memory.generator): real sentences with file paths,
versions, decisions and corrections. Summary requests are answered with a structured
checkpoint built from the sentences of the messages the engine sent, within its token target,
as a decent small model would write it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bench.memory.generator import Conversation, generate
from ollm_desktop.engine.tokens import truncate_to_tokens
from tests.controller_harness import is_summary_request
from tests.engine_fakes import prompt_target

_MESSAGE = re.compile(r"<(user|assistant)[^>]*>(.*?)</\1>", re.DOTALL)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_FACTUAL = re.compile(r"\d|/|`|v\d|#|call|decid|chose|instead", re.IGNORECASE)


def conversation(turns: int = 60, seed: int = 1) -> Conversation:
    return generate("coding", turns, seed, "short")


def _summary(body: dict[str, Any]) -> str:
    prompt = str(body["messages"][-1].get("content", ""))
    target = prompt_target(body["messages"])
    sentences = [s.strip() for _role, text in _MESSAGE.findall(prompt)
                 for s in _SENTENCE.split(text) if s.strip()]
    facts = [s for s in sentences if _FACTUAL.search(s)] or sentences
    topic = sentences[0] if sentences else "Debugging the importer before the release."
    text = ("## Context\n" + topic + "\n## Key Information\n"
            + "\n".join(f"- {s}" for s in facts[:12])
            + "\n## Next Steps\n- Reproduce the failure with a test, then fix it.")
    return truncate_to_tokens(text, max(24, int(target * 0.8)))


def realistic_model(chat: Conversation) -> Callable[[dict[str, Any]], str]:
    """A reply function for ``FakeOllama.reply_fn``: the scripted reply to each user turn."""
    replies = {turn.user.strip(): turn.assistant for turn in chat.turns}

    def answer(body: dict[str, Any]) -> str:
        if is_summary_request(body):
            return _summary(body)
        users = [m for m in body.get("messages", []) if m.get("role") == "user"]
        last = str(users[-1].get("content", "")).strip() if users else ""
        return replies.get(last, "Let us reproduce it with a failing test first, then decide.")

    return answer
