"""Ollama failing in every way we know, through the real controller and backend.

For each fault: the right kind and a readable message reach the UI signals, the user's text
is not lost (given back by ``sendFailed`` or kept in the history), and once the fault is
cleared the same text can be sent again and gets its answer, exactly once in the history.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from ollm_desktop.controller import ChatController
from tests.controller_harness import make_controller, run, settle, shutdown, turn, until
from tests.ollama_server import FakeModel, FakeOllama, Reply

pytestmark = pytest.mark.faultgroup("ollama")

QUESTION = "What is the capital of the moon?"
ANSWER = "There is none, but the retry worked."


@dataclass
class Seen:
    """Everything the controller told the UI."""

    errors: list[tuple[str, str]] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    statuses: list[Any] = field(default_factory=list)
    chunks: list[str] = field(default_factory=list)
    finished: list[tuple[Any, Any]] = field(default_factory=list)

    def watch(self, c: ChatController) -> Seen:
        c.error.connect(lambda kind, text: self.errors.append((kind, text)))
        c.sendFailed.connect(lambda text, why: self.failed.append((text, why)))
        c.ollamaStatus.connect(self.statuses.append)
        c.replyChunk.connect(lambda _id, text: self.chunks.append(text))
        c.replyFinished.connect(lambda m, info: self.finished.append((m, info)))
        return self

    def kinds(self) -> list[str]:
        return [kind for kind, _ in self.errors]


class Servers:
    """The fake Ollama, and its replacement on the same port once a 'down' fault is cleared."""

    def __init__(self, first: FakeOllama) -> None:
        self.current = first
        self.port = first.port
        self.extra: list[FakeOllama] = []

    def restart(self) -> FakeOllama:
        self.current.stop()
        fresh = FakeOllama().start(self.port)
        self.extra.append(fresh)
        self.current = fresh
        return fresh


@pytest.fixture
def servers(ollama_server: FakeOllama) -> Iterator[Servers]:
    holder = Servers(ollama_server)
    yield holder
    for server in holder.extra:
        assert server.stop() == 0


@pytest.fixture
def controller(qloop, tmp_path, ollama_server) -> Iterator[ChatController]:
    c = make_controller(tmp_path / "data", ollama_server)
    yield c
    shutdown(qloop, c)


def contents(c: ChatController) -> list[str]:
    return [m.content for m in c.session.engine.display_messages()] if c.session.engine else []


def stored_contents(c: ChatController) -> list[str]:
    assert c.chat is not None
    state = c.session.store.load_engine_state(c.chat.id)
    return [m.content for m in state.messages] if state else []


async def retry_works(c: ChatController, server: FakeOllama) -> None:
    server.script(ANSWER)
    if QUESTION in contents(c):
        # The text is in the history with a partial or empty reply: the user asks again.
        await turn(c, "Please answer again: " + QUESTION)
    else:
        await turn(c, QUESTION)


def assert_recovered(c: ChatController) -> None:
    shown = contents(c)
    assert shown[-1] == ANSWER
    assert shown.count(QUESTION) == 1, shown
    assert stored_contents(c) == shown


def test_down_at_start_then_started(qloop, controller, servers):
    seen = Seen().watch(controller)
    servers.current.stop()

    async def scenario() -> None:
        status = await controller.refresh_ollama()
        assert not status.reachable and "not reachable" in (status.error or "")
        await turn(controller, QUESTION)
        assert seen.failed and seen.failed[-1][0] == QUESTION
        assert "not reachable" in seen.failed[-1][1]
        fresh = servers.restart()
        status = await controller.refresh_ollama()
        assert status.reachable and not status.model_missing
        await retry_works(controller, fresh)

    run(qloop, scenario())
    assert seen.statuses[0].reachable is False and seen.statuses[-1].reachable is True
    assert_recovered(controller)


def test_down_mid_stream_keeps_the_partial_reply(qloop, controller, servers):
    seen = Seen().watch(controller)
    servers.current.script(Reply(text=" ".join(f"w{i}" for i in range(300)),
                                 delay_per_chunk=0.01))

    async def scenario() -> None:
        task = controller.send(QUESTION)
        await until(lambda: len(seen.chunks) >= 5)
        servers.current.stop()
        await asyncio.gather(task, return_exceptions=True)
        await settle(controller)
        assert "stream_cut" in seen.kinds(), seen.errors
        await retry_works(controller, servers.restart())

    run(qloop, scenario())
    partial = seen.finished[0][0]
    assert partial.partial and partial.content.startswith("w0 w1 w2")
    assert partial.content in contents(controller)
    assert_recovered_after_partial(controller)


def assert_recovered_after_partial(c: ChatController) -> None:
    shown = contents(c)
    assert shown.count(QUESTION) == 1 and shown[-1] == ANSWER
    assert stored_contents(c) == shown


@pytest.mark.parametrize(("reply", "says"), [
    (Reply(http_status=500, error="CUDA out of memory"), "HTTP 500"),
    (Reply(error_after=0, error="model runner crashed"), "runner crashed"),
    (Reply(cut_after=0), "connection to Ollama broke"),
    (Reply(cut_after=0, cut_mid_chunk=True), "connection to Ollama broke"),
], ids=["http-500", "error-line-first", "cut-before-text", "cut-mid-chunk"])
def test_failure_before_any_text_gives_the_text_back(qloop, controller, servers, reply, says):
    """Nothing arrived: the kind shows in sendFailed's text, the input gets the text back."""
    seen = Seen().watch(controller)
    servers.current.script(reply)

    async def scenario() -> None:
        await turn(controller, QUESTION)
        assert seen.failed == [(QUESTION, seen.failed[0][1])]
        assert says in seen.failed[0][1], seen.failed
        assert QUESTION not in contents(controller) + stored_contents(controller)
        await retry_works(controller, servers.current)

    run(qloop, scenario())
    assert_recovered(controller)


