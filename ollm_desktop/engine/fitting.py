"""Fitting a request into the usable budget: the system message in its layout order, and what
is left out (visibly) when even that does not fit.

Order of the system message (``assembly``): head (system prompt, instructions, goal), then the
compressed-history block: checkpoints, the turns kept word for word, the facts ledger, the
"left out" note. What goes first when over budget: the oldest recent exchange (never the last
one; pins stay), then replies after the last user message (never the newest message), then
earlier requests and orphans, then checkpoints (oldest first), then the ledger shrinks (to its
pinned facts at last: those stay), then the largest unpinned message is cut to its head and
tail.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ollm_desktop.engine import budget
from ollm_desktop.engine.images import image_tokens
from ollm_desktop.engine.models import Message
from ollm_desktop.engine.tokens import clip_middle

if TYPE_CHECKING:
    from ollm_desktop.engine.assembly import Assembler, Part, Region

Sent = tuple[Message, str, int]  # message, content as sent, tokens


class Fitting:
    def __init__(self, assembler: Assembler, region: Region, head: str, sent: list[Sent],
                 clipped: set[str]) -> None:
        self.assembler = assembler
        self.data = assembler.data
        self.region = region
        self.head = head
        self.sent = list(sent)
        self.clipped = set(clipped)
        self.checkpoints: list[Part] = list(region.checkpoints)
        self.kept: list[Part] = list(region.kept)
        self.dropped: list[str] = []
        self.ledger_budget = budget.ledger_budget(self.data.config)
        self.ledger = assembler.ledger(region, self.ledger_budget)
        self.text, self.total = self.measure("")
        self.raw_total = self.total

    def system_message(self, note: str) -> str:
        from ollm_desktop.engine.assembly import BLOCK_INTRO, SUMMARY_CLOSE, SUMMARY_OPEN

        block = ""
        if self.checkpoints or self.kept or self.ledger.text or note:
            # the quotes before the ledger: they change only at a compaction (or where one
            # holds a value just corrected), the ledger at each correction too
            body = [BLOCK_INTRO, *(p.text for p in self.checkpoints), *(p.text for p in self.kept)]
            if self.ledger.text:
                body.append(self.ledger.text)
            if note:
                body.append(note)
            block = f"{SUMMARY_OPEN}\n" + "\n\n".join(body) + f"\n{SUMMARY_CLOSE}"
        return "\n\n".join(p for p in (self.head, block) if p)

    def measure(self, note: str) -> tuple[str, int]:
        from ollm_desktop.engine.assembly import CONTINUE_STUB

        data, config = self.data, self.data.config
        text = self.system_message(note)
        system = data.count(text) + config.message_overhead if text else 0
        stub = data.message_tokens(CONTINUE_STUB) if self.sent and \
            self.sent[0][0].role == "assistant" else 0
        return text, config.request_overhead + data.tools_tokens + system + stub + \
            sum(t for _, _, t in self.sent)

    def fit(self) -> None:
        usable = budget.usable_tokens(self.data.config)
        while self.total > usable:
            if not self._leave_out_one():
                break  # only pins, the system prompt and the goal are left: over budget
            note = f"[{len(self.dropped)} earlier messages are left out to fit the context " \
                   "window; they stay in the chat history.]" if self.dropped else ""
            self.text, self.total = self.measure(note)

    def _leave_out_one(self) -> bool:
        sent, data = self.sent, self.data
        last_user = max((i for i, (m, _, _) in enumerate(sent) if m.role == "user"),
                        default=len(sent) - 1)
        index = next((i for i, (m, _, _) in enumerate(sent[:last_user]) if not m.pinned), None)
        if index is not None:  # the oldest recent exchange, whole
            self.dropped.append(sent[index][0].id)
            del sent[index]
            last_user -= 1
            while index < last_user and sent[index][0].role in ("assistant", "tool") \
                    and not sent[index][0].pinned:
                self.dropped.append(sent[index][0].id)
                del sent[index]
                last_user -= 1
            return True
        later = next((i for i in range(last_user + 1, len(sent) - 1) if not sent[i][0].pinned
                      and sent[i][0].role == "assistant" and self._group_end(i) < len(sent)),
                     None)
        if later is not None:  # replies after the last user message, never the newest; a
            end = self._group_end(later)  # reply's calls go with their results
            self.dropped.extend(m.id for m, _, _ in sent[later:end])
            del sent[later:end]
            return True
        part = next((p for p in self.kept if not p.pinned), None)
        if part is not None:  # earlier requests and orphans
            self.kept.remove(part)
            if part.message_id:
                self.dropped.append(part.message_id)
            return True
        if self.checkpoints:  # checkpoints, oldest first
            part = self.checkpoints.pop(0)
            group = next((g for g in data.groups if g.id == part.message_id), None)
            self.dropped.extend(group.message_ids if group else [])
            return True
        if self.ledger_budget and self.ledger.text:  # the ledger shrinks, to its pins at last
            # Rendered again, never emptied: pinned facts are never evicted (they are over
            # budget then, as pinned messages are), and its ``left_out`` is then every
            # unpinned fact, not what the previous rendering showed.
            self.ledger_budget = self.ledger_budget // 2 if self.ledger_budget > 16 else 0
            self.ledger = self.assembler.ledger(self.region, self.ledger_budget)
            return True
        return self._clip_largest()

    def _group_end(self, index: int) -> int:
        """Past the results that answer the calls of the reply at ``index`` (they are sent
        together or not at all: a result without its call is refused by OpenAI's API)."""
        end = index + 1
        if self.sent[index][0].tool_calls:
            while end < len(self.sent) and self.sent[end][0].role == "tool":
                end += 1
        return end

    def _clip_largest(self) -> bool:
        sent, data, config = self.sent, self.data, self.data.config
        largest = max((i for i in range(len(sent)) if not sent[i][0].pinned
                       and sent[i][0].id not in self.clipped),
                      key=lambda i: (sent[i][2], i), default=None)
        if largest is None:
            return False
        message, _, tokens = sent[largest]
        pictures = image_tokens(message)
        room = max(64, budget.usable_tokens(config) - (self.total - tokens)
                   - config.message_overhead - pictures - 8)
        content = clip_middle(message.content, int(room / config.estimate_scale))
        sent[largest] = (message, content, data.message_tokens(content) + pictures)
        self.clipped.add(message.id)
        return True
