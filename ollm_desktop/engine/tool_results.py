"""How much of each tool result a request carries: whole, cut to head and tail, or pruned to a
one-line placeholder. The whole result always stays in the history (and in recall's index).

Tool output is what fills a small window: a file, a web page, a command's log. Three rules,
applied to the recent turns every time the request is assembled (pure: from the messages
alone, so a reloaded chat sends the same request):

1. **A result larger than its share** (``RESULT_SHARE`` of the usable window) is cut to its
   head and tail, with a note of what was cut. Images in a result are never cut: they are
   counted like the user's images.
2. **Older results are pruned before anything is summarised.** Beyond the newest
   ``KEEP_RESULTS`` results, or beyond the newest ``KEEP_SHARE`` of the usable window in
   result tokens, a result is replaced by a placeholder with its tool's name, its arguments
   and a one-line extract. The newest result is never pruned (the model is answering it).
   - Anthropic's ``clear_tool_uses_20250919`` context edit keeps the last 3 tool uses: we keep
     3 results too; a turn rarely reads more than 3 things before answering.
   - OpenCode protects the newest 40k tokens of tool output (of 128-200K windows: 20-30 %)
     and prunes only when that frees 20k. Our windows are 2K-8K, where one result alone may
     be a fifth of the window: ``KEEP_SHARE`` = 30 % of the usable window protects the newest
     one or two results whole at 2K (522 of 1,740 tokens) and about three at 8K, and leaves
     the rest of the window to the user's turns, the checkpoint and the facts ledger.
   - Pruning as soon as a result falls out of that window (not in OpenCode's 20k batches)
     changes the request where that result sits: at most the newest few results after it are
     read again by the server, which at 2K-8K is a few hundred tokens; batching would keep
     more old output than these windows have room for.
3. **In a summarised range** (``summary_material``), a call is its tool's name and arguments
   and a result is its outcome and one line of it, never the whole output.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from ollm_desktop.engine import budget
from ollm_desktop.engine.images import image_tokens
from ollm_desktop.engine.models import EngineConfig, Message
from ollm_desktop.engine.tokens import count_tokens, encoding
from ollm_desktop.engine.tool_types import ToolCall, calls_json

RESULT_SHARE = 0.20  # of the usable window: one result sent whole up to this
KEEP_RESULTS = 3  # the newest results kept (cut to their share at most)
KEEP_SHARE = 0.30  # of the usable window: the newest results' tokens kept
EXTRACT_CHARS = 120  # the placeholder's one-line extract
MIN_CUT = 48  # a result is never cut below this many tokens
CUT_NOTE = ("\n[… {omitted:,} tokens ({lines:,} lines) of this {tool} result were cut here to "
            "fit the context; the whole result stays in the chat …]\n")
PRUNED = "[Earlier result pruned to save room:"
ResultState = Literal["whole", "cut", "pruned"]
Count = Callable[[str], int]


@dataclass(frozen=True, slots=True)
class SentResult:
    """One result as the request carries it."""

    content: str
    tokens: int  # as sent: text, tool name, template and images
    state: ResultState


def counted_text(message: Message) -> str:
    """What a message costs beyond its images: its text, a reply's calls (the template writes
    them as JSON) and a result's tool name."""
    text = message.content
    if message.tool_calls:
        text = f"{text}\n{calls_json(message.tool_calls)}" if text else calls_json(
            message.tool_calls)
    if message.role == "tool" and message.tool_name:
        text = f"{message.tool_name}\n{text}"
    return text


def result_cap(config: EngineConfig) -> int:
    return max(MIN_CUT * 2, int(budget.usable_tokens(config) * RESULT_SHARE))


def keep_budget(config: EngineConfig) -> int:
    return int(budget.usable_tokens(config) * KEEP_SHARE)


def one_line(text: str, limit: int = EXTRACT_CHARS) -> str:
    """The first line that says something, at most ``limit`` characters."""
    line = next((s.strip() for s in text.splitlines() if s.strip()), "")
    return line if len(line) <= limit else line[:limit - 1].rstrip() + "…"