@pytest.mark.parametrize(("reply", "kind"), [
    (Reply(text="one two three four five six seven", error_after=3, error="GPU lost"),
     "stream_error"),
    (Reply(text="one two three four five six seven", cut_after=3), "stream_cut"),
    (Reply(text="one two three four five six seven", cut_after=3, cut_mid_chunk=True),
     "stream_cut"),
], ids=["error-line-mid-stream", "cut-mid-stream", "cut-mid-chunk-mid-stream"])
def test_failure_after_some_text_keeps_it_and_says_so(qloop, controller, servers, reply, kind):
    seen = Seen().watch(controller)
    servers.current.script(reply)

    async def scenario() -> None:
        await turn(controller, QUESTION)
        await retry_works(controller, servers.current)

    run(qloop, scenario())
    assert kind in seen.kinds(), seen.errors
    message = next(text for k, text in seen.errors if k == kind)
    assert message.strip() and "Traceback" not in message
    kept = seen.finished[0][0]
    assert kept.partial and kept.content.startswith("one two three")
    assert not seen.failed  # the text stays in the history with what arrived
    assert_recovered_after_partial(controller)


def test_very_slow_reply_can_be_stopped(qloop, controller, servers):
    seen = Seen().watch(controller)
    servers.current.script(Reply(text="late", delay_before=30.0))

    async def scenario() -> float:
        task = controller.send(QUESTION)
        await until(lambda: len(servers.current.chat_requests()) == 1)
        await asyncio.sleep(0.3)  # the model is "thinking"; nothing has arrived
        assert controller.busy and not seen.chunks
        started = time.monotonic()
        controller.stop()
        await asyncio.gather(task, return_exceptions=True)
        latency = time.monotonic() - started
        await retry_works(controller, servers.current)
        return latency

    latency = run(qloop, scenario())
    assert latency < 1.0
    assert seen.finished[0][1].stopped and seen.finished[0][1].removed
    assert not controller.busy
    assert_recovered_after_partial(controller)


def test_missing_model_is_named_and_retry_works_once_installed(qloop, controller, servers):
    seen = Seen().watch(controller)

    async def scenario() -> None:
        controller.set_model("qwen3:4b")
        await settle(controller)
        status = await controller.refresh_ollama()
        assert status.model_missing
        await turn(controller, QUESTION)
        assert seen.failed and seen.failed[-1][0] == QUESTION
        assert "qwen3:4b" in seen.failed[-1][1] and "not installed" in seen.failed[-1][1]
        servers.current.models.append(FakeModel("qwen3:4b", "qwen3", "4.0B", 40960))
        assert not (await controller.refresh_ollama()).model_missing
        await retry_works(controller, servers.current)

    run(qloop, scenario())
    assert "model_not_found" in seen.kinds()
    assert_recovered(controller)
