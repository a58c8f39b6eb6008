"""The OpenAI-compatible client against the loopback stand-ins for llama.cpp, vLLM, LM Studio
and a generic server: the wire it sends, the counts and windows it reads, every error shape."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from ollm_desktop.backend import BackendError, ChatChunk, ChatDone
from ollm_desktop.backend.openai_compat import OpenAICompatServer
from ollm_desktop.backend.openai_wire import data_url, to_openai
from ollm_desktop.backend.probe import api_root, probe
from ollm_desktop.backend.sse import SseEvent, sse_events
from tests.openai_server import FakeOpenAI, FakeReply, ServedModel, openai_server, prompt_tokens

__all__ = ["openai_server"]

USER = [{"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hello, who are you? Tell me about deployment."}]
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16


def served(flavour: str, **fields) -> FakeOpenAI:
    name = {"llama.cpp": "smollm2-135m", "vllm": "Qwen/Qwen3-8B",
            "lmstudio": "qwen3-4b", "generic": "gpt-local"}[flavour]
    return FakeOpenAI(flavour, [ServedModel(name, **fields)]).start()


async def collect(server: OpenAICompatServer, model: str, messages=USER, num_ctx: int = 8192,
                  **kwargs) -> list[ChatChunk | ChatDone]:
    return [e async for e in server.chat_stream(model, messages, num_ctx=num_ctx, **kwargs)]


async def lines(*items: str) -> AsyncIterator[str]:
    for item in items:
        yield item


# ----------------------------------------------------------------- pieces
@pytest.mark.asyncio
async def test_sse_reader_joins_data_and_keeps_bare_error_lines() -> None:
    events = [e async for e in sse_events(lines(
        ": comment", "data: {\"a\":", "data: 1}", "", "event: error", "data: boom", "",
        'error: {"message": "too long"}', "data: [DONE]"))]
    assert events == [SseEvent("message", '{"a":\n1}'), SseEvent("error", "boom"),
                      SseEvent("error", '{"message": "too long"}'),
                      SseEvent("message", "[DONE]")]


def test_base_url_with_or_without_v1() -> None:
    for url in ("http://127.0.0.1:8080", "http://127.0.0.1:8080/", "http://127.0.0.1:8080/v1",
                "127.0.0.1:8080/v1/", "http://127.0.0.1:8080/v1/chat/completions"):
        assert api_root(url) == "http://127.0.0.1:8080"
    assert api_root("https://gpu.lab.example/vllm/v1") == "https://gpu.lab.example/vllm"


def test_images_go_as_data_urls() -> None:
    sent = to_openai([{"role": "user", "content": "What is this?", "images": [PNG]}])
    assert sent[0]["content"][0] == {"type": "text", "text": "What is this?"}
    assert sent[0]["content"][1]["image_url"]["url"].startswith("data:image/png;base64,")
    assert data_url(b"\xff\xd8\xff" + b"\x00" * 8).startswith("data:image/jpeg;base64,")


# ------------------------------------------------------------------- probe
@pytest.mark.asyncio
@pytest.mark.parametrize("flavour", ["llama.cpp", "vllm", "lmstudio", "generic"])
async def test_probe_finds_each_kind(flavour: str) -> None:
    fake = served(flavour)
    try:
        found = await probe(fake.url + "/v1", timeout=5)
        assert found.kind == flavour and found.root == fake.url
        # The order is the contract: Ollama first, then llama.cpp's /props before anything
        # that also answers /tokenize.
        asked = [p for p in fake.paths() if p != "/tokenize"]
        order = ["/api/version", "/props", "/api/v0/models", "/v1/models"]
        assert asked == order[:len(asked)]
    finally:
        fake.stop()


@pytest.mark.asyncio
async def test_probe_finds_ollama(ollama_server) -> None:
    found = await probe(ollama_server.url, timeout=5)
    assert found.kind == "ollama"


@pytest.mark.asyncio
async def test_probe_errors_say_what_is_wrong() -> None:
    fake = FakeOpenAI("vllm", [ServedModel("m")], api_key="sekrit").start()
    url = fake.url
    try:
        with pytest.raises(BackendError) as refused:
            await probe(fake.url, timeout=5)
        assert refused.value.kind == "unauthorized"
        assert "wants an API key" in refused.value.message and "--api-key-env" in \
            refused.value.message
        assert (await probe(fake.url, api_key="sekrit", timeout=5)).kind == "vllm"
        with pytest.raises(BackendError) as wrong:
            await probe(fake.url, api_key="wrong", timeout=5)
        assert "refused the API key" in wrong.value.message
    finally:
        fake.stop()
    with pytest.raises(BackendError) as down:
        await probe(url, timeout=2)
    assert down.value.kind == "unreachable" and url in down.value.message


# ---------------------------------------------------------------- llama.cpp
@pytest.mark.asyncio
async def test_llama_cpp_window_size_counts_and_wire() -> None:
    fake = served("llama.cpp", window=2048, n_ctx_train=8192, n_params=134_515_008)
    server = OpenAICompatServer(fake.url + "/v1", "llama.cpp", timeout=5)
    try:
        details = await server.show("smollm2-135m")
        assert (details.window, details.context_length) == (2048, 8192)
        assert details.parameter_size == "134.52M"
        assert details.parameter_billions == pytest.approx(0.13452)
        assert server.actions.count
        assert await server.count("smollm2-135m", USER) == prompt_tokens(to_openai(USER))
        events = await collect(server, "smollm2-135m", num_ctx=8192,
                               options={"num_predict": 100, "temperature": 0.2})
        done = events[-1]
        assert isinstance(done, ChatDone) and done.content.startswith("Hello from the fake")
        body = fake.chat_requests()[-1]
        assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
        assert body["max_tokens"] == 100 and body["temperature"] == 0.2
        assert "truncate_prompt_tokens" not in body and "num_ctx" not in body
        # The server's own count, and its timings.
        assert done.prompt_eval_count == prompt_tokens(body["messages"])
        assert done.eval_count == len([e for e in events if isinstance(e, ChatChunk)
                                       and e.text])
        assert done.prompt_eval_duration is not None and done.eval_duration is not None
        assert done.prompt_eval_cached_count == 0
        # Without a reply cap: what the window leaves (the smaller of num_ctx and the slot).
        await collect(server, "smollm2-135m", num_ctx=8192)
        assert fake.chat_requests()[-1]["max_tokens"] == 2048 - prompt_tokens(
            fake.chat_requests()[-1]["messages"])
        second = (await collect(server, "smollm2-135m", [
            *USER, {"role": "assistant", "content": done.content},
            {"role": "user", "content": "And then?"}]))[-1]
        assert isinstance(second, ChatDone) and second.prompt_eval_cached_count
    finally:
        await server.close()
        fake.stop()


@pytest.mark.asyncio
async def test_llama_cpp_counts_without_the_input_tokens_endpoint() -> None:
    fake = served("llama.cpp")
    fake.input_tokens_endpoint = False  # an older build: /apply-template + /tokenize
    server = OpenAICompatServer(fake.url, "llama.cpp", timeout=5)
    try:
        assert await server.count("m", USER) == prompt_tokens(to_openai(USER))
        assert {"/apply-template", "/tokenize"} <= set(fake.paths())
    finally:
        await server.close()
        fake.stop()


@pytest.mark.asyncio
@pytest.mark.parametrize("shape", ["http", "event", "line"])
async def test_every_overflow_shape_is_one_context_overflow(shape: str) -> None:
    fake = served("llama.cpp", window=64)
    fake.overflow_in_stream = None if shape == "http" else shape
    server = OpenAICompatServer(fake.url, "llama.cpp", timeout=5)
    long = [{"role": "user", "content": "word " * 200}]

    async def no_count(model, messages):
        return None  # the server decides, as when its count endpoints are missing

    server.count = no_count  # type: ignore[method-assign]
    try:
        with pytest.raises(BackendError) as raised:
            await collect(server, "m", long, num_ctx=8192)
        error = raised.value
        assert error.kind == "context_overflow"
        assert error.prompt_tokens == prompt_tokens(long) and error.num_ctx == 64
        assert "llama.cpp server refused it" in error.message
    finally:
        await server.close()
        fake.stop()


@pytest.mark.asyncio
async def test_an_exact_count_over_the_window_is_refused_before_sending() -> None:
    fake = served("llama.cpp", window=64)
    server = OpenAICompatServer(fake.url, "llama.cpp", timeout=5)
    try:
        with pytest.raises(BackendError) as raised:
            await collect(server, "m", [{"role": "user", "content": "word " * 200}])
        assert raised.value.kind == "context_overflow"
        assert fake.chat_requests() == [] and fake.refusals == []
    finally:
        await server.close()
        fake.stop()


# --------------------------------------------------------------------- vLLM
@pytest.mark.asyncio
async def test_vllm_counts_with_messages_and_never_asks_past_max_model_len() -> None:
    fake = served("vllm", window=1024)
    fake.script(FakeReply("Answer.", reasoning="Let me think."))
    server = OpenAICompatServer(fake.url, "vllm", timeout=5)
    try:
        details = await server.show("Qwen/Qwen3-8B")
        assert details.window == 1024 and details.parameter_size is None
        events = await collect(server, "Qwen/Qwen3-8B", num_ctx=8192,
                               options={"num_predict": 5000}, think=False)
        body = fake.chat_requests()[-1]
        prompt = prompt_tokens(body["messages"])
        assert body["max_tokens"] == 1024 - prompt  # min(cap, window - prompt)
        assert body["chat_template_kwargs"] == {"enable_thinking": False}
        tokenize = [r.body for r in fake.requests if r.path == "/tokenize"][-1]
        assert "messages" in tokenize and tokenize["add_generation_prompt"] is True
        # Reasoning in vLLM's newer field is read like reasoning_content.
        assert "".join(e.thinking for e in events if isinstance(e, ChatChunk)) == \
            "Let me think."
        assert fake.refusals == []
    finally:
        await server.close()
        fake.stop()


@pytest.mark.asyncio
async def test_vllm_overflow_message_and_a_too_large_reply_cap() -> None:
    fake = served("vllm", window=100)
    server = OpenAICompatServer(fake.url, "vllm", timeout=5)

    async def no_count(model, messages):
        return None

    server.count = no_count  # type: ignore[method-assign]
    try:
        with pytest.raises(BackendError) as raised:
            await collect(server, "Qwen/Qwen3-8B", [{"role": "user", "content": "w " * 300}])
        assert raised.value.kind == "context_overflow" and raised.value.num_ctx == 100
        assert raised.value.prompt_tokens == prompt_tokens([{"role": "user",
                                                             "content": "w " * 300}])
        # A prompt that fits with a reply cap that does not (digits: the server counts more
        # than the rough guess): refused before generating, resent once with the room named.
        digits = [{"role": "user", "content": "1234567890 " * 5}]
        events = await collect(server, "Qwen/Qwen3-8B", digits, num_ctx=8192,
                               options={"num_predict": 90})
        assert isinstance(events[-1], ChatDone)
        caps = [b["max_tokens"] for b in fake.chat_requests()[1:]]
        assert caps[0] > caps[1] == 100 - prompt_tokens(digits)
    finally:
        await server.close()
        fake.stop()


@pytest.mark.asyncio
async def test_unknown_model_401_and_a_cut_stream() -> None:
    fake = FakeOpenAI("vllm", [ServedModel("Qwen/Qwen3-8B")], api_key="k").start()
    try:
        anonymous = OpenAICompatServer(fake.url, "vllm", timeout=5)
        with pytest.raises(BackendError) as refused:
            await anonymous.list_models()
        assert refused.value.kind == "unauthorized"
        await anonymous.close()
        server = OpenAICompatServer(fake.url, "vllm", api_key="k", timeout=5)
        with pytest.raises(BackendError) as missing:
            await server.show("no-such-model")
        assert missing.value.kind == "model_not_found" and "no-such-model" in \
            missing.value.message and "vLLM" in missing.value.message
        with pytest.raises(BackendError) as missing_chat:
            await collect(server, "no-such-model")
        assert missing_chat.value.kind == "model_not_found"
        fake.script(FakeReply("one two three four five six", cut_after=2))
        with pytest.raises(BackendError) as cut:
            await collect(server, "Qwen/Qwen3-8B")
        assert cut.value.kind == "stream_cut" and "vLLM" in cut.value.message
        fake.script(FakeReply("one two three", error_after=1, error="GPU fell over"))
        with pytest.raises(BackendError) as failed:
            await collect(server, "Qwen/Qwen3-8B")
        assert failed.value.kind == "stream_error" and "GPU fell over" in failed.value.message
        assert [v for v in await server.embed("Qwen/Qwen3-8B", ["a", "b"])] and len(
            await server.embed("Qwen/Qwen3-8B", ["a", "b"])) == 2
        await server.close()
    finally:
        fake.stop()


# ---------------------------------------------------------------- LM Studio
@pytest.mark.asyncio
async def test_lm_studio_window_is_known_once_the_model_loads() -> None:
    fake = served("lmstudio", window=4096, n_ctx_train=32768, loaded=False, vision=True)
    server = OpenAICompatServer(fake.url, "lmstudio", timeout=5)
    try:
        details = await server.show("qwen3-4b")
        assert details.window is None and details.context_length == 32768
        assert details.note and "loads with your first message" in details.note
        assert "vision" in details.capabilities
        assert not server.actions.count and await server.count("qwen3-4b", USER) is None
        await collect(server, "qwen3-4b", num_ctx=8192)
        assert await server.window("qwen3-4b") == 4096
        assert [m.name for m in await server.list_models()] == ["qwen3-4b"]
    finally:
        await server.close()
        fake.stop()


@pytest.mark.asyncio
async def test_stop_closes_the_stream_on_the_server() -> None:
    fake = served("llama.cpp")
    fake.script(FakeReply("word " * 200, delay_per_chunk=0.02))
    server = OpenAICompatServer(fake.url, "llama.cpp", timeout=5)
    got: list[ChatChunk | ChatDone] = []

    async def consume() -> None:
        async for event in server.chat_stream("m", USER, num_ctx=4096):
            got.append(event)

    task = asyncio.ensure_future(consume())
    try:
        while not got:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await asyncio.to_thread(fake.disconnected.wait, 5)
        assert fake.streams[-1].outcome == "disconnected"
    finally:
        await server.close()
        fake.stop()


@pytest.mark.asyncio
async def test_a_generic_server_has_no_silent_window() -> None:
    fake = served("generic")
    try:
        unknown = OpenAICompatServer(fake.url, "generic", timeout=5)
        details = await unknown.show("gpt-local")
        assert details.window is None and details.note and "Preferences" in details.note
        await collect(unknown, "gpt-local", num_ctx=4096)
        assert fake.chat_requests()[-1]["max_tokens"] > 0  # still set: from the chat's size
        await unknown.close()
        entered = OpenAICompatServer(fake.url, "generic", timeout=5, window=3000)
        assert (await entered.show("gpt-local")).window == 3000
        await entered.close()
    finally:
        fake.stop()


@pytest.mark.asyncio
async def test_an_unreadable_ca_file_says_so(tmp_path) -> None:
    server = OpenAICompatServer("https://127.0.0.1:9/v1", "vllm",
                                ca_file=str(tmp_path / "missing.pem"), timeout=2)
    with pytest.raises(BackendError) as raised:
        await server.list_models()
    assert raised.value.kind == "invalid" and "missing.pem" in raised.value.message
    with pytest.raises(BackendError) as probed:
        await probe("https://127.0.0.1:9/v1", ca_file=str(tmp_path / "missing.pem"))
    assert "could not be read" in probed.value.message