@functools.lru_cache(maxsize=64)  # a long result is cut once, not at every assembly
def cut_result(text: str, max_tokens: int, tool: str) -> str:
    """Head (about 60 %) and tail of ``text`` within ``max_tokens`` model tokens (cl100k,
    the scale applied by the caller), each ending on a line where one is near, with a note
    of what was cut between them."""
    enc = encoding()
    ids = enc.encode(text, disallowed_special=())
    if len(ids) <= max_tokens:
        return text
    room = max(MIN_CUT, max_tokens - count_tokens(CUT_NOTE.format(
        omitted=len(ids), lines=text.count("\n") + 1, tool=tool)) - 2)
    head_n = room * 3 // 5
    head = enc.decode(ids[:head_n])
    tail = enc.decode(ids[len(ids) - (room - head_n):])
    if (newline := head.rfind("\n")) > len(head) * 0.8:
        head = head[:newline]
    if 0 <= (newline := tail.find("\n")) < len(tail) * 0.2:
        tail = tail[newline + 1:]
    middle = text[len(head):len(text) - len(tail)] if tail else text[len(head):]
    note = CUT_NOTE.format(omitted=count_tokens(middle), lines=middle.count("\n") + 1,
                           tool=tool)
    return head.rstrip("\n") + note + tail


def placeholder(message: Message, call: ToolCall | None, size: int) -> str:
    """What stands for a pruned result: the tool, its arguments and one line of the result
    (``size``: the whole result's tokens)."""
    tool = message.tool_name or (call.name if call else "tool")
    arguments = call.arguments_text() if call else ""
    outcome = "failed" if message.tool_error else "returned"
    extract = one_line(message.content)
    pictures = f" and {len(message.images)} image(s)" if message.images else ""
    said = f": \"{extract}\"" if extract else ""
    return (f"{PRUNED} {tool}({arguments}) {outcome} "
            f"{size:,} tokens{pictures}{said}. The whole result is "
            "in the chat; call the tool again if you need it.]")


def calls_by_id(messages: Iterable[Message]) -> dict[str, ToolCall]:
    return {call.id: call for m in messages for call in m.tool_calls}


def plan(messages: list[Message], config: EngineConfig, count: Count,
         yield_tokens: int = 0) -> dict[str, SentResult]:
    """What each tool result among ``messages`` (the recent turns, oldest first) is sent as;
    ``yield_tokens``: what the kept results give way to (a question about a pruned one, where
    none is being answered: the newest may go too)."""
    overhead = config.message_overhead
    cap = result_cap(config)
    keep = keep_budget(config) - yield_tokens
    newest_kept = 1 if yield_tokens <= 0 else 0
    calls = calls_by_id(messages)
    sent: dict[str, SentResult] = {}
    kept_tokens = 0
    results = [m for m in messages if m.role == "tool"]
    for rank, message in enumerate(reversed(results)):
        name = message.tool_name or "tool"
        pictures = image_tokens(message)
        extra = count(name) + 1 + overhead + pictures
        text = message.content
        state: ResultState = "whole"
        if message.pinned:  # the user's pin keeps it whole, as any pinned message
            sent[message.id] = SentResult(text, message.tokens, "whole")
            continue
        size = max(0, message.tokens - extra)  # counted once, when it was added
        tokens = message.tokens
        if size > cap:
            text, state = cut_result(text, max(MIN_CUT, int(cap / config.estimate_scale)),
                                     name), "cut"
            tokens = count(text) + extra
        if rank >= newest_kept and (rank >= KEEP_RESULTS or kept_tokens + tokens > keep):
            text, state = placeholder(message, calls.get(message.tool_call_id or ""),
                                      size), "pruned"
            tokens = count(text) + extra
        else:
            kept_tokens += tokens
        sent[message.id] = SentResult(text, tokens, state)
    return sent


def summary_material(message: Message) -> Message:
    """A message as the summariser reads it: a reply's calls named, a result's outcome and one
    line of it (``placeholder``'s wording without the size), never the whole output."""
    if message.role == "tool":
        outcome = "failed" if message.tool_error else "returned"
        extract = one_line(message.content)
        text = f"[{message.tool_name or 'tool'} {outcome}" + (f": {extract}]" if extract
                                                               else "]")
        return message.model_copy(update={"content": text, "images": [],
                                          "tokens": count_tokens(text) + 8})
    if message.tool_calls:
        called = "; ".join(f"{c.name}({c.arguments_text()})" for c in message.tool_calls)
        text = f"{message.content}\n[called {called}]" if message.content else \
            f"[called {called}]"
        return message.model_copy(update={"content": text})
    return message
