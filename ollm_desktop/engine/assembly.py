"""Context assembly: exactly what is sent, and the fitting that keeps it within the budget.

Shape, chosen for small models: one system message first (system prompt, instructions added
during the chat, the goal block, then the compressed history: checkpoints, the user's earlier
requests quoted word for word, pinned messages of the compacted region, the reference ledger),
then the recent turns, alternating and starting with a user turn. Earlier requests are quoted
inside the system message, never sent as bare user turns: a small model handed seven old
questions in one turn answers them all again.

Hard limits: one unpinned message takes at most ``budget.message_cap`` (head and tail kept,
with a marker); the goal block at most ``budget.goal_cap``; the ledger its budget. If the
request still does not fit, the oldest recent exchanges, then earlier requests, then the
oldest checkpoints, then ledger entries are left out, with a note. Pins never are: when pins
alone do not fit, the assembly is marked over budget and ``blocking_pins`` names them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ollm_desktop.engine import budget, goals, ledger
from ollm_desktop.engine.conversation import Conversation
from ollm_desktop.engine.images import image_tokens, merged_entry, request_entry, text_with_images
from ollm_desktop.engine.models import CompressedGroup, Message
from ollm_desktop.engine.tokens import clip_middle

SUMMARY_OPEN = "<compressed_history_summary>"
SUMMARY_CLOSE = "</compressed_history_summary>"
BLOCK_INTRO = ("Earlier turns of this conversation were compressed into the notes below. They "
               "are background: do not answer the requests quoted here again; continue from "
               "the latest user message.")
CONTINUE_STUB = "(The conversation continues from the notes above.)"
MIN_CLIP = 64  # a message is never cut below this: its beginning, the marker and its end
PartKind = Literal["checkpoint", "request", "pin", "orphan"]


@dataclass(slots=True)
class Part:
    """One piece of the compressed-history block."""

    kind: PartKind
    text: str
    tokens: int
    message_id: str | None = None  # group id for checkpoints
    pinned: bool = False


@dataclass
class Region:
    """The compacted region (messages before ``boundary``), rebuilt only when it changes."""

    parts: list[Part]
    boundary: int
    instructions: list[str]  # system-role messages of the whole chat, in order
    owner: dict[str, int]  # message id -> index of the group whose span holds it
    replaced: set[str]  # summarised messages
    orphans: list[str]  # unpinned, unsummarised, not kept: folded by the next compaction


@dataclass
class Assembly:
    messages: list[dict[str, str]]
    total: int
    raw_total: int  # before anything was left out
    system: int = 0
    goal: int = 0
    goal_condensed: int = 0
    checkpoints: int = 0
    ledger: int = 0
    preserved: int = 0
    pinned: int = 0
    recent: int = 0  # unpinned recent tokens (as sent, clipped)
    recent_pinned: int = 0
    sent_ids: set[str] = field(default_factory=set)
    dropped_ids: set[str] = field(default_factory=set)
    clipped_ids: set[str] = field(default_factory=set)
    dropped_count: int = 0
    over_budget: bool = False
    blocking_pins: list[str] = field(default_factory=list)
    fitted: bool = False  # something was left out or cut: never append to it
    present: str = ""  # the request's text without the ledger (what the ledger need not repeat)


def quote(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in text.splitlines() or [""])


def checkpoint_text(group: CompressedGroup, number: int, total: int) -> str:
    label = f"Checkpoint {number} of {total}" if total > 1 else "Checkpoint"
    return f"[{label}, level {group.level}]\n{group.summary}"


def _tokens(data: Conversation, message_id: str, kind: str, text: str) -> int:
    key = (message_id, kind)
    cached = data.part_tokens.get(key)
    if cached is None:
        cached = data.part_tokens[key] = data.count(text) + 2
    return cached


def build_region(data: Conversation) -> Region:
    owner: dict[str, int] = {}
    boundary = 0
    replaced: set[str] = set()
    for g_index, group in enumerate(data.groups):
        replaced.update(group.message_ids)
        for mid in group.span_ids or group.message_ids:
            owner[mid] = g_index
            position = data.position(mid)
            if position is not None:
                boundary = max(boundary, position + 1)
    dropped = set(data.dropped)
    for mid in data.dropped:
        position = data.position(mid)
        if position is not None:
            boundary = max(boundary, position + 1)
    parts: list[Part] = []
    emitted: set[int] = set()
    orphans: list[str] = []
    total = len(data.groups)
    cap = budget.message_cap(data.config, 0) // 2  # a quoted earlier message
    for message in data.messages[:boundary]:
        owning = owner.get(message.id)
        if owning is not None and owning not in emitted:
            emitted.add(owning)
            text = checkpoint_text(data.groups[owning], owning + 1, total)
            parts.append(Part("checkpoint", text, data.count(text) + 2, data.groups[owning].id))
        if message.role == "system":
            continue
        if message.pinned:
            text = f"Pinned by the user ({message.role} message, word for word):\n" \
                   f"{quote(text_with_images(message))}"
            parts.append(Part("pin", text, _tokens(data, message.id, "pin", text), message.id,
                              True))
            continue
        if message.id in dropped or message.id in replaced:
            continue
        content = text_with_images(message)  # its images are no longer sent: their text is
        if message.tokens > cap:
            content = clip_middle(content, int(cap / data.config.estimate_scale))
        if message.role == "user" and data.config.preserve_user_messages:
            text = f"Earlier request from the user (word for word, already answered):\n" \
                   f"{quote(content)}"
            parts.append(Part("request", text, _tokens(data, message.id, "request", text),
                              message.id))
        else:
            orphans.append(message.id)
            text = f"Earlier {message.role} message (word for word):\n{quote(content)}"
            parts.append(Part("orphan", text, _tokens(data, message.id, "orphan", text),
                              message.id))
    for g_index, group in enumerate(data.groups):  # groups whose messages are unknown
        if g_index not in emitted:
            text = checkpoint_text(group, g_index + 1, total)
            parts.insert(0, Part("checkpoint", text, data.count(text) + 2, group.id))
    instructions = [m.content for m in data.messages if m.role == "system"]
    return Region(parts, boundary, instructions, owner, replaced, orphans)


class Assembler:
    """Builds the request from the conversation; the engine caches its result."""

    def __init__(self, data: Conversation) -> None:
        self.data = data

    # ------------------------------------------------------------ pieces
    def system_head(self, region: Region) -> tuple[str, int, int, int, int]:
        """(text, prompt tokens, goal tokens, condensed decisions, goal cap) of the head."""
        data = self.data
        head = [data.system_prompt.strip()] if data.system_prompt.strip() else []
        head += [f"Instruction added during the conversation:\n{text}"
                 for text in region.instructions if text.strip()]
        prompt_text = "\n\n".join(head)
        cap = budget.goal_cap(data.config)
        render = goals.render_goal_block_capped(data.goal, cap, data.count)
        text = "\n\n".join(p for p in (prompt_text, render.text) if p)
        prompt_tokens = data.count(prompt_text) if prompt_text else 0
        return text, prompt_tokens, render.tokens, render.condensed, cap

    def clip_cap(self, fixed: int) -> int:
        return budget.message_cap(self.data.config, fixed)

    # ------------------------------------------------------------ assemble
    def assemble(self, region: Region, *, keep_sequence: int | None) -> Assembly:
        data = self.data
        config = data.config
        usable = budget.usable_tokens(config)
        overhead = config.message_overhead
        head, prompt_tokens, goal_tokens, condensed, _ = self.system_head(region)
        cap = self.clip_cap(prompt_tokens + goal_tokens)

        recent: list[Message] = [m for m in data.messages[region.boundary:] if m.role != "system"]
        sent: list[tuple[Message, str, int]] = []  # message, content as sent, tokens
        clipped: set[str] = set()
        for message in recent:
            content, tokens = message.content, message.tokens
            if not message.pinned and tokens - overhead - image_tokens(message) > cap:
                content = clip_middle(message.content, max(32, int(cap / config.estimate_scale)))
                tokens = data.message_tokens(content) + image_tokens(message)
                clipped.add(message.id)
            sent.append((message, content, tokens))

        parts = list(region.parts)
        ledger_budget = budget.ledger_budget(config)
        present = "\n".join([head, *(p.text for p in parts), *(c for _, c, _ in sent)])
        ledger_text, _, _ = ledger.render(data.ledger, budget=ledger_budget, present=present,
                                          count=data.count, keep_sequence=keep_sequence)

        def system_message(parts: list[Part], ledger_text: str, note: str) -> str:
            block = ""
            if parts or ledger_text or note:
                body = [BLOCK_INTRO, *(p.text for p in parts)]
                if ledger_text:
                    body.append(ledger_text)
                if note:
                    body.append(note)
                block = f"{SUMMARY_OPEN}\n" + "\n\n".join(body) + f"\n{SUMMARY_CLOSE}"
            return "\n\n".join(p for p in (head, block) if p)

        def system_tokens(text: str) -> int:
            return data.count(text) + overhead if text else 0

        def measure(note: str) -> tuple[str, int]:
            text = system_message(parts, ledger_text, note)
            stub = data.message_tokens(CONTINUE_STUB) if sent and \
                sent[0][0].role == "assistant" else 0
            return text, (config.request_overhead + system_tokens(text) + stub
                          + sum(t for _, _, t in sent))

        text, total = measure("")
        raw_total = total
        dropped: list[str] = []
        shrink = ledger_budget
        last_user = max((i for i, (m, _, _) in enumerate(sent) if m.role == "user"),
                        default=len(sent) - 1)
        while total > usable:
            # 1. the oldest recent exchange (never the last one; pins stay), whole exchanges.
            index = next((i for i, (m, _, _) in enumerate(sent[:last_user]) if not m.pinned),
                         None)
            if index is not None:
                dropped.append(sent[index][0].id)
                del sent[index]
                last_user -= 1
                while index < last_user and sent[index][0].role == "assistant" \
                        and not sent[index][0].pinned:
                    dropped.append(sent[index][0].id)
                    del sent[index]
                    last_user -= 1
            # 1b. replies after the last user message, but never the newest message.
            elif (later := next((i for i in range(last_user + 1, len(sent) - 1)
                                 if not sent[i][0].pinned), None)) is not None:
                dropped.append(sent[later][0].id)
                del sent[later]
            # 2-3. earlier requests and orphans, then checkpoints (oldest first).
            elif part := next((p for kind in ("request", "orphan", "checkpoint")
                               for p in parts if p.kind == kind), None):
                parts.remove(part)
                if part.kind == "checkpoint":
                    group = next((g for g in data.groups if g.id == part.message_id), None)
                    dropped.extend(group.message_ids if group else [])
                elif part.message_id:
                    dropped.append(part.message_id)
            # 4. the ledger shrinks, newest entries last to go.
            elif ledger_text:
                shrink = shrink // 2 if shrink > 16 else 0
                ledger_text = ledger.render(data.ledger, budget=shrink, present=present,
                                            count=data.count)[0] if shrink else ""
            # 5. the largest unpinned message left (the newest one among them), head and tail.
            elif (largest := max((i for i in range(len(sent)) if not sent[i][0].pinned
                                  and sent[i][0].id not in clipped),
                                 key=lambda i: (sent[i][2], i), default=None)) is not None:
                message, content, tokens = sent[largest]
                pictures = image_tokens(message)
                room = max(MIN_CLIP, usable - (total - tokens) - overhead - pictures - 8)
                content = clip_middle(message.content, int(room / config.estimate_scale))
                sent[largest] = (message, content, data.message_tokens(content) + pictures)
                clipped.add(message.id)
            else:
                break  # only pins, the system prompt and the goal are left: over budget
            note = f"[{len(dropped)} earlier messages are left out to fit the context " \
                   "window; they stay in the chat history.]" if dropped else ""
            text, total = measure(note)
        messages: list[dict[str, str]] = []
        if text:
            messages.append({"role": "system", "content": text})
        if sent and sent[0][0].role == "assistant":  # turns start with the user
            messages.append({"role": "user", "content": CONTINUE_STUB})
        over = total > usable
        for message, content, _ in sent:
            if messages and messages[-1]["role"] == message.role:
                messages[-1] = merged_entry(messages[-1], message, content)
            else:
                messages.append(request_entry(message, content))

        recent_pinned = sum(t for m, _, t in sent if m.pinned)
        pins = [p for p in parts if p.pinned]
        ledger_tokens = data.count(ledger_text) if ledger_text else 0
        preserved = sum(p.tokens for p in parts if p.kind != "checkpoint")
        # Checkpoints take the rest of the system message: the block's wrapper, its note and
        # the message's own overhead included, so the parts add up to what is sent.
        block = max(0, system_tokens(text) - prompt_tokens - goal_tokens - ledger_tokens
                    - preserved)
        result = Assembly(
            messages=messages, total=total, raw_total=raw_total,
            system=prompt_tokens, goal=goal_tokens, goal_condensed=condensed,
            checkpoints=block, ledger=ledger_tokens, preserved=preserved,
            pinned=recent_pinned + sum(p.tokens for p in pins),
            recent=sum(t for m, _, t in sent if not m.pinned),
            recent_pinned=recent_pinned,
            sent_ids={m.id for m, _, _ in sent} | {p.message_id for p in parts
                                                  if p.kind != "checkpoint" and p.message_id},
            dropped_ids=set(dropped), clipped_ids=clipped, dropped_count=len(dropped),
            over_budget=over, fitted=bool(dropped or clipped or over), present=present,
        )
        if over:
            pinned_messages = [m for m in data.messages if m.pinned]
            pinned_messages.sort(key=lambda m: -m.tokens)
            result.blocking_pins = [m.id for m in pinned_messages]
        return result

    def append(self, result: Assembly, message: Message) -> bool:
        """Extend a cached assembly in O(1) when nothing has to be left out or cut."""
        config = self.data.config
        last_role = result.messages[-1]["role"] if result.messages else "system"
        if result.fitted or message.role == "system" or (
                last_role == "system" and message.role == "assistant"):
            return False
        cap = self.clip_cap(result.system + result.goal)
        if not message.pinned and (message.tokens - config.message_overhead
                                   - image_tokens(message)) > cap:
            return False
        new_total = result.total + message.tokens
        if new_total > budget.usable_tokens(config):
            return False
        messages = result.messages
        if messages and messages[-1]["role"] == message.role:
            messages[-1] = merged_entry(messages[-1], message, message.content)
        else:
            messages.append(request_entry(message, message.content))
        result.total = new_total
        result.raw_total += message.tokens
        result.sent_ids.add(message.id)
        if message.pinned:
            result.pinned += message.tokens
            result.recent_pinned += message.tokens
        else:
            result.recent += message.tokens
        return True
