"""Tool calls on both wires, against the loopback Ollama and OpenAI-compatible servers: the
shapes sent (``tools``, a reply's calls, a result), the calls read back (Ollama's whole chunk,
OpenAI's fragments by index), the capability each server states, and a refused first call."""

from __future__ import annotations

import json

import pytest

from ollm_desktop.backend import BackendError, ChatDone
from ollm_desktop.backend.client import OllamaBackend
from ollm_desktop.backend.openai_compat import OpenAICompatServer
from ollm_desktop.backend.openai_wire import to_openai
from ollm_desktop.backend.tool_wire import StreamedCalls, ollama_message
from ollm_desktop.engine.tool_types import ToolCall, ToolSpec, calls_json
from tests.ollama_server import FakeModel, FakeOllama, Reply
from tests.openai_server import FakeOpenAI, FakeReply, ServedModel, prompt_tokens

READ = ToolSpec(name="read_file", description="Read a file of the project.", parameters={
    "type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"],
    "additionalProperties": False})
CALL = ToolCall(id="call_0", name="read_file", arguments={"path": "src/app.py"})
HISTORY = [
    {"role": "user", "content": "What does src/app.py start with?"},
    {"role": "assistant", "content": "", "tool_calls": calls_json([CALL])},
    {"role": "tool", "content": "import sys\nPORT = 8443", "tool_name": "read_file",
     "tool_call_id": "call_0"},
]


async def reply_of(server, model: str, messages, **kwargs) -> ChatDone:
    events = [e async for e in server.chat_stream(model, messages, num_ctx=4096, **kwargs)]
    done = events[-1]
    assert isinstance(done, ChatDone)
    return done


# ----------------------------------------------------------------- Ollama
@pytest.mark.asyncio
async def test_ollama_sends_tools_calls_and_results_in_its_shape() -> None:
    with FakeOllama([FakeModel("qwen3:4b", capabilities=("completion", "tools"))]).running() \
            as fake:
        fake.script(Reply(text="Let me look.", tool_calls=[
            {"name": "read_file", "arguments": {"path": "README.md"}},
            {"name": "read_file", "arguments": {"path": "setup.py"}}]))
        backend = OllamaBackend(fake.url, timeout=5.0)
        try:
            done = await reply_of(backend, "qwen3:4b", HISTORY, tools=[READ.wire()])
            details = await backend.show("qwen3:4b")
        finally:
            await backend.close()
        body = fake.chat_requests()[-1]
    # the schema goes whole: the client's Tool model would have dropped additionalProperties
    assert body["tools"] == [READ.wire()]
    assert body["tools"][0]["function"]["parameters"]["additionalProperties"] is False
    sent_call, result = body["messages"][1], body["messages"][2]
    assert sent_call["tool_calls"] == [{"function": {"name": "read_file",
                                                     "arguments": {"path": "src/app.py"}}}]
    assert result == {"role": "tool", "content": "import sys\nPORT = 8443",
                      "tool_name": "read_file"}
    assert done.content == "Let me look."
    assert [(c.name, c.arguments) for c in done.tool_calls] == [
        ("read_file", {"path": "README.md"}), ("read_file", {"path": "setup.py"})]
    assert len({c.id for c in done.tool_calls}) == 2  # ids we gave them, one each
    assert details.tools is True


@pytest.mark.asyncio
async def test_ollama_model_without_tools_says_so_and_fake_counts_schemas() -> None:
    with FakeOllama([FakeModel("gemma3:270m")]).running() as fake:
        backend = OllamaBackend(fake.url, timeout=5.0)
        try:
            assert (await backend.show("gemma3:270m")).tools is False
            bare = await reply_of(backend, "gemma3:270m", HISTORY[:1])
            with_tools = await reply_of(backend, "gemma3:270m", HISTORY[:1],
                                        tools=[READ.wire()])
            with_calls = await reply_of(backend, "gemma3:270m", HISTORY)
        finally:
            await backend.close()
    assert bare.prompt_eval_count is not None and with_tools.prompt_eval_count is not None
    assert with_tools.prompt_eval_count > bare.prompt_eval_count + 20  # the schema is counted
    assert with_calls.prompt_eval_count is not None
    assert with_calls.prompt_eval_count > bare.prompt_eval_count + 10  # call and result too
    assert bare.tool_calls == ()


