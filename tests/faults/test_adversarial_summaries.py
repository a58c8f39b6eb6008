"""200 generated conversations against a model whose summaries misbehave, checked on the wire.

The fake model's tokenizer is made identical to ours (each streamed chunk is one cl100k token
and ``prompt_eval_count`` is our count), so a recount of every request's messages is exactly
what the model would see. Summaries come back empty, longer than their input, as garbage, as
an HTTP error, or too late (the engine's summary timeout is shortened here). Whatever happens:
no chat request exceeds ``num_ctx`` or the engine's usable budget, and every pinned message is
in every chat request verbatim.
"""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ollm_desktop.engine import count_message_tokens
from ollm_desktop.session.core import SessionCore
from tests.controller_harness import is_summary_request, make_controller, run, settle
from tests.engine_fakes import prompt_target, words
from tests.faults import tally
from tests.faults.servers import TokenExactOllama
from tests.ollama_server import FakeOllama, Reply

MODES = ["ok", "empty", "longer", "garbage", "http", "slow"]
SUMMARY_TIMEOUT = 0.05  # the engine's limit here; a "slow" summary takes longer
SLOW_SUMMARY = 0.2
GARBAGE = "\x00}{]]\ufffd<<<" * 3 + "\u202e\u200b" + "\U0001f4a5" * 5


def model_chunks(text: str, pieces: int = 6) -> list[str]:
    """A few big chunks (``TokenExactOllama`` counts the reply's tokens itself)."""
    if not text:
        return []
    size = max(1, -(-len(text) // pieces))
    return [text[i:i + size] for i in range(0, len(text), size)]


def prompt_tokens(messages: list[dict[str, Any]]) -> int:
    return sum(count_message_tokens(str(m.get("content", ""))) for m in messages)


class Behaviour:
    """Answers of the fake model for one example (called on the server's threads)."""

    def __init__(self, reply_sizes: list[int], summary_modes: list[str]) -> None:
        self.reply_sizes = itertools.cycle(reply_sizes or [20])
        self.modes = itertools.cycle(summary_modes or ["ok"])
        self.used: list[str] = []
        self.turn = 0

    def __call__(self, body: dict[str, Any]) -> Reply:
        messages = body["messages"]
        prompt = prompt_tokens(messages)
        if is_summary_request(body):
            mode = next(self.modes)
            self.used.append(mode)
            target = prompt_target(messages)
            good = "## Context\nWhat was said.\n## Key Information\n" + words(target // 3, 7)
            if mode == "http":
                return Reply(http_status=500, error="summary crashed")
            text = {"ok": good, "empty": "", "garbage": GARBAGE,
                    "longer": "\n".join(str(m.get("content", "")) for m in messages) * 2,
                    "slow": good}[mode]
            return Reply(chunks=model_chunks(text), prompt_eval_count=prompt,
                         delay_before=SLOW_SUMMARY if mode == "slow" else 0.0)
        self.turn += 1
        text = f"Answer {self.turn}: " + words(next(self.reply_sizes), self.turn)
        return Reply(chunks=model_chunks(text), prompt_eval_count=prompt)


@pytest.fixture(scope="module")
def shared_ollama() -> Iterator[FakeOllama]:
    fake = TokenExactOllama().start()
    try:
        yield fake
    finally:
        fake.stop()


@pytest.fixture(scope="module")
def short_summary_timeout() -> Iterator[None]:
    """Every chat's engine gets short time limits."""
    original = SessionCore.config_for

    def config_for(self: SessionCore, chat: Any) -> Any:
        config = original(self, chat)
        config.summary_timeout_s = SUMMARY_TIMEOUT
        config.compaction_timeout_s = SUMMARY_TIMEOUT * 4
        return config

    with mock.patch.object(SessionCore, "config_for", config_for):
        yield


def reset(server: FakeOllama, behaviour: Behaviour) -> None:
    with server._lock:
        server.requests.clear()
        server.streams.clear()
        server.replies.clear()
        server.path_failures.clear()
    server.reply_fn = behaviour


turn_strategy = st.tuples(
    st.floats(0.0, 0.15),  # user message length, as a share of the context
    st.one_of(st.none(), st.integers(0, 10_000)),  # pin the n-th message (mod count) first
)

conversation = st.fixed_dictionaries({
    "context": st.integers(2048, 16384),
    "preserve": st.integers(0, 1500),
    "turns": st.lists(turn_strategy, min_size=4, max_size=10),
    "reply_shares": st.lists(st.floats(0.0, 0.1), min_size=1, max_size=4),
    "summary_modes": st.lists(st.sampled_from(MODES), min_size=1, max_size=4),
})


async def converse(server: FakeOllama, folder: Path, case: dict[str, Any]) -> list[str]:
    """One conversation; returns the problems seen on the wire (empty when all is well)."""
    context = case["context"]
    behaviour = Behaviour([int(s * context) for s in case["reply_shares"]],
                          case["summary_modes"])
    reset(server, behaviour)
    c = make_controller(folder, server, context_size=context,
                        preserve_recent_tokens=case["preserve"])
    problems: list[str] = []
    try:
        for index, (share, pin) in enumerate(case["turns"]):
            engine = c.session.engine
            if pin is not None and engine is not None and engine.display_messages():
                shown = engine.display_messages()
                c.set_pinned(shown[pin % len(shown)].id, True)
            pinned = [m.content for m in c.session.engine.display_messages() if m.pinned] \
                if c.session.engine else []
            before = len(server.chat_requests())
            task = c.send(f"Question {index}: " + words(max(1, int(share * context)), index))
            if task is not None:
                await task
            await settle(c)
            usable = c.session.engine.usable if c.session.engine else context
            for body in server.chat_requests()[before:]:
                sent = prompt_tokens(body["messages"])
                tally.note("hypothesis", "requests checked")
                if body["options"]["num_ctx"] != context:
                    problems.append(f"num_ctx {body['options']['num_ctx']} != {context}")
                if sent > context or sent > usable:
                    tally.note("hypothesis", "requests over budget")
                    problems.append(f"turn {index}: {sent} tokens sent, num_ctx {context}, "
                                    f"usable {usable}")
                if is_summary_request(body):
                    continue
                tally.note("hypothesis", "pin checks", len(pinned))
                sent_text = [str(m["content"]) for m in body["messages"]]
                for content in pinned:
                    if not any(content in text for text in sent_text):
                        tally.note("hypothesis", "pins missing")
                        problems.append(f"turn {index}: a pinned message is not in the request")
    finally:
        await c.shutdown()
    for mode in behaviour.used:
        tally.note("hypothesis", f"summaries {mode}")
    return problems


COUNTER = itertools.count()


@settings(max_examples=200, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(case=conversation)
def test_no_request_overflows_and_pins_are_always_sent(qloop, shared_ollama,
                                                       short_summary_timeout, case):
    with tempfile.TemporaryDirectory(prefix="ollm-hyp-") as folder:
        problems = run(qloop, converse(shared_ollama, Path(folder) / f"d{next(COUNTER)}", case))
    tally.record("hypothesis", not problems)
    assert not problems, problems[:5]
