"""The turn's tool loop against the loopback Ollama (tool calls on its wire) and the loopback
MCP server: approval, "Always" for one chat, the read-only switch, the loop cap and the
identical-call breaker (each with a test that fails without it), Stop on a running call, and
a 50,000-token result at 2K that never makes a request exceed num_ctx."""

from __future__ import annotations

import asyncio
import itertools
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from ollm_desktop.backend.client import OllamaBackend
from ollm_desktop.backend.mcp_config import McpServer
from ollm_desktop.backend.mcp_connection import ToolOutcome
from ollm_desktop.engine import ContextEngine, EngineConfig
from ollm_desktop.engine.tool_types import ToolCall, ToolSpec
from ollm_desktop.session.tool_loop import ChatTools, Decision, ToolLoop
from ollm_desktop.session.tool_servers import ToolServers
from tests.engine_fakes import GoodSummarizer
from tests.ollama_server import FakeModel, FakeOllama, Reply

MODEL = "qwen3:4b"
ROOT = Path(__file__).resolve().parents[1]
ECHO = ToolSpec(name="echo", description="Echo.", server="local", parameters={
    "type": "object", "properties": {"text": {"type": "string"}}})
NOTE = ToolSpec(name="read_note", description="Read.", server="local", read_only=True,
                parameters={"type": "object", "properties": {"name": {"type": "string"}}})


