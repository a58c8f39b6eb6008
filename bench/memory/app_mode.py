"""``--app``: the conversation through the real app (ChatController, store, backend), ``ollm`` only.

The controller talks to an in-process loopback server (``relay``) that answers chat turns as
``--replies`` says (scripted, noisy, or the host's model streamed through, planted sentences
appended) and passes the engine's summaries to ``--host`` (with ``--smoke`` or ``--loopback``
the loopback summariser answers). Retention is read from the request the app would send next
(``engine.api_messages()``), waits from the controller's own ``turn_waits``.

``--qa``: at each probe point every known fact is asked, directly and paraphrased, as the next
user message through the controller; the request that carries it is scored, then the chat is
put back exactly as it was (the question is taken back; a compaction it caused is undone).
The cache figures (layout issue) come from the host's final chunks, logged by the relay.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as _dt
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.memory import noisy, report
from bench.memory.cli import SMOKE_MODEL, checked, engine_info
from bench.memory.generator import Conversation, Fact
from bench.memory.relay import Logged, Relay
from bench.memory.runner import _reply_with_facts, log
from bench.memory.scoring import answer_row, identifier_provenance, probe, question_rows

QUESTION_WAIT_S = 900.0
TURN_WAIT_S = 600.0  # a turn this long is logged (a hang shows where it is)
REPLY_PREDICT = 200  # tokens of a live reply (the in-process runner's reply_predict)
RECALLED = "(Recalled from earlier in this conversation"  # engine.recall.INTRO's opening


async def _idle(controller: Any) -> None:
    started = time.monotonic()
    while controller.compacting or controller.busy:
        if time.monotonic() - started > TURN_WAIT_S:
            log(f"[app] still busy after {TURN_WAIT_S:.0f} s (compacting "
                f"{controller.compacting}, busy {controller.busy})")
            started = time.monotonic()
        await asyncio.sleep(0.05)


async def _questions(controller: Any, relay: Relay, conversation: Conversation, turn: int,
                     answer: bool, qa: list[dict[str, Any]]) -> dict[str, Any]:
    """Every known fact asked both ways through the controller; the chat is put back after.

    ``answer``: the host answers the questions, and the direct ones' replies are checked
    into ``qa`` (the model's own knowledge, beside the request's)."""
    session = controller.session
    await _idle(controller)
    saved = session.engine.state()
    waits = dict(controller.turn_waits)
    relay.measuring, relay.answer_questions = False, answer

    async def ask(text: str, fact: Fact, form: str) -> list[dict[str, Any]] | None:
        relay.question = text
        before = len(relay.log)
        task = controller.send(text)
        if task is not None:
            await asyncio.wait_for(task, QUESTION_WAIT_S)
        await _idle(controller)
        carried = next((e for e in relay.log[before:] if e.kind == "question"), None)
        if answer and form == "direct":
            reply = session.engine.display_messages()[-1]
            qa.append(answer_row(fact, reply.content if reply.role == "assistant" else None,
                                 turn))
        _put_back(session, saved)
        return None if carried is None else carried.messages

    try:
        rows = await question_rows(conversation, turn, ask)
    finally:
        relay.question, relay.measuring, relay.answer_questions = None, True, False
        controller.turn_waits.update(waits)
    return {"turn": turn, "rows": rows}


def _put_back(session: Any, saved: Any) -> None:
    """The chat exactly as before the question (engine and store), if anything changed."""
    engine = session.engine
    if [m.id for m in engine.display_messages()] == [m.id for m in saved.messages] \
            and engine.compaction_count == saved.compaction_count:
        return
    engine.load_state(saved)
    session.store.replace_chat_state(session.chat.id, saved)


async def _converse(controller: Any, relay: Relay, conversation: Conversation, args: Any,
                    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any],
                               list[float], list[dict[str, Any]]]:
    probes: list[dict[str, Any]] = []
    qa: list[dict[str, Any]] = []
    questions: list[dict[str, Any]] = []
    first_token: list[float] = []
    controller.new_chat("memory bench")
    if args.replies == "model":  # as a user who caps replies would; the bench's other modes'
        from ollm_desktop.storage.models import ChatSettings  # length (reply_predict)

        controller.apply_chat_settings(ChatSettings(num_predict=REPLY_PREDICT))
    last = len(conversation.turns) - 1
    invented = noisy.replies(conversation) if args.replies == "noisy" else None
    think_s = 0.0 if args.smoke else args.think_s
    for turn in conversation.turns:
        relay.turn_text, relay.planted = turn.user, turn.assistant_sentences
        relay.reply_text = (_reply_with_facts(invented[turn.index][0], turn.assistant_sentences)
                            if invented is not None else turn.assistant)
        before = len(relay.log)
        sent_at = time.monotonic()
        task = controller.send(turn.user)
        if task is None:
            raise RuntimeError("the controller refused a send")
        try:
            await asyncio.wait_for(asyncio.shield(task), TURN_WAIT_S)
        except TimeoutError:
            log(f"[app] turn {turn.index + 1} still running after {TURN_WAIT_S:.0f} s "
                f"(compacting {controller.compacting}); waiting on")
            await task
        chat = next((e for e in relay.log[before:] if e.kind == "chat" and e.first), None)
        if chat is not None and chat.first is not None:
            first_token.append(chat.first - sent_at)
        if turn.user_pinned:
            users = [m for m in controller.session.engine.display_messages() if m.role == "user"]
            controller.set_pinned(users[-1].id, True)
        if think_s > 0:
            await asyncio.sleep(think_s)
        if turn.index % args.probe_every == args.probe_every - 1 or turn.index == last:
            request = controller.session.engine.api_messages()
            probes.append(probe(conversation, request, turn.index))
            if turn.index == last:  # what the model was last sent, to read a miss by eye
                probes[-1]["request"] = [{"role": m["role"], "content": m["content"]}
                                         for m in request]
            if args.qa:
                answer = args.replies == "model" and turn.index == last and not args.smoke
                questions.append(await _questions(controller, relay, conversation, turn.index,
                                                  answer, qa))
            log(f"[app] turn {turn.index + 1}/{len(conversation.turns)}: waited "
                f"{controller.turn_waits['waited']}/{controller.turn_waits['turns']}")
    await _idle(controller)
    engine = controller.session.engine
    played = [(m.role, m.content) for m in engine.display_messages() if m.role != "system"]
    provenance = identifier_provenance(engine.api_messages(), played)
    return probes, questions, provenance, first_token, qa


def run_app(args: argparse.Namespace) -> int:
    """Plays each conversation and context size through the app; writes the usual files."""
    from bench.common import qasync_loop
    from ollm_desktop.controller import ChatController
    from ollm_desktop.paths import app_paths
    from ollm_desktop.session import Settings
    from ollm_desktop.storage import ChatStore
    from tests.ollama_server import FakeModel, FakeOllama

    started = time.monotonic()
    loopback_only = args.smoke or args.loopback
    model = SMOKE_MODEL if loopback_only else (args.model or "")
    if not loopback_only and not model:
        raise SystemExit("--app needs --model with a real host")
    relay = Relay(None if loopback_only else args.host, model, replies=args.replies,
                  summariser=args.summariser)
    server = FakeOllama([FakeModel(model, "llama", "135M", 32768, "Q4_1", 98_000_000,
                                   parameter_count=135_000_000)])
    server.reply_fn = relay
    server.check_num_ctx = loopback_only  # the host counts with the model's own tokenizer
    server.start()
    runs: list[dict[str, Any]] = []
    try:
        for ctx in args.ctx:
            for kind in args.kinds:
                for seed in args.seeds:
                    conversation = checked(kind, args.turns, seed, args.filler, args.replies)
                    with tempfile.TemporaryDirectory() as tmp:
                        paths = app_paths(Path(tmp) / "data")
                        paths.ensure()
                        store, _ = ChatStore.open(paths)
                        settings = Settings(ollama_host=server.url, default_model=model,
                                            context_size=ctx)
                        if args.no_recall and "recall_new_chats" in Settings.model_fields:
                            settings = settings.model_copy(update={"recall_new_chats": False})
                        controller = ChatController(store, settings, model=model)
                        run_started = time.monotonic()
                        relay.log.clear()
                        with qasync_loop() as loop:
                            try:
                                played = loop.run_until_complete(
                                    _converse(controller, relay, conversation, args))
                            finally:
                                loop.run_until_complete(controller.shutdown())
                        waits = dict(controller.turn_waits)
                        store.close()
                    runs.append(_run(conversation, ctx, played, waits, relay, server,
                                     time.monotonic() - run_started))
    finally:
        server.stop()
        relay.close()
    params = {"label": args.label or "app", "model": model, "host": args.host, "ctx": args.ctx,
              "turns": args.turns, "seeds": args.seeds, "kinds": args.kinds, "app": True,
              "replies": args.replies, "qa": args.qa, "recall": not args.no_recall,
              "summariser":
                  args.summariser if loopback_only else "host",
              "filler": args.filler, "think_s": 0.0 if args.smoke else args.think_s,
              "smoke": args.smoke, "loopback": bool(loopback_only),
              "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
              "wall_s": round(time.monotonic() - started, 1), **engine_info()}
    summary = report.aggregate(runs)
    name = f"memory-app-{args.label}" if args.label else "memory-app"
    path = report.write({"params": params, "summary": summary, "runs": runs}, args.out, name)
    text = report.table(summary)
    print(text)
    (args.out / f"{name}.md").write_text(text + "\n", encoding="utf-8")
    print(f"results: {path}")
    return 0


def _share(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def cache_figures(entries: list[Logged]) -> dict[str, Any]:
    """Share of prompt tokens from the server's cache (llama.cpp ``timings``), the one-slot
    model's share and the highest share possible, over ``entries``."""
    timed = [e.final["timings"] for e in entries if e.final.get("timings")]
    cached = sum(int(t.get("cache_n") or 0) for t in timed)
    read = sum(int(t.get("prompt_n") or 0) for t in timed)
    slots = [e.final["slot_model"] for e in entries if e.final.get("slot_model")]
    prompt = sum(s["prompt"] for s in slots)
    return {"requests": len(entries), "timed": len(timed), "cached_tokens": cached,
            "read_tokens": read, "cache_share": _share(cached, cached + read),
            "model_share": _share(sum(s["prefix"] for s in slots), prompt),
            "possible_share": _share(sum(s["possible"] for s in slots), prompt)}


