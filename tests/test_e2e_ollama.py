"""Against a real Ollama at $OLLAMA_HOST (skipped otherwise): list models, stream a reply."""

from __future__ import annotations

import os

import pytest

from ollm_desktop.backend import ChatChunk, ChatDone, OllamaBackend

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not os.environ.get("OLLAMA_HOST"), reason="OLLAMA_HOST is not set"),
]


@pytest.mark.asyncio
async def test_list_models_and_stream_a_short_reply() -> None:
    backend = OllamaBackend(None, timeout=10.0, keep_alive="1m")
    try:
        assert await backend.version()
        models = await backend.list_models()
        if not models:
            pytest.skip("no model installed on the real Ollama")
        model = min(models, key=lambda m: m.size or 0).name
        details = await backend.show(model)
        assert details.context_length is None or details.context_length > 0
        events = [event async for event in backend.chat_stream(
            model, [{"role": "user", "content": "Reply with the single word: hello"}],
            num_ctx=2048, options={"num_predict": 16, "temperature": 0})]
    finally:
        await backend.close()
    done = events[-1]
    assert isinstance(done, ChatDone)
    assert all(isinstance(e, ChatChunk) for e in events[:-1])
    assert done.prompt_eval_count and done.prompt_eval_count > 0
    assert done.eval_count and done.eval_count > 0
    assert done.content == "".join(e.text for e in events[:-1])