class Runner:
    """Records the calls that really ran."""

    def __init__(self, hang: bool = False) -> None:
        self.ran: list[tuple[str, dict[str, Any]]] = []
        self.hang = hang
        self.started = asyncio.Event()
        self.cancelled = False

    async def call(self, server: str, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        self.ran.append((name, arguments))
        if self.hang:
            self.started.set()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                self.cancelled = True
                raise
        return ToolOutcome(f"{name} said {arguments}")


def asker(*answers: Decision):
    asked: list[str] = []
    queue = list(answers)

    async def ask(call: ToolCall, spec: ToolSpec) -> Decision:
        asked.append(call.name)
        return queue.pop(0) if queue else "once"

    ask.asked = asked  # type: ignore[attr-defined]
    return ask


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[tuple[FakeOllama, OllamaBackend]]:
    with FakeOllama([FakeModel(MODEL, capabilities=("completion", "tools"))]).running() as server:
        backend = OllamaBackend(server.url, timeout=5.0)
        try:
            yield server, backend
        finally:
            await backend.close()


def engine_at(size: int = 4096) -> ContextEngine:
    engine = ContextEngine(EngineConfig(context_size=size), GoodSummarizer(), "Use tools.")
    engine.add("user", "Please use the tools.")
    return engine


def loop(engine, backend, runner, ask, tools: ChatTools | None = None, **kw) -> ToolLoop:
    engine.set_tools([ECHO, NOTE])
    return ToolLoop(engine, backend, MODEL, specs=[ECHO, NOTE], runner=runner, ask=ask,
                    chat_tools=tools or ChatTools(), **kw)


def calling(name: str, **arguments: Any) -> Reply:
    return Reply(text="", tool_calls=[{"name": name, "arguments": arguments}])


@pytest.mark.asyncio
async def test_denied_calls_never_run_and_the_model_is_told(fake) -> None:
    server, backend = fake
    server.script(calling("echo", text="rm -rf"), Reply(text="Understood, I will not."))
    runner, ask = Runner(), asker("deny")
    engine = engine_at()
    end = await loop(engine, backend, runner, ask).run()
    assert runner.ran == [] and ask.asked == ["echo"]
    assert end.reason == "answered" and end.replies[-1].content == "Understood, I will not."
    second = server.chat_requests()[1]["messages"]
    assert second[-1]["role"] == "tool" and "denied" in second[-1]["content"]


@pytest.mark.asyncio
async def test_always_is_kept_for_that_chat_only(fake) -> None:
    server, backend = fake
    server.script(calling("echo", text="a"), calling("echo", text="b"), Reply(text="done"))
    saved: list[ChatTools] = []
    runner, ask = Runner(), asker("always")
    end = await loop(engine_at(), backend, runner, ask, save=saved.append).run()
    assert end.reason == "answered" and len(runner.ran) == 2
    assert ask.asked == ["echo"]  # the second call was not asked again
    assert saved[-1].always == ["local/echo"]
    # the same chat's next turn: still allowed; another chat (its own ChatTools): asked
    server.script(calling("echo", text="c"), Reply(text="ok"))
    again = asker()
    await loop(engine_at(), backend, Runner(), again, tools=saved[-1]).run()
    assert again.asked == []
    server.script(calling("echo", text="d"), Reply(text="ok"))
    other = asker("once")
    await loop(engine_at(), backend, Runner(), other, tools=ChatTools()).run()
    assert other.asked == ["echo"]


@pytest.mark.asyncio
async def test_read_only_switch_runs_only_read_only_tools(fake) -> None:
    server, backend = fake
    server.script(Reply(text="", tool_calls=[{"name": "echo", "arguments": {"text": "x"}},
                                             {"name": "read_note", "arguments": {"name": "a"}}]),
                  Reply(text="ok"))
    runner = Runner()
    await loop(engine_at(), backend, runner, asker("once", "once"),
               read_only_servers={"local"}).run()
    assert [name for name, _ in runner.ran] == ["read_note"]


@pytest.mark.asyncio
@pytest.mark.parametrize("cap", [8, 3])
async def test_the_loop_cap_stops_a_turn(fake, cap: int) -> None:
    server, backend = fake
    counter = itertools.count()
    # A model that would make 20 different calls before answering: without the cap all 20 run.
    server.reply_fn = lambda body: calling("echo", text=f"call {n}") if (
        n := next(counter)) < 20 else Reply(text="done at last")
    runner = Runner()
    end = await loop(engine_at(), backend, runner, asker(),
                     tools=ChatTools(always=["local/echo"], max_calls=cap)).run()
    assert len(runner.ran) == cap
    assert end.reason == "cap" and f"limit of {cap}" in end.note


@pytest.mark.asyncio
async def test_the_identical_call_breaker_ends_the_turn(fake) -> None:
    server, backend = fake
    server.reply_fn = lambda body: calling("echo", text="same")
    runner = Runner()
    end = await loop(engine_at(), backend, runner, asker(),
                     tools=ChatTools(always=["local/echo"])).run()
    assert len(runner.ran) == 2  # the third identical call is not run (the cap would be 8)
    assert end.reason == "breaker" and "same arguments 3 times" in end.note


@pytest.mark.asyncio
async def test_stop_cancels_a_running_call(fake) -> None:
    server, backend = fake
    server.script(calling("echo", text="slow"))
    runner = Runner(hang=True)
    engine = engine_at()
    task = asyncio.create_task(loop(engine, backend, runner, asker("once")).run(),
                               name="test-tool-loop")
    await asyncio.wait_for(runner.started.wait(), 20)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert runner.cancelled
    last = engine.display_messages()[-1]
    assert last.role == "tool" and "stopped" in last.content


@pytest.mark.asyncio
async def test_a_huge_result_over_real_mcp_never_exceeds_num_ctx(fake, tmp_path: Path) -> None:
    server, backend = fake
    mcp = ToolServers([McpServer(name="tests", command=sys.executable,
                                 args=["-m", "tests.mcp_server", "stdio"], cwd=str(ROOT),
                                 env={"PYTHONPATH": str(ROOT)})], log_dir=tmp_path)
    try:
        specs = [s for s in await mcp.tools(["tests"]) if s.name in ("big", "echo")]
        engine = engine_at(2048)
        engine.set_tools(specs)
        server.script(calling("big"), calling("echo", text="again"), Reply(text="Read it."))
        end = await ToolLoop(engine, backend, MODEL, specs=specs, runner=mcp, ask=asker(),
                             chat_tools=ChatTools()).run()
    finally:
        await mcp.close()
    assert end.reason == "answered" and end.calls == 2
    assert server.rejected == []  # no request over num_ctx
    for record in server.streams:
        assert record.prompt_eval_count is not None and record.prompt_eval_count <= 2048
    result = next(m for m in engine.display_messages() if m.tool_name == "big")
    assert len(result.content) > 100_000  # the whole result stays in the history
    sent = server.chat_requests()[1]["messages"][-1]["content"]
    assert "were cut here" in sent and len(sent) < 2_000 * 4


@pytest.mark.asyncio
async def test_stop_while_a_call_waits_for_approval_answers_it_unrun(fake) -> None:
    server, backend = fake
    server.script(calling("echo", text="x"))
    waiting = asyncio.Event()

    async def ask(call: ToolCall, spec: ToolSpec) -> Decision:
        waiting.set()
        await asyncio.Event().wait()
        return "once"  # pragma: no cover - never answered

    runner, engine = Runner(), engine_at()
    task = asyncio.create_task(loop(engine, backend, runner, ask).run(), name="test-ask")
    await asyncio.wait_for(waiting.wait(), 20)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    last = engine.display_messages()[-1]
    assert runner.ran == [] and last.role == "tool" and "stopped" in last.content
