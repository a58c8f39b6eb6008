"""Plays one conversation through one strategy against the host and measures it.

Timing model of waits (the app's): after each reply a needed compaction starts in the background
while the user reads and types for ``think_s`` seconds; the next send waits for whatever is
left of it (unless the strategy's app sends a request that fits at once, as ours does since
issue 11), and also waits for a compaction the send itself needs (the request would not fit
without it). Compactions run one after another here, so their wall time is measured cleanly.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.memory.generator import Conversation, Fact
from bench.memory.host import Host, Overflow, Summarizer, Usage
from bench.memory.retention import bucket, normalise, request_text, retained
from bench.memory.strategies import Strategy, make
from bench.memory.tokens import cl100k_messages, peer_message_tokens

QA_SUFFIX = "\n\nAnswer with the exact value only, in a few words."


@dataclass
class Options:
    think_s: float = 20.0
    send_turns: str = "all"  # "all" turns, at the "probes", the "final" one, or "off"
    replies: str = "scripted"  # or "model"
    reply_predict: int = 200
    qa: bool = False
    probe_every: int = 25
    label: str = ""
    # Called with the run so far after each probe point: a long run that is stopped early
    # still leaves its probes on disk (its ``cost`` is filled only at the end).
    on_probe: Callable[[RunResult], None] | None = None


@dataclass
class RunResult:
    kind: str
    seed: int
    ctx: int
    strategy: str
    turns: int
    probes: list[dict[str, Any]] = field(default_factory=list)
    qa: list[dict[str, Any]] = field(default_factory=list)
    cost: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def facts_known(conversation: Conversation, turn: int) -> list[Fact]:
    """Facts whose (latest) statement has been made by the end of ``turn``."""
    return [f for f in conversation.facts if f.turn <= turn]


def probe(conversation: Conversation, messages: list[dict[str, str]], turn: int,
          ) -> dict[str, Any]:
    text = request_text(messages)
    rows = []
    for fact in facts_known(conversation, turn):
        depth = turn - fact.turn
        rows.append({"id": fact.id, "type": fact.type, "depth": depth, "bucket": bucket(depth),
                     "retained": retained(text, fact.answer, fact.stale)})
    return {"turn": turn, "request_tokens": cl100k_messages(messages),
            "messages": len(messages), "facts": rows}


def _reply_with_facts(text: str, sentences: list[str]) -> str:
    """A model-written reply plus the planted sentences, so the fact is still stated."""
    plain = [s for s in sentences if not s.startswith("[")]
    markers = [s for s in sentences if s.startswith("[")]
    out = text.strip()
    if plain:
        out += (" " if out else "") + " ".join(plain)
    if markers:
        out += "\n\n" + "\n".join(markers)
    return out


async def play(conversation: Conversation, strategy_name: str, ctx: int, host: Host | None,
               options: Options, model_context: int | None = None) -> RunResult:
    """The whole conversation through one strategy; retention at the probes, cost at the end."""
    usage = Usage()
    summarizer = Summarizer(host, ctx, usage) if host is not None else None
    strategy = make(strategy_name, conversation.system_prompt, ctx, summarizer, model_context)
    result = RunResult(conversation.kind, conversation.seed, ctx, strategy.name,
                       len(conversation.turns))
    started = time.monotonic()
    pending = 0.0  # background compaction time the next send may still have to wait for
    waited = 0
    wait_seconds: list[float] = []
    conversation_tokens = 0
    tag = (f"[{options.label or 'run'}] {conversation.kind} s{conversation.seed} "
           f"{ctx // 1024}K {strategy.name}")
    last = len(conversation.turns) - 1
    for turn in conversation.turns:
        wait = max(0.0, pending - options.think_s)
        pending = 0.0
        strategy.add("user", turn.user, fact_bearing=bool(turn.user_facts),
                     user_pinned=turn.user_pinned)
        if strategy.sends_when_fits():
            wait = 0.0  # sent at once; the compaction goes on (or runs after the reply)
        else:
            forced = await strategy.before_send()
            wait += forced or 0.0
        waited += wait > 0
        wait_seconds.append(wait)
        request = strategy.messages()
        reply = turn.assistant
        probing = (turn.index % options.probe_every == options.probe_every - 1
                   or turn.index == last)
        sending = (options.send_turns == "all"
                   or (options.send_turns == "probes" and probing)
                   or (options.send_turns == "final" and turn.index == last))
        if host is not None and options.replies == "model":
            answer = await _send(host, strategy, request, usage, options.reply_predict)
            reply = _reply_with_facts(answer or "", turn.assistant_sentences)
        elif host is not None and sending and strategy.sends_turns:
            await _send(host, strategy, request, usage, 1)
        strategy.add("assistant", reply, fact_bearing=bool(turn.assistant_facts),
                     user_pinned=False)
        ahead = peer_message_tokens(turn.user) + peer_message_tokens(reply)
        conversation_tokens += ahead
        background = await strategy.after_reply(ahead)
        if background is not None:
            pending = background
        if probing:
            result.probes.append(probe(conversation, strategy.messages(), turn.index))
            if options.on_probe is not None and turn.index != last:
                options.on_probe(result)
        if turn.index % 10 == 9 or turn.index == last:
            log(f"{tag}: turn {turn.index + 1}/{len(conversation.turns)}, compactions "
                f"{len(strategy.compaction_seconds)}, summary calls {usage.summary_calls}, "
                f"overflows {usage.overflows}, request {cl100k_messages(request)} tok, "
                f"{time.monotonic() - started:.0f} s")
    if options.qa and host is not None:
        result.qa = await _ask(conversation, strategy, host)
    result.seconds = time.monotonic() - started
    result.cost = _cost(strategy, usage, conversation_tokens, waited, wait_seconds,
                        len(conversation.turns))
    return result


async def _send(host: Host, strategy: Strategy, request: list[dict[str, str]], usage: Usage,
                predict: int) -> str | None:
    num_ctx = strategy.request_num_ctx()
    usage.turn_requests += 1
    try:
        answer = await host.chat(request, num_ctx=num_ctx, num_predict=predict)
    except Overflow:
        usage.observe(None, num_ctx, refused=True)
        return None
    except Exception as exc:  # a failed send is reported, the conversation goes on
        usage.turn_errors += 1
        log(f"turn request failed: {type(exc).__name__}: {exc}")
        return None
    usage.observe(answer, num_ctx, refused=False)
    return answer.content


async def _ask(conversation: Conversation, strategy: Strategy, host: Host,
               ) -> list[dict[str, Any]]:
    """``--qa``: each probe question with the current context; normalised substring match."""
    rows = []
    base = strategy.messages()
    last = conversation.turns[-1].index
    for fact in conversation.facts:
        question = [*base, {"role": "user", "content": fact.question + QA_SUFFIX}]
        try:
            answer = await host.chat(question, num_ctx=strategy.request_num_ctx(),
                                     num_predict=64)
            content: str | None = answer.content
        except Exception:  # refused (too long) or failed: not asked
            content = None
        rows.append({"id": fact.id, "type": fact.type, "bucket": bucket(last - fact.turn),
                     "asked": content is not None,
                     "correct": content is not None
                     and normalise(fact.answer) in normalise(content)})
    return rows


def _percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def _cost(strategy: Strategy, usage: Usage, conversation_tokens: int, waited: int,
          wait_seconds: list[float], turns: int) -> dict[str, Any]:
    seconds = strategy.compaction_seconds
    return {
        "summarizer_calls": usage.summary_calls,
        "summarizer_failures": usage.summary_failures,
        "summarizer_input_tokens": usage.summary_input_tokens,
        "summarizer_output_tokens": usage.summary_output_tokens,
        "conversation_tokens": conversation_tokens,
        "summary_input_ratio": usage.summary_input_tokens / max(1, conversation_tokens),
        "compactions": len(seconds),
        "compaction_failures": strategy.compaction_failures,
        "compaction_s_median": _percentile(seconds, 0.5),
        "compaction_s_p95": _percentile(seconds, 0.95),
        "compaction_s_total": sum(seconds),
        "compaction_seconds": [round(x, 3) for x in seconds],
        "turns": turns,
        "waited_turns": waited,
        "waited_share": waited / max(1, turns),
        "wait_s_max": max(wait_seconds, default=0.0),
        "turn_requests": usage.turn_requests,
        "turn_errors": usage.turn_errors,
        "overflow_requests": usage.overflows,
        "prompt_eval_max": usage.prompt_eval_max,
        "prompt_eval_ratio_max": usage.prompt_eval_ratio_max,
    }