def test_ollama_message_keeps_other_fields_and_drops_ids() -> None:
    sent = ollama_message(HISTORY[2])
    assert "tool_call_id" not in sent and sent["tool_name"] == "read_file"
    assert ollama_message(HISTORY[0]) == HISTORY[0]


# ------------------------------------------------------ OpenAI-compatible
def test_openai_shape_of_calls_and_results() -> None:
    sent = to_openai(HISTORY)
    assert sent[1]["tool_calls"] == [{"id": "call_0", "type": "function", "function": {
        "name": "read_file", "arguments": json.dumps({"path": "src/app.py"})}}]
    assert sent[2] == {"role": "tool", "content": "import sys\nPORT = 8443",
                       "tool_call_id": "call_0"}


def test_streamed_fragments_join_by_index_and_bad_json_is_kept() -> None:
    calls = StreamedCalls()
    calls.add([{"index": 1, "id": "b", "function": {"name": "grep", "arguments": "{\"q\":"}}])
    calls.add([{"index": 0, "id": "a", "function": {"name": "read", "arguments": "{\"pa"}}])
    calls.add([{"index": 0, "function": {"arguments": "th\": \"x\"}"}}])
    calls.add([{"index": 1, "function": {"arguments": " oops"}}])
    first, second = calls.calls()
    assert (first.id, first.name, first.arguments, first.valid) == ("a", "read", {"path": "x"},
                                                                   True)
    assert (second.name, second.valid, second.raw_arguments) == ("grep", False, '{"q": oops')


@pytest.mark.asyncio
async def test_openai_stream_joins_calls_and_counts_tools() -> None:
    fake = FakeOpenAI("llama.cpp", [ServedModel("qwen3-4b", window=4096)]).start()
    try:
        fake.script(FakeReply(text="", tool_calls=[
            {"name": "read_file", "arguments": {"path": "docs/very/long/path/name.md"}},
            {"name": "read_file", "arguments": {"path": "b.txt"}}]))
        server = OpenAICompatServer(fake.url, "llama.cpp", timeout=5.0)
        try:
            done = await reply_of(server, "qwen3-4b", HISTORY, tools=[READ.wire()])
            details = await server.show("qwen3-4b")
        finally:
            await server.close()
        body = fake.chat_requests()[-1]
    finally:
        fake.stop()
    assert [(c.id, c.arguments) for c in done.tool_calls] == [
        ("call_fake_0", {"path": "docs/very/long/path/name.md"}),
        ("call_fake_1", {"path": "b.txt"})]
    assert body["tools"] == [READ.wire()]
    assert body["messages"][2]["tool_call_id"] == "call_0"
    # the server's own count (with the schema) is what the reply reports and max_tokens used
    counted = prompt_tokens(body["messages"], body["tools"])
    assert done.prompt_eval_count == counted > prompt_tokens(body["messages"])
    assert body["max_tokens"] == 4096 - counted
    assert details.tools is True and "tools" in details.capabilities


@pytest.mark.asyncio
async def test_template_without_tools_and_a_refused_first_call() -> None:
    fake = FakeOpenAI("llama.cpp", [ServedModel("smollm2-135m")]).start()
    fake.supports_tools = False
    server = OpenAICompatServer(fake.url, "llama.cpp", timeout=5.0)
    try:
        assert (await server.show("smollm2-135m")).tools is False
    finally:
        await server.close()
        fake.stop()
    fake = FakeOpenAI("vllm", [ServedModel("Qwen/Qwen3-8B")]).start()
    fake.refuse_tools = True
    server = OpenAICompatServer(fake.url, "vllm", timeout=5.0)
    try:
        assert (await server.show("Qwen/Qwen3-8B")).tools is None  # vLLM cannot say
        with pytest.raises(BackendError) as refused:
            await reply_of(server, "Qwen/Qwen3-8B", HISTORY[:1], tools=[READ.wire()])
        plain = await reply_of(server, "Qwen/Qwen3-8B", HISTORY[:1])
    finally:
        await server.close()
        fake.stop()
    assert refused.value.kind == "tools_unsupported"
    assert "cannot use tools" in refused.value.message
    assert plain.content  # the same request without tools goes through
