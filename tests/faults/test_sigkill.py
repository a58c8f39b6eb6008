"""SIGKILL at 50 seeded points while streaming, saving and compacting: nothing committed is lost.

Each kill gets its own child process (``tests/faults/kill_child.py``: a real ChatController,
real SQLite store, real backend to the fake Ollama started here). Two chains of 25 kills run
side by side; within a chain every child resumes the database the previous one was killed on,
so "the chat resumes" is exercised 25 times per chain and a final child must finish normally.
After each kill the database is reopened here and checked (see ``verify``).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from ollm_desktop.engine import ContextEngine, EngineConfig
from ollm_desktop.paths import app_paths
from ollm_desktop.storage import ChatStore
from tests.controller_harness import is_summary_request, scripted_model
from tests.faults import tally
from tests.faults.kill_child import CONTEXT, MODEL, settings_for
from tests.ollama_server import FakeOllama, Reply

REPO = Path(__file__).resolve().parents[2]
SEED = 20261101
CHAINS = 2
KILLS_PER_CHAIN = int(os.environ.get("FAULTS_KILLS_PER_CHAIN", "25"))
STREAM_DELAY = 0.004  # per streamed word: a 150-word reply streams for about 0.6 s
SUMMARY_DELAY = 0.35  # each summary takes this long, so kills land mid-compaction
WAIT_LIMIT = 12.0  # kill anyway if the planned moment never comes


@dataclass
class KillPlan:
    mode: str  # "stream" | "compaction" | "line": what to wait for before the delay
    delay: float
    lines: int = 0


@dataclass
class Chain:
    """What the children of one chain reported as committed, accumulated across kills."""

    data_dir: Path
    chat_id: str | None = None
    committed: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (role, text)
    order: list[str] = field(default_factory=list)
    pinned: set[str] = field(default_factory=set)
    phases: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


def plan_kills(chain: int) -> list[KillPlan]:
    rng = random.Random(SEED + chain)
    plans = []
    for _ in range(KILLS_PER_CHAIN):
        mode = rng.choice(["stream", "stream", "compaction", "compaction", "line"])
        plans.append(KillPlan(mode, rng.uniform(0.0, 0.4), rng.randint(1, 30)))
    return plans


def model_reply(body: dict[str, Any]) -> Reply:
    text = SCRIPT(body)
    if is_summary_request(body):
        return Reply(text=text, delay_before=SUMMARY_DELAY)
    return Reply(text=text, delay_per_chunk=STREAM_DELAY)


SCRIPT = scripted_model(reply_words=150)


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO)
    env["QT_QPA_PLATFORM"] = "offscreen"
    env.pop("OLLAMA_HOST", None)
    return env


def run_child(chain: Chain, port: int, run: int, plan: KillPlan | None, turns: int = 40,
              ) -> tuple[int, list[dict[str, Any]], str]:
    """Start a child, SIGKILL it as planned (None: let it finish); its events and phase."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.faults.kill_child", "--data-dir", str(chain.data_dir),
         "--port", str(port), "--run", str(run), "--turns", str(turns)],
        cwd=REPO, env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    killer: threading.Timer | None = None

    def kill() -> None:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)

    watchdog = threading.Timer(WAIT_LIMIT + 8.0, kill)
    watchdog.start()
    events: list[dict[str, Any]] = []
    phase = "startup"
    ready_at: float | None = None
    try:
        for raw in proc.stdout:
            if not raw.endswith(b"\n"):
                break  # cut mid-line by the kill: nothing it says is known
            event = json.loads(raw)
            events.append(event)
            if event["ev"] == "phase":
                phase = event["phase"]
                if phase == "ready":
                    ready_at = time.monotonic()
            if plan is None or killer is not None or ready_at is None:
                continue
            due = (plan.mode == "line" and len(events) >= plan.lines) or \
                (event["ev"] == "phase" and event["phase"] == plan.mode) or \
                time.monotonic() - ready_at > WAIT_LIMIT
            if due:
                killer = threading.Timer(plan.delay, kill)
                killer.start()
        code = proc.wait(30)
    finally:
        watchdog.cancel()
        if killer is not None:
            killer.join()
        if proc.poll() is None:
            kill()
            proc.wait()
    stderr = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    proc.stdout.close()
    if proc.stderr:
        proc.stderr.close()
    if code not in (0, -signal.SIGKILL):
        chain.problems.append(f"run {run}: child exited {code}: {stderr[-2000:]}")
    return code, events, phase


def absorb(chain: Chain, events: list[dict[str, Any]]) -> None:
    for event in events:
        kind = event["ev"]
        if kind in ("append", "update"):
            chain.chat_id = chain.chat_id or event["chat"]
            if event["id"] not in chain.committed:
                chain.order.append(event["id"])
            chain.committed[event["id"]] = (event["role"], event["content"])
        elif kind == "delete":
            chain.committed.pop(event["id"], None)
            chain.order = [i for i in chain.order if i != event["id"]]
        elif kind == "pin":
            (chain.pinned.add if event["pinned"] else chain.pinned.discard)(event["id"])
        elif kind in ("notice", "refused"):
            chain.problems.append(f"child reported {event}")


