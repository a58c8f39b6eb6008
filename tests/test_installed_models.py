"""The models a server has, for the model picker and Preferences ▸ Models (issue 32): size,
context and capabilities per model, deleting one, and pulls that fail or are cancelled.

Against the loopback servers (``tests.ollama_server``, ``tests.openai_server``): the backend
alone, then the Qt-free session with plain asyncio.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from ollm_desktop.backend import BackendError, OllamaBackend
from ollm_desktop.backend.openai_compat import OpenAICompatServer
from ollm_desktop.session import Change, ChatSession, ModelsChanged, PullProgress, SessionEvent
from tests.controller_harness import MODEL, recorded_session, scripted_model
from tests.ollama_server import FakeModel, FakeOllama, Reply
from tests.openai_server import FakeOpenAI, ServedModel

SEEING = FakeModel("gemma3:4b", "gemma3", "4.3B", 131072, size=3_300_000_000,
                   capabilities=("completion", "vision"))
THINKING = FakeModel("qwen3:4b", "qwen3", "4.0B", 40960, size=2_600_000_000,
                     capabilities=("completion", "tools", "thinking"))
EMBEDDING = FakeModel("nomic-embed-text", "nomic-bert", "137M", 2048, size=274_000_000,
                      capabilities=("embedding",))
OLD_SERVER = FakeModel("phi3:mini", "phi3", "3.8B", 4096, capabilities=())  # no capabilities


@pytest.fixture
def server(ollama_server: FakeOllama) -> FakeOllama:
    ollama_server.models = [SEEING, THINKING, EMBEDDING, OLD_SERVER,
                            FakeModel(MODEL, "llama", "3.2B", 131072)]
    ollama_server.reply_fn = scripted_model()
    return ollama_server


@pytest_asyncio.fixture
async def backend(server: FakeOllama) -> AsyncIterator[OllamaBackend]:
    client = OllamaBackend(server.url, timeout=5.0)
    yield client
    await client.close()


@pytest.fixture
def session(tmp_path, server) -> Iterator[tuple[ChatSession, list[SessionEvent]]]:
    with recorded_session(tmp_path / "data", server) as recorded:
        yield recorded


def problems(events: list[SessionEvent]) -> list[tuple[str, str]]:
    return [(p.kind, p.text) for e in events if isinstance(e, Change) for p in e.problems]


def notices(events: list[SessionEvent]) -> list[str]:
    return [n for e in events if isinstance(e, Change) for n in e.notices]


def listings(events: list[SessionEvent]) -> list[dict[str, object]]:
    return [{m.name: m for m in e.models} for e in events if isinstance(e, ModelsChanged)]


# ------------------------------------------------------------------ Ollama
@pytest.mark.asyncio
async def test_show_says_each_capability_or_that_it_is_unknown(backend: OllamaBackend) -> None:
    seeing, thinking, old = [await backend.show(m.name) for m in (SEEING, THINKING, OLD_SERVER)]
    assert (seeing.vision, seeing.tools, seeing.thinking) == (True, False, False)
    assert (thinking.vision, thinking.tools, thinking.thinking) == (False, True, True)
    assert (old.vision, old.thinking) == (None, None)  # silence is not "cannot"
    assert seeing.context_length == 131072 and thinking.context_length == 40960


@pytest.mark.asyncio
async def test_a_listed_model_described_by_its_details(backend: OllamaBackend) -> None:
    rows = {m.name: m for m in await backend.list_models()}
    assert not any(m.described for m in rows.values())  # /api/tags says no context
    row = rows["qwen3:4b"].described_by(await backend.show("qwen3:4b"))
    assert (row.size, row.context_length, row.described) == (2_600_000_000, 40960, True)
    assert (row.vision, row.tools, row.thinking, row.embedding_only) == (False, True, True, False)
    embedding = rows["nomic-embed-text"].described_by(await backend.show("nomic-embed-text"))
    assert embedding.embedding_only


@pytest.mark.asyncio
async def test_delete_removes_the_model_from_the_server(backend: OllamaBackend,
                                                        server: FakeOllama) -> None:
    assert backend.actions.delete
    await backend.delete("gemma3:4b")
    assert "gemma3:4b" not in [m.name for m in await backend.list_models()]
    request = [r for r in server.requests if r.path == "/api/delete"][-1]
    assert request.method == "DELETE" and request.body == {"model": "gemma3:4b"}


@pytest.mark.asyncio
async def test_deleting_a_missing_model_says_nothing_was_deleted(backend: OllamaBackend) -> None:
    with pytest.raises(BackendError) as caught:
        await backend.delete("no-such:1b")
    assert caught.value.kind == "model_not_found"
    assert "nothing was deleted" in caught.value.message
    assert "Pull it" not in caught.value.message


@pytest.mark.asyncio
async def test_a_server_error_on_delete_keeps_the_model(backend: OllamaBackend,
                                                         server: FakeOllama) -> None:
    server.fail("/api/delete", 500, "permission denied: /usr/share/ollama/.ollama/models")
    with pytest.raises(BackendError) as caught:
        await backend.delete("gemma3:4b")
    assert caught.value.kind == "http" and "permission denied" in caught.value.message
    assert "gemma3:4b" in [m.name for m in await backend.list_models()]


# ------------------------------------------------------- other servers
@pytest.mark.asyncio
@pytest.mark.parametrize(("flavour", "context", "vision", "described"), [
    ("llama.cpp", 8192, None, False),  # n_ctx_train; vision and tools are in /props: ask show
    ("vllm", 4096, None, True),  # max_model_len; capabilities unknown
    ("lmstudio", 8192, True, True),  # max_context_length; "vlm"
    ("generic", None, None, True),  # names only
])
async def test_openai_compatible_listings_say_what_they_know(
        flavour: str, context: int | None, vision: bool | None, described: bool) -> None:
    fake = FakeOpenAI(flavour, [ServedModel("m1", vision=True)]).start()
    server = OpenAICompatServer(fake.url, flavour)  # type: ignore[arg-type]
    try:
        [row] = await server.list_models()
        assert (row.context_length, row.vision, row.described) == (context, vision, described)
        assert row.thinking is None
        if flavour == "llama.cpp":
            row = row.described_by(await server.show("m1"))
            assert (row.vision, row.context_length, row.described) == (True, 8192, True)
        assert not server.actions.delete
        with pytest.raises(BackendError) as caught:
            await server.delete("m1")
        assert caught.value.kind == "invalid" and "cannot delete" in caught.value.message
    finally:
        await server.close()
        fake.stop()


# ---------------------------------------------------------------- session
@pytest.mark.asyncio
async def test_the_listing_comes_at_once_and_its_details_follow(session, server) -> None:
    s, events = session
    await s.ollama.refresh()
    first = listings(events)[0]
    assert not first["qwen3:4b"].described  # shown before any /api/show answered
    await s.drain()
    described = listings(events)[-1]
    assert all(m.described for m in described.values())
    assert (described["qwen3:4b"].context_length, described["qwen3:4b"].thinking) == (40960, True)
    assert described["gemma3:4b"].vision and described["nomic-embed-text"].embedding_only
    assert s.models == list(described.values())
    # A second refresh lists described rows at once and asks /api/show for none of them.
    shows = len([r for r in server.requests if r.path == "/api/show"])
    await s.ollama.refresh()
    await s.drain()
    assert all(m.described for m in listings(events)[-1].values())
    assert len([r for r in server.requests if r.path == "/api/show"]) == shows


@pytest.mark.asyncio
async def test_a_model_without_details_is_asked_again_next_time(session, server) -> None:
    s, events = session
    server.fail("/api/show", 500, "busy", times=50)
    await s.ollama.refresh()
    await s.drain()
    assert not any(m.described for m in listings(events)[-1].values())
    server.path_failures.clear()
    await s.ollama.refresh()
    await s.drain()
    assert all(m.described for m in listings(events)[-1].values())


@pytest.mark.asyncio
async def test_delete_through_the_session(session, server) -> None:
    s, events = session
    await s.ollama.refresh()
    await s.drain()
    assert await s.ollama.delete("gemma3:4b") is True
    assert "gemma3:4b" not in [m.name for m in s.models]
    assert "gemma3:4b" not in listings(events)[-1]
    assert any("gemma3:4b was deleted" in n for n in notices(events))
    assert not problems(events)


@pytest.mark.asyncio
async def test_a_failed_delete_is_said_and_the_model_stays(session, server) -> None:
    s, events = session
    await s.ollama.refresh()
    server.fail("/api/delete", 500, "permission denied")
    assert await s.ollama.delete("gemma3:4b") is False
    assert [k for k, _t in problems(events)] == ["http"]
    assert "gemma3:4b" in [m.name for m in s.models]
    assert not any("deleted" in n for n in notices(events))


@pytest.mark.asyncio
async def test_the_model_answering_now_is_not_deleted(session, server) -> None:
    s, events = session
    await s.ollama.refresh()
    server.script(Reply(chunks=["word "] * 400, delay_per_chunk=0.01))
    _change, reason = s.start_turn("Tell me a long story.")
    assert reason is None
    turn = asyncio.ensure_future(s.turns.run("Tell me a long story."))
    try:
        while not s.streaming:
            await asyncio.sleep(0.005)
        assert await s.ollama.delete(MODEL) is False
        assert [k for k, _t in problems(events)] == ["busy"]
        assert not [r for r in server.requests if r.path == "/api/delete"]
        assert await s.ollama.delete("gemma3:4b") is True  # another model may go
    finally:
        turn.cancel()
        await asyncio.gather(turn, return_exceptions=True)
        s.turns.ended()


# ------------------------------------------------------------------- pulls
@pytest.mark.asyncio
async def test_a_pull_reports_its_model_and_ends_true(session, server) -> None:
    s, events = session
    server.pullable["tinyllama:1b"] = FakeModel("tinyllama:1b", size=1000,
                                                capabilities=("completion",))
    assert await s.ollama.pull("tinyllama:1b") is True
    progress = [e for e in events if isinstance(e, PullProgress)]
    assert progress and {p.model for p in progress} == {"tinyllama:1b"}
    assert progress[-1].status == "success"
    assert "tinyllama:1b" in [m.name for m in s.models]


@pytest.mark.asyncio
async def test_a_failed_pull_is_said_and_nothing_is_installed(session, server) -> None:
    s, events = session
    assert await s.ollama.pull("no-such-model:1b") is False
    assert [k for k, _t in problems(events)] == ["model_not_found"]
    assert not any("ready" in n for n in notices(events))
    assert "no-such-model:1b" not in [m.name for m in server.models]


@pytest.mark.asyncio
async def test_a_cancelled_pull_closes_the_download(session, server) -> None:
    s, events = session
    server.pullable["big:70b"] = FakeModel("big:70b", size=40_000_000_000)
    server.pull_delay = 0.2
    pull = asyncio.ensure_future(s.ollama.pull("big:70b"))
    while not any(isinstance(e, PullProgress) for e in events):
        await asyncio.sleep(0.005)
    pull.cancel()
    await asyncio.gather(pull, return_exceptions=True)
    assert pull.cancelled()
    assert await asyncio.to_thread(server.disconnected.wait, 10)
    assert "big:70b" not in [m.name for m in server.models]
    assert not problems(events) and not any("ready" in n for n in notices(events))
