"""OllamaBackend through the real ollama client against the loopback fake server."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from ollm_desktop.backend import (
    BackendError,
    ChatChunk,
    ChatDone,
    ModelInfo,
    OllamaBackend,
    PullProgress,
    TokenCalibration,
)
from ollm_desktop.backend import client as client_module
from ollm_desktop.engine import parse_parameter_size
from tests.ollama_server import FakeModel, FakeOllama, Reply, free_port, ollama_server

__all__ = ["ollama_server"]  # the fixture, imported for this module

USER = [{"role": "user", "content": "Hello, who are you?"}]


def test_model_sizes_use_the_engine_parser() -> None:
    # One parser of Ollama's parameter_size for every layer: the engine's (the lowest one).
    for text in ("8.0B", "268.10M", "7", "1.5T", "lots", None):
        info = ModelInfo(name="m", parameter_size=text)
        assert info.parameter_billions == parse_parameter_size(text)


@pytest_asyncio.fixture
async def backend(ollama_server: FakeOllama) -> AsyncIterator[OllamaBackend]:
    client = OllamaBackend(ollama_server.url, timeout=5.0)
    yield client
    await client.close()


async def collect(backend: OllamaBackend, model: str = "llama3.2:3b", messages=USER,
                  num_ctx: int = 8192, **kwargs) -> list[ChatChunk | ChatDone]:
    return [e async for e in backend.chat_stream(model, messages, num_ctx=num_ctx, **kwargs)]


# ----------------------------------------------------------------- metadata
@pytest.mark.asyncio
async def test_version_and_models(backend: OllamaBackend, ollama_server: FakeOllama) -> None:
    ollama_server.version = "0.99.1"
    assert await backend.version() == "0.99.1"
    models = await backend.list_models()
    assert [m.name for m in models] == ["llama3.2:3b", "gemma3:270m"]
    gemma = models[1]
    assert isinstance(gemma, ModelInfo)
    assert (gemma.family, gemma.parameter_size, gemma.quantization) == ("gemma3", "268.10M",
                                                                        "Q8_0")
    assert gemma.size == 291_000_000
    assert gemma.modified_at is not None and gemma.modified_at.year == 2026


@pytest.mark.asyncio
async def test_show_reads_trained_context_and_size(backend: OllamaBackend,
                                                   ollama_server: FakeOllama) -> None:
    ollama_server.models.append(FakeModel("qwen:7b", "qwen2", "7B", 32768))
    ollama_server.models.append(FakeModel("odd", "phi3", "lots", None))
    llama = await backend.show("llama3.2:3b")
    assert llama.context_length == 131072
    assert llama.parameter_billions == pytest.approx(3.2)
    assert llama.family == "llama"
    gemma = await backend.show("gemma3:270m")
    assert gemma.context_length == 32768
    assert gemma.parameter_billions == pytest.approx(0.2681)
    qwen = await backend.show("qwen:7b")
    assert (qwen.context_length, qwen.parameter_billions) == (32768, 7.0)
    odd = await backend.show("odd")
    assert odd.context_length is None and odd.parameter_billions is None


@pytest.mark.asyncio
async def test_running_reports_loaded_context(backend: OllamaBackend) -> None:
    assert await backend.running() == []
    await collect(backend, num_ctx=12288)
    running = await backend.running()
    assert [(r.name, r.context_length) for r in running] == [("llama3.2:3b", 12288)]


# --------------------------------------------------------------------- chat
@pytest.mark.asyncio
async def test_streamed_chat_yields_pieces_then_one_done(backend: OllamaBackend,
                                                         ollama_server: FakeOllama) -> None:
    ollama_server.script("I am a small local model, happy to help.")
    events = await collect(backend)
    chunks, done = events[:-1], events[-1]
    assert all(isinstance(c, ChatChunk) for c in chunks)
    assert len(chunks) == 9
    assert "".join(c.text for c in chunks) == "I am a small local model, happy to help."
    assert isinstance(done, ChatDone)
    assert done.content == "I am a small local model, happy to help."
    assert done.eval_count == 9
    assert done.done_reason == "stop"
    assert done.prompt_eval_count == ollama_server.streams[-1].prompt_eval_count > 0
    assert done.total_duration and done.eval_duration
    assert done.tokens_per_second == pytest.approx(25.0)


@pytest.mark.asyncio
async def test_request_carries_num_ctx_keep_alive_and_messages(
        backend: OllamaBackend, ollama_server: FakeOllama) -> None:
    messages = [{"role": "system", "content": "Be brief."}, *USER]
    await collect(backend, messages=messages, num_ctx=6144,
                  options={"num_ctx": 999, "temperature": 0.3})
    sent = ollama_server.chat_requests()[-1]
    assert sent["options"] == {"num_ctx": 6144, "temperature": 0.3}
    assert sent["keep_alive"] == "10m"
    assert sent["stream"] is True
    assert sent["messages"] == messages
    assert sent["model"] == "llama3.2:3b"


@pytest.mark.asyncio
async def test_a_requests_own_keep_alive_wins_and_the_final_figures_become_reply_stats(
        backend: OllamaBackend, ollama_server: FakeOllama) -> None:
    events = await collect(backend, keep_alive="45m")
    assert ollama_server.chat_requests()[-1]["keep_alive"] == "45m"
    done = events[-1]
    assert isinstance(done, ChatDone)
    stats = done.reply_stats()
    assert (stats.prompt_tokens, stats.reply_tokens) == (done.prompt_eval_count,
                                                         done.eval_count)
    assert stats.reply_duration_ns == done.eval_duration
    assert stats.total_duration_ns == done.total_duration
    assert stats.tokens_per_second == pytest.approx(25.0)
    assert ChatDone("x", eval_count=-1).reply_stats().reply_tokens is None


@pytest.mark.asyncio
async def test_no_keep_alive_when_unset(ollama_server: FakeOllama) -> None:
    client = OllamaBackend(ollama_server.url, keep_alive=None)
    try:
        await collect(client, num_ctx=2048)
    finally:
        await client.close()
    sent = ollama_server.chat_requests()[-1]
    assert "keep_alive" not in sent
    assert sent["options"]["num_ctx"] == 2048


@pytest.mark.asyncio
async def test_nothing_is_yielded_after_done(backend: OllamaBackend,
                                             ollama_server: FakeOllama) -> None:
    ollama_server.script(Reply(text="a b", trailing_chunks=3))
    events = await collect(backend)
    assert [type(e) for e in events] == [ChatChunk, ChatChunk, ChatDone]
    assert events[-1].content == "a b"


@pytest.mark.asyncio
async def test_chat_collects_whole_reply(backend: OllamaBackend,
                                         ollama_server: FakeOllama) -> None:
    ollama_server.script("A summary of the older messages.")
    done = await backend.chat("llama3.2:3b", USER, num_ctx=4096)
    assert done.content == "A summary of the older messages."
    assert done.eval_count == 6
    assert ollama_server.chat_requests()[-1]["options"]["num_ctx"] == 4096


# ------------------------------------------------------------------- errors
@pytest.mark.asyncio
@pytest.mark.parametrize("call", ["version", "list_models", "show", "running", "chat_stream",
                                  "chat", "pull"])
async def test_server_down_is_unreachable(call: str) -> None:
    client = OllamaBackend(f"127.0.0.1:{free_port()}", timeout=3.0)
    calls = {
        "version": client.version, "list_models": client.list_models,
        "show": lambda: client.show("llama3.2:3b"), "running": client.running,
        "chat_stream": lambda: collect(client),
        "chat": lambda: client.chat("llama3.2:3b", USER, num_ctx=2048),
        "pull": lambda: _drain(client.pull("llama3.2:3b")),
    }
    try:
        with pytest.raises(BackendError) as caught:
            await calls[call]()
    finally:
        await client.close()
    assert caught.value.kind == "unreachable"
    assert client.host in caught.value.message
    assert "ollama serve" in caught.value.message


async def _drain(stream: AsyncIterator[PullProgress]) -> list[PullProgress]:
    return [p async for p in stream]


@pytest.mark.asyncio
async def test_unknown_model(backend: OllamaBackend) -> None:
    for attempt in (lambda: collect(backend, model="nope:1b"),
                    lambda: backend.show("nope:1b"),
                    lambda: backend.chat("nope:1b", USER, num_ctx=2048)):
        with pytest.raises(BackendError) as caught:
            await attempt()
        assert caught.value.kind == "model_not_found"
        assert "'nope:1b'" in caught.value.message
        assert "Pull" in caught.value.message


@pytest.mark.asyncio
async def test_http_500(backend: OllamaBackend, ollama_server: FakeOllama) -> None:
    ollama_server.script(Reply(http_status=500, error="model requires more system memory"))
    with pytest.raises(BackendError) as caught:
        await collect(backend)
    assert caught.value.kind == "http"
    assert caught.value.status_code == 500
    assert "more system memory" in caught.value.message
    ollama_server.fail("/api/tags", 500, "disk on fire")
    with pytest.raises(BackendError) as caught:
        await backend.list_models()
    assert caught.value.kind == "http" and "disk on fire" in caught.value.message
    assert len(await backend.list_models()) == 2  # one-shot failure


@pytest.mark.asyncio
async def test_error_line_mid_stream(backend: OllamaBackend, ollama_server: FakeOllama) -> None:
    ollama_server.script(Reply(text="one two three four", error_after=2, error="runner died"))
    seen: list[ChatChunk | ChatDone] = []
    with pytest.raises(BackendError) as caught:
        async for event in backend.chat_stream("llama3.2:3b", USER, num_ctx=2048):
            seen.append(event)
    assert caught.value.kind == "stream_error"
    assert "runner died" in caught.value.message
    assert [e.text for e in seen if isinstance(e, ChatChunk)] == ["one", " two"]


@pytest.mark.asyncio
@pytest.mark.parametrize("reply", [
    Reply(text="one two three four", cut_after=2),
    Reply(text="one two three four", cut_after=2, cut_mid_chunk=True),
    Reply(text="one two three four", cut_after=0),
    Reply(text="one two", end_without_done=True),
], ids=["cut", "mid-chunk", "before-output", "no-done"])
async def test_cut_stream(backend: OllamaBackend, ollama_server: FakeOllama,
                          reply: Reply) -> None:
    ollama_server.script(reply)
    seen: list[ChatChunk | ChatDone] = []
    with pytest.raises(BackendError) as caught:
        async for event in backend.chat_stream("llama3.2:3b", USER, num_ctx=2048):
            seen.append(event)
    assert caught.value.kind == "stream_cut"
    assert not any(isinstance(e, ChatDone) for e in seen)


@pytest.mark.asyncio
async def test_slow_server_times_out(ollama_server: FakeOllama) -> None:
    ollama_server.path_delays["/api/version"] = 30.0
    client = OllamaBackend(ollama_server.url, timeout=0.3)
    try:
        with pytest.raises(BackendError) as caught:
            await client.version()
    finally:
        await client.close()
    assert caught.value.kind == "timeout"  # not the answer the server gives after 30 s
    assert ollama_server.requests[-1].path == "/api/version"


@pytest.mark.asyncio
async def test_empty_model_name_is_invalid(backend: OllamaBackend,
                                           ollama_server: FakeOllama) -> None:
    for attempt in (lambda: collect(backend, model=""), lambda: backend.show("  ")):
        with pytest.raises(BackendError) as caught:
            await attempt()
        assert caught.value.kind == "invalid"
    assert ollama_server.chat_requests() == []


# ----------------------------------------------------------------- stopping
@pytest.mark.asyncio
async def test_cancelling_the_consumer_closes_the_connection(
        backend: OllamaBackend, ollama_server: FakeOllama) -> None:
    ollama_server.script(Reply(chunks=["tok "] * 2000, delay_per_chunk=0.005))
    three = asyncio.Event()
    received: list[str] = []

    async def consume() -> None:
        async for event in backend.chat_stream("llama3.2:3b", USER, num_ctx=2048):
            if isinstance(event, ChatChunk):
                received.append(event.text)
                if len(received) == 3:
                    three.set()

    task = asyncio.create_task(consume())
    await asyncio.wait_for(three.wait(), 10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    record = ollama_server.streams[-1]
    assert await asyncio.to_thread(record.finished.wait, 10)
    assert record.outcome == "disconnected"
    assert record.sent < 2000
    sent_at_stop = record.sent
    # the server is idle again and the client still works on a fresh connection
    ollama_server.script("after stop")
    events = await collect(backend)
    assert events[-1].content == "after stop"
    assert record.sent == sent_at_stop


@pytest.mark.asyncio
async def test_closing_the_generator_early_closes_the_connection(
        backend: OllamaBackend, ollama_server: FakeOllama) -> None:
    ollama_server.script(Reply(chunks=["x "] * 2000, delay_per_chunk=0.005))
    stream = backend.chat_stream("llama3.2:3b", USER, num_ctx=2048)
    first = await anext(stream)
    assert isinstance(first, ChatChunk)
    await stream.aclose()
    record = ollama_server.streams[-1]
    assert await asyncio.to_thread(record.finished.wait, 10)
    assert record.outcome == "disconnected"


# --------------------------------------------------------------------- pull
@pytest.mark.asyncio
async def test_pull_progress_then_model_listed(backend: OllamaBackend,
                                               ollama_server: FakeOllama) -> None:
    ollama_server.pullable["tinyllama:1b"] = FakeModel("tinyllama:1b", size=1000)
    progress = await _drain(backend.pull("tinyllama:1b"))
    assert progress[0].status == "pulling manifest"
    assert progress[-1].status == "success"
    sized = [p for p in progress if p.total]
    assert [p.completed for p in sized] == [0, 250, 500, 1000]
    assert all(p.total == 1000 for p in sized)
    assert sized[-1].fraction == 1.0
    assert "tinyllama:1b" in [m.name for m in await backend.list_models()]


@pytest.mark.asyncio
async def test_pull_of_unknown_name(backend: OllamaBackend) -> None:
    with pytest.raises(BackendError) as caught:
        await _drain(backend.pull("no-such-model"))
    assert caught.value.kind == "model_not_found"


# -------------------------------------------------------- no silent cuts
@pytest.mark.asyncio
async def test_every_chat_refuses_silent_truncation_and_window_shift(
        backend: OllamaBackend, ollama_server: FakeOllama) -> None:
    await collect(backend, num_ctx=4096)
    await backend.chat("llama3.2:3b", USER, num_ctx=4096, options={"num_predict": 300})
    turn, summary = ollama_server.chat_requests()[-2:]
    for body in (turn, summary):
        assert body["truncate"] is False and body["shift"] is False
        assert body["options"]["num_ctx"] == 4096
    assert summary["options"]["num_predict"] == 300


LONG = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i} " * 60}
        for i in range(9)]


@pytest.mark.asyncio
async def test_an_over_length_prompt_is_a_context_overflow_not_a_silent_cut(
        backend: OllamaBackend, ollama_server: FakeOllama) -> None:
    assert ollama_server.full_count(LONG) > 512
    for attempt in (lambda: collect(backend, messages=LONG, num_ctx=512),
                    lambda: backend.chat("llama3.2:3b", LONG, num_ctx=512)):
        with pytest.raises(BackendError) as caught:
            await attempt()
        error = caught.value
        assert error.kind == "context_overflow" and error.status_code == 400
        assert error.num_ctx == 512  # Ollama's wording names no numbers: the window we sent
        assert "context" in error.message and "512" in error.message
    assert len(ollama_server.rejected) == 2
    assert not ollama_server.streams  # nothing was generated from a cut prompt


@pytest.mark.asyncio
async def test_an_overflow_message_that_names_the_counts_is_parsed(
        backend: OllamaBackend, ollama_server: FakeOllama) -> None:
    ollama_server.script(Reply(http_status=400, error=(
        "the request (9,312 tokens) exceeds the available context size (8,192 tokens)")))
    with pytest.raises(BackendError) as caught:
        await collect(backend, num_ctx=8192)
    assert caught.value.kind == "context_overflow"
    assert (caught.value.prompt_tokens, caught.value.num_ctx) == (9312, 8192)
    assert "9,312" in caught.value.message


# -------------------------------------------------------------- truncation
@pytest.mark.asyncio
async def test_silent_truncation_is_detected(backend: OllamaBackend, ollama_server: FakeOllama,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # An older Ollama ignores "truncate": false and cuts silently: as if it was never sent.
    monkeypatch.setattr(client_module, "NO_SILENT_CUTS", {})
    messages = [{"role": "system", "content": "Be brief."}] + [
        {"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i} " * 60}
        for i in range(9)]
    sent_estimate, _ = ollama_server.prompt_count(messages, None)  # what we sent, untruncated
    num_ctx = 512
    assert sent_estimate > num_ctx
    ollama_server.truncate_to_num_ctx = True
    done = (await collect(backend, messages=messages, num_ctx=num_ctx))[-1]
    assert isinstance(done, ChatDone)
    assert done.prompt_eval_count is not None and done.prompt_eval_count <= num_ctx
    calibration = TokenCalibration()
    assert calibration.truncation_suspected(sent_estimate, done.prompt_eval_count, num_ctx)
    assert calibration.observe(sent_estimate, done.prompt_eval_count) == 1.0  # sample skipped
    # the same conversation within the window is not flagged
    ollama_server.truncate_to_num_ctx = False
    done = (await collect(backend, messages=messages, num_ctx=8192))[-1]
    assert not calibration.truncation_suspected(sent_estimate, done.prompt_eval_count, 8192)


# -------------------------------------------------------------------- hosts
@pytest.mark.parametrize(("given", "expected"), [
    ("localhost:11434", "http://localhost:11434"),
    ("0.0.0.0", "http://127.0.0.1:11434"),
    ("0.0.0.0:8080", "http://127.0.0.1:8080"),
    ("http://[::]:11434/", "http://[::1]:11434"),
    (":5000", "http://127.0.0.1:5000"),
    ("https://ollama.example.org", "https://ollama.example.org:443"),
    ("example.org:9/proxy/", "http://example.org:9/proxy"),
    ("[fe80::1]:7000", "http://[fe80::1]:7000"),
])
def test_resolve_host_forms(given: str, expected: str) -> None:
    assert OllamaBackend.resolve_host(given) == expected


def test_resolve_host_falls_back_to_env_then_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "0.0.0.0:12345")
    assert OllamaBackend.resolve_host(None) == "http://127.0.0.1:12345"
    assert OllamaBackend.resolve_host("  ") == "http://127.0.0.1:12345"
    assert OllamaBackend.resolve_host("box:1") == "http://box:1"
    monkeypatch.delenv("OLLAMA_HOST")
    assert OllamaBackend.resolve_host(None) == "http://127.0.0.1:11434"
    assert OllamaBackend(None).host == "http://127.0.0.1:11434"