async def _never(_prompt: list[dict[str, str]]) -> str:
    raise AssertionError("verification must not summarize")


def verify(chain: Chain) -> list[str]:
    """Reopen the killed database: intact, nothing committed lost, context consistent."""
    problems: list[str] = []
    paths = app_paths(chain.data_dir)
    with sqlite3.connect(paths.database) as conn:
        check = conn.execute("PRAGMA integrity_check").fetchall()
    conn.close()
    if check != [("ok",)]:
        return [f"integrity_check: {check}"]
    store, notices = ChatStore.open(paths)
    try:
        if notices:
            problems.append(f"database set aside on reopen: {[n.text for n in notices]}")
        if chain.chat_id is None:
            return problems
        state = store.load_engine_state(chain.chat_id)
        if state is None:
            return [*problems, "no engine state for the chat"]
        config = EngineConfig(context_size=CONTEXT, **_engine_settings())
        calibration = store.get_calibration(MODEL)
        if calibration:
            config.estimate_scale = calibration[0]
        engine = ContextEngine.from_state(state, config, _never)
        shown = {m.id: m for m in engine.display_messages()}
        for mid, (role, text) in chain.committed.items():
            message = shown.get(mid)
            if message is None:
                problems.append(f"committed {role} message {mid} lost")
            elif role == "user" and message.content != text:
                problems.append(f"user message {mid} changed")
            elif not message.content.startswith(text):
                problems.append(f"reply {mid} lost committed text ({len(text)} chars)")
        display_order = [m.id for m in engine.display_messages() if m.id in chain.committed]
        if display_order != [i for i in chain.order if i in shown]:
            problems.append("committed messages out of order")
        for mid in chain.pinned:
            if mid in shown and not shown[mid].pinned:
                problems.append(f"pin of {mid} lost")
        # The engine's own accounting (Ollama's exact counts for replies, calibrated estimates
        # for the rest) and the fake model's tokenizer must both see a prompt that fits.
        model_view, _ = FakeOllama().prompt_count(engine.api_messages(), None)
        if engine.api_tokens() > engine.usable or model_view > CONTEXT:
            problems.append(f"context does not fit: engine {engine.api_tokens()} > usable "
                            f"{engine.usable} or model {model_view} > num_ctx {CONTEXT}")
        stored_ids = [m.id for m in store.messages(chain.chat_id)]
        if stored_ids != [m.id for m in engine.display_messages()]:
            problems.append("message rows and engine state disagree")
    finally:
        store.close()
    return problems


def _engine_settings() -> dict[str, Any]:
    settings = settings_for(0)
    return {"trigger_ratio": settings.trigger_ratio,
            "preserve_recent_tokens": settings.preserve_recent_tokens,
            "preserve_user_messages": settings.preserve_user_messages}


def run_chain(index: int, chain: Chain, port: int) -> None:
    for run, plan in enumerate(plan_kills(index)):
        code, events, phase = run_child(chain, port, index * 1000 + run, plan)
        absorb(chain, events)
        chain.phases[phase] += 1
        problems = verify(chain)
        if code != -signal.SIGKILL:
            problems.append(f"run {run}: not killed (exit {code})")
        chain.problems.extend(f"chain {index} kill {run} ({plan.mode}, {phase}): {p}"
                              for p in problems)
        tally.record("sigkill", not problems)
    # The last killed database must still chat normally, to the end.
    code, events, _phase = run_child(chain, port, index * 1000 + 999, None, turns=2)
    absorb(chain, events)
    if code != 0 or not any(e["ev"] == "phase" and e["phase"] == "end" for e in events):
        chain.problems.append(f"chain {index}: resumed child did not finish (exit {code})")
    chain.problems.extend(f"chain {index} resume: {p}" for p in verify(chain))


@pytest.fixture(scope="module")
def slow_ollama():
    fake = FakeOllama().start()
    fake.reply_fn = model_reply
    try:
        yield fake
    finally:
        fake.stop()


def test_sigkill_at_50_seeded_points_loses_nothing_committed(slow_ollama, tmp_path):
    chains = [Chain(tmp_path / f"chain{i}") for i in range(CHAINS)]
    threads = [threading.Thread(target=run_chain, args=(i, chain, slow_ollama.port))
               for i, chain in enumerate(chains)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    phases = sum((c.phases for c in chains), Counter())
    for name, count in phases.items():
        tally.note("sigkill", f"killed in {name}", count)
    tally.note("sigkill", "messages checked", sum(len(c.committed) for c in chains))
    problems = [p for c in chains for p in c.problems]
    assert not problems, "\n".join(problems[:20])
    # The kills really hit all three kinds of work, and compaction happened along the way.
    assert phases["stream"] >= 10 and phases["compaction"] >= 5, phases
    assert all(len(c.committed) >= 40 for c in chains)
    summaries = sum(1 for b in slow_ollama.chat_requests() if is_summary_request(b))
    assert summaries >= 5
