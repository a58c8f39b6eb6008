"""``ollm-recall``: our engine with recall on every send, as the app does it.

The app indexes every round of the chat in SQLite's FTS5 and, at each send, asks it for the
rounds the new message is about (``session.recall``); the engine puts the best ones inside the
newest user turn, within the room the request leaves (``ContextEngine.recall_request``). Here
the index is the app's own ``RecallIndex`` on an in-memory database, fed as the chat is played.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from bench.memory.host import Summarizer
from bench.memory.strategies import Ollm


class OllmRecall(Ollm):
    name = "ollm-recall"

    def __init__(self, system_prompt: str, num_ctx: int, summarizer: Summarizer | None) -> None:
        from ollm_desktop.storage.recall_index import RecallIndex

        super().__init__(system_prompt, num_ctx, summarizer)
        self.name = "ollm-recall"
        self.index = RecallIndex(sqlite3.connect(":memory:"), chat_id="bench")
        self.pending: tuple[str, str] | None = None  # the user message of the open round
        self.last_text = ""
        self.recalled = 0  # sends that recalled something (most should not)
        self.sends = 0

    def add(self, role: str, content: str, *, fact_bearing: bool, user_pinned: bool) -> None:
        super().add(role, content, fact_bearing=fact_bearing, user_pinned=user_pinned)
        if role == "user":
            self.pending = (self.last_id, content)
            self.last_text = content
        elif self.pending is not None:  # the round is complete: index it
            user_id, user = self.pending
            self.index.add_round(user, content, message_ids=(user_id, self.last_id))
            self.pending = None

    def take_back(self) -> None:
        super().take_back()
        self.pending = None

    def snapshot(self) -> Any:
        return (super().snapshot(), self.pending, self.last_text)

    def restore(self, snapshot: Any) -> None:
        base, self.pending, self.last_text = snapshot
        super().restore(base)

    def send_messages(self) -> list[dict[str, str]]:
        """The request a send carries: with what it recalls."""
        messages, found = self.engine.recall_request(self.index, self.last_text)
        self.sends += 1
        self.recalled += bool(found.rounds)
        return [dict(m) for m in messages]

    def question_messages(self) -> list[dict[str, str]]:
        messages, _ = self.engine.recall_request(self.index, self.last_text)
        return [dict(m) for m in messages]

    def stats(self) -> dict[str, Any]:
        return {"sends": self.sends, "recalled": self.recalled,
                "recalled_share": self.recalled / self.sends if self.sends else None}
