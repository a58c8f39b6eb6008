"""``--app``: the conversation through the real app (ChatController, store, backend), ``ollm`` only.

The controller talks to an in-process loopback server that answers each chat turn with the
scripted assistant reply (so assistant-stated facts are planted) and forwards every other
request (the engine's summaries) to ``--host`` unchanged, reporting the host's counts; with
``--smoke`` the loopback summarizer answers instead. Retention is read from the request the app
would send next (``engine.api_messages()``), waits from the controller's own ``turn_waits``.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as _dt
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from bench.memory import report
from bench.memory.cli import SMOKE_MODEL, _smoke_reply, engine_info
from bench.memory.generator import Conversation, generate
from bench.memory.runner import log, probe


class _Relay:
    """reply_fn of the loopback server: scripted turns, summaries from the real host."""

    def __init__(self, host: str | None, model: str) -> None:
        self.host, self.model = host, model
        self.turn_text: str | None = None  # the user message being answered now
        self.reply_text = ""
        self.summary_calls = 0
        self._lock = threading.Lock()
        self._http = httpx.Client(base_url=host, trust_env=False,
                                  timeout=httpx.Timeout(10.0, read=900.0)) if host else None

    def close(self) -> None:
        if self._http is not None:
            self._http.close()

    def __call__(self, body: dict[str, Any]) -> Any:
        from tests.ollama_server import Reply

        messages = body.get("messages") or []
        last = str(messages[-1].get("content", "")) if messages else ""
        with self._lock:
            if self.turn_text is not None and last == self.turn_text:
                return Reply(text=self.reply_text)
            self.summary_calls += 1
        if self._http is None:
            return Reply(text=_smoke_reply(body))
        forwarded = {**body, "model": self.model, "stream": False}
        response = self._http.post("/api/chat", json=forwarded)
        if response.status_code != 200:
            return Reply(http_status=response.status_code, error=response.text[:300])
        data = response.json()
        return Reply(text=str((data.get("message") or {}).get("content", "")),
                     prompt_eval_count=data.get("prompt_eval_count"))


async def _converse(controller: Any, relay: _Relay, conversation: Conversation, think_s: float,
                    probe_every: int) -> list[dict[str, Any]]:
    probes = []
    controller.new_chat("memory bench")
    last = len(conversation.turns) - 1
    for turn in conversation.turns:
        relay.turn_text, relay.reply_text = turn.user, turn.assistant
        task = controller.send(turn.user)
        if task is None:
            raise RuntimeError("the controller refused a send")
        await task
        if turn.user_pinned:
            users = [m for m in controller.session.engine.display_messages() if m.role == "user"]
            controller.set_pinned(users[-1].id, True)
        if think_s > 0:
            await asyncio.sleep(think_s)
        if turn.index % probe_every == probe_every - 1 or turn.index == last:
            probes.append(probe(conversation, controller.session.engine.api_messages(), turn.index))
            log(f"[app] turn {turn.index + 1}/{len(conversation.turns)}: waited "
                f"{controller.turn_waits['waited']}/{controller.turn_waits['turns']}")
    while controller.compacting:
        await asyncio.sleep(0.05)
    return probes


def run_app(args: argparse.Namespace) -> int:
    """Plays each conversation and context size through the app; writes the usual files."""
    from bench.common import qasync_loop
    from ollm_desktop.controller import ChatController
    from ollm_desktop.paths import app_paths
    from ollm_desktop.session import Settings
    from ollm_desktop.storage import ChatStore
    from tests.ollama_server import FakeModel, FakeOllama

    started = time.monotonic()
    model = SMOKE_MODEL if args.smoke else (args.model or "")
    if not args.smoke and not model:
        raise SystemExit("--app needs --model with a real host")
    turns, ctxs, kinds = args.turns, args.ctx, args.kinds
    think_s = 0.0 if args.smoke else args.think_s
    relay = _Relay(None if args.smoke else args.host, model)
    server = FakeOllama([FakeModel(model, "llama", "135M", 32768, "Q4_1", 98_000_000,
                                   parameter_count=135_000_000)])
    server.reply_fn = relay
    server.start()
    runs: list[dict[str, Any]] = []
    try:
        for ctx in ctxs:
            for kind in kinds:
                for seed in args.seeds:
                    conversation = generate(kind, turns, seed, args.filler)
                    with tempfile.TemporaryDirectory() as tmp:
                        paths = app_paths(Path(tmp) / "data")
                        paths.ensure()
                        store, _ = ChatStore.open(paths)
                        settings = Settings(ollama_host=server.url, default_model=model,
                                            context_size=ctx)
                        controller = ChatController(store, settings, model=model)
                        run_started = time.monotonic()
                        with qasync_loop() as loop:
                            try:
                                probes = loop.run_until_complete(_converse(
                                    controller, relay, conversation, think_s,
                                    args.probe_every))
                            finally:
                                loop.run_until_complete(controller.shutdown())
                        waits = dict(controller.turn_waits)
                        store.close()
                    runs.append(_run(conversation, ctx, probes, waits, relay, server,
                                     time.monotonic() - run_started))
    finally:
        server.stop()
        relay.close()
    params = {"label": args.label or "app", "model": model, "host": args.host, "ctx": ctxs,
              "turns": turns, "seeds": args.seeds, "kinds": kinds, "app": True,
              "filler": args.filler, "think_s": think_s, "smoke": args.smoke,
              "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
              "wall_s": round(time.monotonic() - started, 1), **engine_info()}
    summary = report.aggregate(runs)
    name = f"memory-app-{args.label}" if args.label else "memory-app"
    path = report.write({"params": params, "summary": summary, "runs": runs}, args.out, name)
    print(report.table(summary))
    print(f"results: {path}")
    return 0


def _run(conversation: Conversation, ctx: int, probes: list[dict[str, Any]],
         waits: dict[str, int], relay: _Relay, server: Any, seconds: float) -> dict[str, Any]:
    over = sum(1 for s in server.streams if s.prompt_eval_count and s.prompt_eval_count > ctx)
    turns = max(1, waits.get("turns", 0))
    cost = {"summarizer_calls": relay.summary_calls, "summarizer_failures": 0,
            "summarizer_input_tokens": 0, "summarizer_output_tokens": 0,
            "conversation_tokens": 1, "compactions": 0, "compaction_seconds": [],
            "turns": turns, "waited_turns": waits.get("waited", 0),
            "turn_requests": len(server.streams), "overflow_requests": over + len(
                server.rejected), "prompt_eval_ratio_max": 0.0}
    relay.summary_calls = 0
    return {"kind": conversation.kind, "seed": conversation.seed, "ctx": ctx,
            "strategy": "ollm-app", "turns": len(conversation.turns), "probes": probes,
            "qa": [], "cost": cost, "seconds": seconds}
