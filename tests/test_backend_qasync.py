"""Stop under the app's real loop (qasync): cancelling the consumer still hangs up on Ollama."""

from __future__ import annotations

import asyncio

import pytest

from ollm_desktop.backend import ChatChunk, OllamaBackend
from tests.ollama_server import FakeOllama, Reply, ollama_server

__all__ = ["ollama_server"]

qasync = pytest.importorskip("qasync")


def test_cancel_on_qasync_loop_disconnects(qloop, ollama_server: FakeOllama) -> None:
    ollama_server.script(Reply(chunks=["tok "] * 2000, delay_per_chunk=0.005))

    async def scenario() -> tuple[str, int]:
        backend = OllamaBackend(ollama_server.url, timeout=5.0)
        first = asyncio.Event()

        async def consume() -> None:
            async for event in backend.chat_stream("llama3.2:3b",
                                                   [{"role": "user", "content": "hi"}],
                                                   num_ctx=2048):
                if isinstance(event, ChatChunk):
                    first.set()

        task = asyncio.ensure_future(consume())
        await asyncio.wait_for(first.wait(), 10)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        record = ollama_server.streams[-1]
        finished = await asyncio.to_thread(record.finished.wait, 10)
        await backend.close()
        return (record.outcome if finished else "still running"), record.sent

    # The session's one loop (conftest.qloop): a loop made and closed here left its socket
    # notifiers behind, and a later test's event processing crashed on them (CI, exit 139).
    outcome, sent = qloop.run_until_complete(scenario())
    assert outcome == "disconnected"
    assert sent < 2000
