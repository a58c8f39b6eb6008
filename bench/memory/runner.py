"""Plays one conversation through one strategy against the host and measures it.

Timing model of waits (the app's): after each reply a needed compaction starts in the background
while the user reads and types for ``think_s`` seconds; the next send waits for whatever is
left of it (unless the strategy's app sends a request that fits at once, as ours does since
issue 11), and also waits for a compaction the send itself needs (the request would not fit
without it). Compactions run one after another here, so their wall time is measured cleanly.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.memory import checkpoint_builds, noisy, precision
from bench.memory.generator import Conversation
from bench.memory.host import Host, Overflow, Summarizer, Usage
from bench.memory.scoring import answer_row, identifier_provenance, probe, question_rows
from bench.memory.slot import Slot
from bench.memory.strategies import Strategy, make
from bench.memory.tokens import cl100k_messages, peer_message_tokens

QA_SUFFIX = "\n\nAnswer with the exact value only, in a few words."


@dataclass
class Options:
    think_s: float = 20.0
    send_turns: str = "all"  # "all" turns, at the "probes", the "final" one, or "off"
    replies: str = "scripted"  # "noisy" (invented identifiers) or "model"
    reply_predict: int = 200
    qa: bool = False  # question-time retention at every probe (and the model's answers)
    ask_model: bool = True  # with --qa, also ask the host the questions at the end
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
    questions: list[dict[str, Any]] = field(default_factory=list)  # per probe point
    provenance: dict[str, Any] = field(default_factory=dict)  # the last request's identifiers
    precision: list[dict[str, Any]] = field(default_factory=list)  # the ledger sent (issue 28)
    cost: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


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
    """The whole conversation through one strategy; retention at the probes, cost at the end
    (with what each code-built checkpoint kept of the user's decisions)."""
    builds = checkpoint_builds.start()
    try:
        result = await _play(conversation, strategy_name, ctx, host, options, model_context)
    finally:
        builds.stop()
    result.cost["checkpoint_builds"] = checkpoint_builds.figures(conversation, builds)
    return result


async def _play(conversation: Conversation, strategy_name: str, ctx: int, host: Host | None,
                options: Options, model_context: int | None = None) -> RunResult:
    usage = Usage()
    slot = Slot()
    summarizer = Summarizer(host, ctx, usage, slot) if host is not None else None
    strategy = make(strategy_name, conversation.system_prompt, ctx, summarizer, model_context)
    result = RunResult(conversation.kind, conversation.seed, ctx, strategy.name,
                       len(conversation.turns))
    started = time.monotonic()
    pending = 0.0  # background compaction time the next send may still have to wait for
    waited = 0
    wait_seconds: list[float] = []
    conversation_tokens = 0
    played: list[tuple[str, str]] = []  # the chat as played (replies as sent), for provenance
    invented = noisy.replies(conversation) if options.replies == "noisy" else None
    invented_so_far: list[str] = []
    extractions = precision.extraction_count()
    tag = (f"[{options.label or 'run'}] {conversation.kind} s{conversation.seed} "
           f"{ctx // 1024}K {strategy.name}")
    last = len(conversation.turns) - 1
    request: list[dict[str, str]] = []
    for turn in conversation.turns:
        wait = max(0.0, pending - options.think_s)
        pending = 0.0
        strategy.add("user", turn.user, fact_bearing=bool(turn.user_facts),
                     user_pinned=turn.user_pinned)
        played.append(("user", turn.user))
        if strategy.sends_when_fits():
            wait = 0.0  # sent at once; the compaction goes on (or runs after the reply)
        else:
            forced = await strategy.before_send()
            wait += forced or 0.0
        waited += wait > 0
        wait_seconds.append(wait)
        request = strategy.send_messages()
        reply = turn.assistant
        probing = (turn.index % options.probe_every == options.probe_every - 1
                   or turn.index == last)
        sending = (options.send_turns == "all"
                   or (options.send_turns == "probes" and probing)
                   or (options.send_turns == "final" and turn.index == last))
        if host is not None and options.replies == "model":
            answer = await _send(host, strategy, request, usage, options.reply_predict)
            reply = _reply_with_facts(answer or "", turn.assistant_sentences)
        elif invented is not None:
            reply = _reply_with_facts(invented[turn.index][0], turn.assistant_sentences)
            invented_so_far += invented[turn.index][1]
        if host is not None and sending and strategy.sends_turns and options.replies != "model":
            await _send(host, strategy, request, usage, 1)
        strategy.add("assistant", reply, fact_bearing=bool(turn.assistant_facts),
                     user_pinned=False)
        played.append(("assistant", reply))
        if strategy.sends_turns:
            slot.observe("chat", request, reply)
        ahead = peer_message_tokens(turn.user) + peer_message_tokens(reply)
        conversation_tokens += ahead
        background = await strategy.after_reply(ahead)
        if background is not None:
            pending = background
            if strategy.warms_cache:
                slot.observe("warmup", strategy.messages(), "")
        engine = getattr(strategy, "engine", None)
        if engine is not None and (turn.index + 1 in precision.PRECISION_TURNS
                                   or turn.index == last):
            result.precision.append(precision.record(
                conversation, strategy.messages(), turn.index, played, invented_so_far,
                precision.panel_of(engine)))
        if probing:
            final = strategy.messages()
            result.probes.append(probe(conversation, final, turn.index))
            if options.qa:
                held = summarizer.slot if summarizer is not None else None
                if summarizer is not None:
                    summarizer.slot = None  # a question's compaction is no part of the chat
                result.questions.append(await _questions(conversation, strategy, usage,
                                                         turn.index))
                if summarizer is not None:
                    summarizer.slot = held
            if turn.index == last:
                result.provenance = identifier_provenance(final, played)
            if options.on_probe is not None and turn.index != last:
                options.on_probe(result)
        if turn.index % 10 == 9 or turn.index == last:
            log(f"{tag}: turn {turn.index + 1}/{len(conversation.turns)}, compactions "
                f"{len(strategy.compaction_seconds)}, summary calls {usage.summary_calls}, "
                f"overflows {usage.overflows}, request {cl100k_messages(request)} tok, "
                f"{time.monotonic() - started:.0f} s")
    if options.qa and options.ask_model and host is not None:
        result.qa = await _ask(conversation, strategy, host, usage)
    result.seconds = time.monotonic() - started
    result.cost = _cost(strategy, usage, conversation_tokens, waited, wait_seconds,
                        len(conversation.turns))
    result.cost["slot_model"] = slot.figures()
    result.cost["recall"] = strategy.stats() or None
    result.cost.update(precision.cost_figures(strategy, extractions))
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


async def question_request(strategy: Strategy, text: str) -> list[dict[str, str]] | None:
    """The request that carries ``text`` as the next user message, through the strategy;
    afterwards the strategy is as before (a compaction the question caused is undone too).
    None when the strategy could not send it."""
    strategy.add("user", text, fact_bearing=False, user_pinned=False)
    saved = None
    if not strategy.sends_when_fits():
        strategy.take_back()
        saved = strategy.snapshot()
        strategy.add("user", text, fact_bearing=False, user_pinned=False)
        await strategy.before_send()
    try:
        return strategy.question_messages()
    except Exception as exc:  # e.g. pins alone over the context: not sendable
        log(f"question not sendable: {type(exc).__name__}: {exc}")
        return None
    finally:
        if saved is None:
            strategy.take_back()
        else:
            strategy.restore(saved)


async def _questions(conversation: Conversation, strategy: Strategy, usage: Usage, turn: int,
                     ) -> dict[str, Any]:
    """Question-time retention: every known fact asked both ways, each through the strategy.

    Summaries a question causes are not the conversation's cost: the usage is put back.
    """
    kept = dataclasses.replace(usage, summary_seconds=list(usage.summary_seconds))
    rows = await question_rows(conversation, turn,
                               lambda text, _fact, _form: question_request(strategy, text))
    for name in (f.name for f in dataclasses.fields(Usage)):
        setattr(usage, name, getattr(kept, name))
    return {"turn": turn, "rows": rows}


async def _ask(conversation: Conversation, strategy: Strategy, host: Host, usage: Usage,
               ) -> list[dict[str, Any]]:
    """``--qa`` with a model: each direct question, sent through the strategy, answered by the
    host; correct when the normalised answer occurs in the reply."""
    rows = []
    last = conversation.turns[-1].index
    kept = dataclasses.replace(usage, summary_seconds=list(usage.summary_seconds))
    for fact in conversation.facts:
        request = await question_request(strategy, fact.question + QA_SUFFIX)
        content: str | None = None
        if request is not None:
            try:
                answer = await host.chat(request, num_ctx=strategy.request_num_ctx(),
                                         num_predict=64)
                content = answer.content
            except Exception:  # refused (too long) or failed: not asked
                content = None
        rows.append(answer_row(fact, content, last))
    for name in (f.name for f in dataclasses.fields(Usage)):
        setattr(usage, name, getattr(kept, name))
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
        "summarizer_read_tokens": usage.summary_read_tokens,
        "summary_read_ratio": usage.summary_read_tokens / max(1, conversation_tokens),
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
