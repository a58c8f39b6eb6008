"""Context assembly: exactly what is sent, in one layout that the server's KV cache can reuse.

Servers (Ollama, llama.cpp) re-read only what follows the longest common prefix with what their
slot last held, so each request is ordered by how rarely its parts change (docs/architecture.md,
"The request layout"):

1. the system prompt and instructions added during the chat;
2. the goal block;
3. the checkpoints, in creation order (a new one goes after the older ones);
4. what is kept of earlier turns word for word (the user's requests, pins of the compacted
   region, messages no checkpoint holds);
5. the facts ledger (``facts``; a correction between compactions re-reads from its line on,
   the quotes before it only where one holds the old value), then the "left out" note;
6. the recent turns; 7. the newest user turn (recalled text goes inside it, at send).

Parts 1-5 form one system message. Each part renders from its own content alone (no counts,
times or positions that move between sends), so between compactions a request is the previous
one plus the new turns. Earlier requests are quoted inside the system message, never sent as
bare user turns: a small model handed seven old questions in one turn answers them all again.

Hard limits: one unpinned message takes at most ``budget.message_cap`` (head and tail kept,
with a marker); the goal block at most ``budget.goal_cap``; the ledger its budget. If the
request still does not fit, the oldest recent exchanges, then earlier requests, then the
oldest checkpoints, then ledger entries are left out, with a note. Pins never are: when pins
alone do not fit, the assembly is marked over budget and ``blocking_pins`` names them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ollm_desktop.engine import budget, document_context, facts, facts_render, goals, tool_results
from ollm_desktop.engine.conversation import LEGACY_MESSAGE, Conversation
from ollm_desktop.engine.images import (
    image_tokens,
    joins,
    merged_entry,
    request_entry,
    text_with_images,
)
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

    checkpoints: list[Part]  # in creation order (part 3)
    kept: list[Part]  # requests, pins and orphans word for word, in message order (part 4)
    boundary: int
    instructions: list[str]  # system-role messages of the whole chat, in order
    owner: dict[str, int]  # message id -> index of the group whose span holds it
    replaced: set[str]  # summarised messages
    orphans: list[str]  # unpinned, unsummarised, not kept: folded by the next compaction
    compacted: set[str] = field(default_factory=set)  # ids before the boundary
    # The marks of old values (``facts.value_notes``): the quotes above and the ledger's
    # sentence lines carry the same ones, worked out once per region.
    notes: dict[str, str | None] = field(default_factory=dict)

    @property
    def parts(self) -> list[Part]:
        return [*self.checkpoints, *self.kept]

    @property
    def quoted(self) -> set[str]:
        return {p.message_id for p in self.kept if p.message_id}


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
    sent_ids: set[str] = field(default_factory=set)  # word for word (recall skips them)
    pruned_ids: set[str] = field(default_factory=set)  # tool results sent as a placeholder
    dropped_ids: set[str] = field(default_factory=set)
    clipped_ids: set[str] = field(default_factory=set)
    dropped_count: int = 0
    over_budget: bool = False
    blocking_pins: list[str] = field(default_factory=list)
    fitted: bool = False  # something was left out or cut: never append to it
    facts_shown: tuple[str, ...] = ()  # ids of the facts on the ledger's lines
    facts_left_out: tuple[str, ...] = ()
    # The message ids behind each entry of ``messages`` (the system message: none), so a
    # summary request can send exactly the chat's leading entries (``summary_requests``).
    entry_ids: list[list[str]] = field(default_factory=list)


def quote(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in text.splitlines() or [""])


def checkpoint_text(group: CompressedGroup, notes: dict[str, str | None]) -> str:
    """A checkpoint as sent: from its own content alone (its number would move)."""
    return f"[Checkpoint, level {group.level}]\n{facts.annotate(group.summary, notes)}"


def _tokens(data: Conversation, message_id: str, kind: str, text: str) -> int:
    """A quoted part's count, cached under (message id, kind) with the text it counted: an
    annotation (a fact replaced, edited or forgotten) changes the text, never the id."""
    key = (message_id, kind)
    cached = data.part_tokens.get(key)
    if cached is None or cached[0] != text:
        cached = data.part_tokens[key] = (text, data.count(text) + 2)
    return cached[1]


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
    notes = facts.value_notes(data.facts)
    # A reply's correction sentence never marks the user's words "later corrected": the
    # ledger is the user's, and a reply's sentence read as a correction (advice, filler)
    # marked quoted requests at every such reply (junk, and a re-read from there on).
    later = facts.corrections(f for f in data.facts if f.users)
    checkpoints = [Part("checkpoint", text, data.count(text) + 2, group.id)
                   for group in data.groups for text in [checkpoint_text(group, notes)]]
    kept: list[Part] = []
    orphans: list[str] = []
    cap = budget.message_cap(data.config, 0) // 2  # a quoted earlier message
    turn = 0  # the exchange (1-based) of each message, counted in this one pass
    for message in data.messages[:boundary]:
        if message.role == "user":
            turn += 1
        if message.role == "system":
            continue
        if message.pinned:  # word for word, but a replaced value is marked here too
            marked = facts.mark_corrected(facts.annotate(text_with_images(message), notes),
                                          later, max(1, turn))
            text = f"Pinned by the user ({message.role} message, word for word):\n" \
                   f"{quote(marked)}"
            kept.append(Part("pin", text, _tokens(data, message.id, "pin", text), message.id,
                             True))
            continue
        if message.id in dropped or message.id in replaced:
            continue
        content = facts.mark_corrected(  # images: their text
            facts.annotate(text_with_images(message), notes), later, max(1, turn))
        if message.tokens > cap:
            content = clip_middle(content, int(cap / data.config.estimate_scale))
        if message.role == "user" and data.config.preserve_user_messages:
            text = f"Earlier request from the user (word for word, already answered):\n" \
                   f"{quote(content)}"
            kept.append(Part("request", text, _tokens(data, message.id, "request", text),
                             message.id))
        else:
            orphans.append(message.id)
            text = f"Earlier {message.role} message (word for word):\n{quote(content)}"
            kept.append(Part("orphan", text, _tokens(data, message.id, "orphan", text),
                             message.id))
    instructions = [m.content for m in data.messages if m.role == "system"]
    compacted = {m.id for m in data.messages[:boundary]} | {LEGACY_MESSAGE}
    return Region(checkpoints, kept, boundary, instructions, owner, replaced, orphans,
                  compacted, notes)


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
        if data.documents_attached:
            head.append(document_context.SYSTEM_NOTE)
        prompt_text = "\n\n".join(head)
        cap = budget.goal_cap(data.config)
        goal = data.goal if data.goal_shown is None else data.goal_shown
        render = goals.render_goal_block_capped(goal, cap, data.count)
        text = "\n\n".join(p for p in (prompt_text, render.text) if p)
        prompt_tokens = data.count(prompt_text) if prompt_text else 0
        return text, prompt_tokens, render.tokens, render.condensed, cap

    def clip_cap(self, fixed: int) -> int:
        return budget.message_cap(self.data.config, fixed)

    def ledger(self, region: Region, limit: int) -> facts_render.Rendered:
        data = self.data
        return facts_render.render(data.facts, compacted=region.compacted, quoted=region.quoted,
                            budget=limit, count=data.count, notes=region.notes)

    # ------------------------------------------------------------ assemble
    def assemble(self, region: Region) -> Assembly:
        from ollm_desktop.engine.fitting import Fitting

        data = self.data
        config = data.config
        overhead = config.message_overhead
        head, prompt_tokens, goal_tokens, condensed, _ = self.system_head(region)
        cap = self.clip_cap(prompt_tokens + goal_tokens)
        sent: list[tuple[Message, str, int]] = []  # message, content as sent, tokens
        clipped: set[str] = set()
        recent = data.messages[region.boundary:]
        results = tool_results.plan(recent, config, data.count, data.tool_yield)  # cut, pruned
        data.tool_sent = {mid: result.tokens for mid, result in results.items()}
        for message in recent:
            if message.role == "system":
                continue
            content, tokens = message.content, message.tokens
            if message.id in results:
                planned = results[message.id]
                content, tokens = planned.content, planned.tokens
                if planned.state == "cut":
                    clipped.add(message.id)
            elif not message.pinned and tokens - overhead - image_tokens(message) > cap:
                content = clip_middle(message.content, max(32, int(cap / config.estimate_scale)))
                tokens = data.message_tokens(content) + image_tokens(message)
                clipped.add(message.id)
            sent.append((message, content, tokens))
        fitting = Fitting(self, region, head, sent, clipped)
        fitting.fit()
        messages: list[dict[str, str]] = []
        entry_ids: list[list[str]] = []
        text = fitting.text
        if text:
            messages.append({"role": "system", "content": text})
            entry_ids.append([])
        if fitting.sent and fitting.sent[0][0].role == "assistant":  # turns start with the user
            messages.append({"role": "user", "content": CONTINUE_STUB})
            entry_ids.append([])
        for message, content, _ in fitting.sent:
            if messages and joins(messages[-1], message):
                messages[-1] = merged_entry(messages[-1], message, content)
                entry_ids[-1].append(message.id)
            else:
                messages.append(request_entry(message, content))
                entry_ids.append([message.id])
        total, usable = fitting.total, budget.usable_tokens(config)
        over = total > usable
        sent = fitting.sent
        parts = fitting.checkpoints + fitting.kept
        recent_pinned = sum(t for m, _, t in sent if m.pinned)
        pins = [p for p in parts if p.pinned]
        ledger_tokens = data.count(fitting.ledger.text) if fitting.ledger.text else 0
        preserved = sum(p.tokens for p in fitting.kept)
        # Checkpoints take the rest of the system message: the block's wrapper, its note and
        # the message's own overhead included, so the parts add up to what is sent.
        system_tokens = data.count(text) + overhead if text else 0
        block = max(0, system_tokens - prompt_tokens - goal_tokens - ledger_tokens - preserved)
        result = Assembly(
            messages=messages, total=total, raw_total=fitting.raw_total,
            system=prompt_tokens, goal=goal_tokens, goal_condensed=condensed,
            checkpoints=block, ledger=ledger_tokens, preserved=preserved,
            pinned=recent_pinned + sum(p.tokens for p in pins),
            recent=sum(t for m, _, t in sent if not m.pinned), recent_pinned=recent_pinned,
            sent_ids=({m.id for m, _, _ in sent} | {p.message_id for p in fitting.kept
                                                   if p.message_id})
            - {mid for mid, r in results.items() if r.state != "whole"},  # recall may bring
            dropped_ids=set(fitting.dropped), clipped_ids=fitting.clipped,
            pruned_ids={mid for mid, r in results.items() if r.state == "pruned"},
            dropped_count=len(fitting.dropped), over_budget=over,
            fitted=bool(fitting.dropped or fitting.clipped or over),
            facts_shown=fitting.ledger.shown, facts_left_out=fitting.ledger.left_out,
            entry_ids=entry_ids)
        if over:
            pinned_messages = [m for m in data.messages if m.pinned]
            pinned_messages.sort(key=lambda m: -m.tokens)
            result.blocking_pins = [m.id for m in pinned_messages]
        return result

    def append(self, result: Assembly, message: Message) -> bool:
        """Extend a cached assembly in O(1) when nothing has to be left out or cut."""
        config = self.data.config
        last_role = result.messages[-1]["role"] if result.messages else "system"
        if result.fitted or message.role in ("system", "tool") or (  # a result: plan again
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
        if messages and joins(messages[-1], message):
            messages[-1] = merged_entry(messages[-1], message, message.content)
            result.entry_ids[-1].append(message.id)
        else:
            messages.append(request_entry(message, message.content))
            result.entry_ids.append([message.id])
        result.total = new_total
        result.raw_total += message.tokens
        result.sent_ids.add(message.id)
        if message.pinned:
            result.pinned += message.tokens
            result.recent_pinned += message.tokens
        else:
            result.recent += message.tokens
        return True