def _trace(measured: list[Logged]) -> list[dict[str, Any]]:
    rows, before = [], None
    for entry in measured:
        row = _traced(entry)
        if entry.kind == "chat":
            row["diverged"] = diverged(before, entry.messages) if before is not None else None
            before = entry.messages
        rows.append(row)
    return rows


def _traced(entry: Logged) -> dict[str, Any]:
    """One request of the run, for reading why a share fell short: its kind, outcome, size,
    what the server took from its cache and what the one-slot model says was possible."""
    timings = entry.final.get("timings") or {}
    slot = entry.final.get("slot_model") or {}
    return {"kind": entry.kind, "outcome": entry.outcome, "messages": len(entry.messages),
            "prompt_n": timings.get("prompt_n"), "cache_n": timings.get("cache_n"),
            "slot_prompt": slot.get("prompt"), "slot_prefix": slot.get("prefix"),
            "slot_possible": slot.get("possible"),
            "summary_running": entry.summary_running, "at_s": round(entry.arrived, 2),
            "first_s": round(entry.first - entry.arrived, 2) if entry.first else None,
            "took_s": round(entry.ended - entry.arrived, 2) if entry.ended else None}


def diverged(before: list[dict[str, Any]], now: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Where ``now`` first differs from the chat request ``before`` it (None: it extends it):
    the message, its role, the character and a few words of each side, to read why a chat
    request was re-read from there (a compaction, a correction read at once, recall)."""
    for index, (old, new) in enumerate(zip(before, now, strict=False)):
        a, b = str(old.get("content", "")), str(new.get("content", ""))
        if old.get("role") == new.get("role") and a == b:
            continue
        at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                  min(len(a), len(b)))
        if old.get("role") != new.get("role"):
            at = 0
        return {"message": index, "role": new.get("role"), "at": at,
                "was": a[max(0, at - 60):at + 100], "now": b[max(0, at - 60):at + 100]}
    return None if len(now) >= len(before) else {"message": len(now), "role": None, "at": 0,
                                                  "was": "", "now": ""}


def _percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _run(conversation: Conversation, ctx: int, played: tuple[Any, ...], waits: dict[str, int],
         relay: Relay, server: Any, seconds: float) -> dict[str, Any]:
    probes, questions, provenance, first_token, qa = played
    over = sum(1 for s in server.streams if s.prompt_eval_count and s.prompt_eval_count > ctx)
    measured = [e for e in relay.log if e.measured]
    chats = [e for e in measured if e.kind == "chat" and e.outcome == "done"]
    summaries = [e for e in measured if e.kind == "summary"]
    turns = max(1, waits.get("turns", 0))
    cache = {"chat": cache_figures(chats), "summary": cache_figures(
        [e for e in summaries if e.outcome == "done"]),
             "ttft_s_median": statistics.median(first_token) if first_token else None,
             "ttft_s_p95": _percentile(first_token, 0.95),
             "chat_during_summary": sum(e.summary_running for e in measured
                                        if e.kind == "chat"),
             "summaries_cancelled": sum(e.outcome == "cancelled" for e in summaries),
             "warmups": sum(e.kind == "warmup" for e in measured),
             # sends whose request carried recalled rounds (the engine's recall, issue 23)
             "recalled_sends": sum(RECALLED in str(e.messages[-1].get("content", ""))
                                   for e in chats if e.messages),
             "trace": _trace(measured)}
    cost = {"summarizer_calls": len(summaries), "summarizer_failures": sum(
        e.outcome == "error" for e in summaries), "summarizer_input_tokens": 0,
            "summarizer_output_tokens": 0, "conversation_tokens": 1, "compactions": 0,
            "compaction_seconds": [], "turns": turns, "waited_turns": waits.get("waited", 0),
            "turn_requests": len(server.streams), "overflow_requests": over + len(
                server.rejected), "prompt_eval_ratio_max": 0.0, "cache": cache}
    return {"kind": conversation.kind, "seed": conversation.seed, "ctx": ctx,
            "strategy": "ollm-app", "turns": len(conversation.turns), "probes": probes,
            "questions": questions, "provenance": provenance, "qa": qa, "cost": cost,
            "seconds": seconds}
