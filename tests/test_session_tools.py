"""Tools through a real turn of the Qt-free session: the chat's tools offered on the wire, a
call awaiting the user's answer (no dialog: ``answer``), the result stored and shown, the
model asked again; a model without tools told so; a chat without tools sends none; and the
session's close leaves no MCP child or task."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest

from ollm_desktop.backend.mcp_config import McpServer
from ollm_desktop.paths import app_paths
from ollm_desktop.session import ChatSession
from ollm_desktop.session.tool_loop import CallEvent, ChatTools
from ollm_desktop.storage import ChatStore
from tests.controller_harness import make_settings
from tests.ollama_server import FakeModel, FakeOllama, Reply
from tests.test_mcp_connection import children

ROOT = Path(__file__).resolve().parents[1]
MODEL = "llama3.2:3b"
TOOLS = McpServer(name="tests", command=sys.executable, args=["-m", "tests.mcp_server", "stdio"],
                  cwd=str(ROOT), env={"PYTHONPATH": str(ROOT)})


async def until(predicate, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached"
        await asyncio.sleep(0.02)


def session_for(tmp_path: Path, server: FakeOllama) -> tuple[ChatSession, list[object]]:
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    s = ChatSession(store, make_settings(server, mcp_servers=[TOOLS]))
    events: list[object] = []
    s.publish = events.append
    return s, events


async def start(s: ChatSession, text: str) -> asyncio.Task[None]:
    _change, reason = s.start_turn(text)
    assert reason is None, reason
    return asyncio.create_task(s.turns.run(text), name="test-turn")


@pytest.mark.asyncio
async def test_a_call_waits_in_its_row_runs_when_allowed_and_the_model_answers(
        tmp_path: Path) -> None:
    with FakeOllama([FakeModel(MODEL, capabilities=("completion", "tools"))]).running() \
            as server:
        server.script(Reply(text="Let me echo.", tool_calls=[
            {"name": "echo", "arguments": {"text": "ping"}}]), Reply(text="It said ping."))
        s, events = session_for(tmp_path, server)
        before = children()
        try:
            s.new_chat()
            s.tools.set_choice(s.chat.id, ChatTools(servers=["tests"]))
            turn = await start(s, "Echo ping please.")
            await until(lambda: bool(s.turns.tools.pending))
            asked = [e for e in events if isinstance(e, CallEvent) and e.status == "asked"]
            assert asked and asked[0].call.arguments == {"text": "ping"}
            (call_id,) = s.turns.tools.pending
            assert s.turns.tools.answer(call_id, "once")
            await turn
            s.turns.ended()
            stored = s.store.messages(s.chat.id)
            roles = [m.role for m in stored]
            assert roles == ["user", "assistant", "tool", "assistant"]
            assert stored[1].tool_calls[0].name == "echo"
            assert stored[2].content == "echo: ping" and stored[2].tool_name == "echo"
            assert stored[3].content == "It said ping."
            first, second = server.chat_requests()[-2:]
            assert [t["function"]["name"] for t in first["tools"]][:1] == ["big"]  # sorted
            assert second["messages"][-1] == {"role": "tool", "content": "echo: ping",
                                              "tool_name": "echo"}
        finally:
            await s.close()
        await until(lambda: not (children() - before))
        assert not [t for t in asyncio.all_tasks() if t.get_name().startswith("mcp-")
                    and not t.done()]


@pytest.mark.asyncio
async def test_a_model_without_tools_is_told_and_sent_none(tmp_path: Path) -> None:
    with FakeOllama([FakeModel(MODEL)]).running() as server:
        server.script(Reply(text="Plain answer."))
        s, events = session_for(tmp_path, server)
        try:
            s.new_chat()
            s.tools.set_choice(s.chat.id, ChatTools(servers=["tests"]))
            await (await start(s, "Hello"))
            s.turns.ended()
        finally:
            await s.close()
        assert "tools" not in server.chat_requests()[-1]
    notices = [n for e in events for n in getattr(e, "notices", ())]
    assert any("cannot use tools" in n for n in notices)


@pytest.mark.asyncio
async def test_a_new_chat_sends_no_tools(tmp_path: Path) -> None:
    with FakeOllama([FakeModel(MODEL, capabilities=("completion", "tools"))]).running() \
            as server:
        server.script(Reply(text="Hi."))
        s, _ = session_for(tmp_path, server)
        try:
            s.new_chat()
            await (await start(s, "Hello"))
            s.turns.ended()
        finally:
            await s.close()
        assert "tools" not in server.chat_requests()[-1]


@pytest.mark.asyncio
async def test_the_openai_wire_through_a_turn_keeps_calls_and_results_paired(
        tmp_path: Path) -> None:
    """llama.cpp's server: the calls stream by index, the result goes back with its
    ``tool_call_id``, the tools' schemas are in the server's own count."""
    from ollm_desktop.backend import Connection
    from ollm_desktop.session.settings import Settings
    from tests.openai_server import FakeOpenAI, FakeReply, ServedModel, prompt_tokens

    fake = FakeOpenAI("llama.cpp", [ServedModel("qwen3-4b", window=4096)]).start()
    try:
        fake.script(FakeReply(text="", tool_calls=[{"name": "echo",
                                                    "arguments": {"text": "via openai"}}]),
                    FakeReply(text="Echoed."))
        store, _ = ChatStore.open(app_paths(tmp_path / "data"))
        lab = Connection(id="lab", name="Lab", url=fake.url, kind="llama.cpp")
        s = ChatSession(store, Settings(default_model="qwen3-4b", context_size=4096,
                                        connections=[lab], default_connection="lab",
                                        mcp_servers=[TOOLS]))
        s.publish = lambda event: None
        try:
            s.new_chat()
            s.tools.draft = ChatTools(servers=["tests"], tools=["tests/echo"],
                                      always=["tests/echo"])
            await (await start(s, "Echo via openai."))
            s.turns.ended()
            roles = [m.role for m in s.store.messages(s.chat.id)]
        finally:
            await s.close()
        first, second = fake.chat_requests()[-2:]
    finally:
        fake.stop()
    assert roles == ["user", "assistant", "tool", "assistant"]
    assert [t["function"]["name"] for t in first["tools"]] == ["echo"]  # the chosen one only
    call = second["messages"][-2]["tool_calls"][0]
    assert call["id"] == "call_fake_0" and call["function"]["arguments"] == \
        '{"text": "via openai"}'
    assert second["messages"][-1] == {"role": "tool", "content": "echo: via openai",
                                      "tool_call_id": "call_fake_0"}
    assert second["max_tokens"] <= 4096 - prompt_tokens(second["messages"], second["tools"])


@pytest.mark.asyncio
async def test_the_models_own_context_tools_when_switched_on(tmp_path: Path) -> None:
    from ollm_desktop.session.events import CompactionEnded, CompactionStarted

    with FakeOllama([FakeModel(MODEL, capabilities=("completion", "tools"))]).running() \
            as server:
        server.script(Reply(text="", tool_calls=[{"name": "get_context_stats",
                                                  "arguments": {}}]),
                      Reply(text="", tool_calls=[{"name": "compact_context",
                                                  "arguments": {"focus": "the plan"}}]),
                      Reply(text="Done."))
        s, events = session_for(tmp_path, server)
        try:
            s.new_chat()
            s.tools.draft = ChatTools(context_tools=True, always=[
                "ollm-desktop/get_context_stats", "ollm-desktop/compact_context"])
            await (await start(s, "How full is the context? Then compact it."))
            s.turns.ended()
            results = [m for m in s.store.messages(s.chat.id) if m.role == "tool"]
        finally:
            await s.close()
        sent = {t["function"]["name"] for t in server.chat_requests()[0]["tools"]}
    assert sent == {"get_context_stats", "compact_context"}
    assert '"window": 4096' in results[0].content
    assert any(isinstance(e, CompactionStarted) for e in events)  # as if the user asked
    assert any(isinstance(e, CompactionEnded) for e in events)
    assert results[1].tool_name == "compact_context"


def test_context_tools_are_off_by_default() -> None:
    assert ChatTools().context_tools is False and ChatTools().servers == []


@pytest.mark.asyncio
async def test_a_tools_image_is_sent_and_counted_like_the_users_never_cut(
        tmp_path: Path) -> None:
    """The picture tool's PNG goes back with its result as an image (base64 on Ollama's wire),
    counted as an image of this model; the text is cut or pruned, the image never is."""
    import base64

    from ollm_desktop.engine import tool_results
    from ollm_desktop.session.images import estimate_image_tokens
    from ollm_desktop.session.tool_images import image_size
    from tests.mcp_server import PNG
    with FakeOllama([FakeModel(MODEL, capabilities=("completion", "tools"))]).running() \
            as server:
        server.script(Reply(text="", tool_calls=[{"name": "picture", "arguments": {}}]),
                      Reply(text="A red dot."))
        s, _ = session_for(tmp_path, server)
        try:
            s.new_chat()
            s.tools.set_choice(s.chat.id, ChatTools(servers=["tests"], always=["tests/picture"]))
            await (await start(s, "Show me the picture."))
            s.turns.ended()
            result = next(m for m in s.engine.display_messages() if m.role == "tool")
            (image,) = result.images
            assert (image.width, image.height) == image_size(PNG) == (1, 1)
            assert image.tokens == estimate_image_tokens(MODEL, None, 1, 1) > 0
            assert result.tokens >= image.tokens  # in the message's count, like the user's
            sent = server.chat_requests()[-1]["messages"][-1]
            assert sent["role"] == "tool" and sent["content"] == "a red dot"
            assert sent["images"] == [base64.b64encode(PNG).decode()]
            # A long text beside the picture is cut to its share; the picture goes whole.
            huge = result.model_copy(update={"content": "x y z\n" * 20_000, "tokens": 0})
            s.engine.add_message(huge.model_copy(update={"id": "huge"}))
            planned = tool_results.plan(s.engine.display_messages(), s.engine.config,
                                        lambda text: len(text) // 4)
            assert planned["huge"].state == "cut"
            (entry,) = [m for m in s.engine.api_messages() if m.get("content", "").startswith(
                "x y z") and "images" in m]
            assert entry["images"] == image.id
        finally:
            await s.close()


async def learned_factor(tmp_path: Path, tools: bool) -> tuple[float, list[str]]:
    """Four turns (with an echo call each, or plain): the model's learned factor, notices."""
    with FakeOllama([FakeModel(MODEL, capabilities=("completion", "tools"))]).running() \
            as server:
        server.reply_fn = lambda body: Reply(text="", tool_calls=[
            {"name": "echo", "arguments": {"text": f"turn {len(body['messages'])}"}}]) \
            if tools and body["messages"][-1]["role"] == "user" else \
            Reply(text="Done with that, the echo answered as expected.")
        s, events = session_for(tmp_path / str(tools), server)
        try:
            s.new_chat()
            if tools:
                s.tools.set_choice(s.chat.id, ChatTools(servers=["tests"],
                                                        tools=["tests/echo"],
                                                        always=["tests/echo"]))
            for n in range(4):
                await (await start(s, f"Please echo item {n} for me."))
                s.turns.ended()
            factor = s.calibrations.for_model(MODEL).factor
        finally:
            await s.close()
    return factor, [n for e in events for n in getattr(e, "notices", ())]


@pytest.mark.asyncio
async def test_a_tool_chat_teaches_the_same_token_factor_as_a_plain_one(tmp_path: Path) -> None:
    """The server counts the tools' schemas and the calls in the prompt: the calibration
    counts them too, so a tool chat learns the model's factor, not one inflated by its tools
    (which made later estimates too high and, once the tools were left out, raised a false
    "the server dropped part of the context"). Without the schemas counted: 1.16 against
    1.0."""
    plain, _ = await learned_factor(tmp_path, tools=False)
    with_tools, notices = await learned_factor(tmp_path, tools=True)
    assert abs(with_tools - plain) <= 0.05 * plain, (with_tools, plain)
    assert not any("fewer prompt tokens" in n for n in notices)
