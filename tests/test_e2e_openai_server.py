"""A real llama.cpp server (skipped unless $LLAMA_SERVER_URL is set): a 20-turn chat at a
2,048-token window through the app's real controller, session and engine (issue 24).

Start the server with one slot of 2,048 tokens, so its window is the chat's, e.g. with the
benchmark's build (bench/memory/real_model.sh setup):

    LD_LIBRARY_PATH=~/.cache/ollm-bench-llm/lib <llama-server> \\
        -m ~/.cache/ollm-bench-llm/model/SmolLM2-135M-Instruct.Q4_1.gguf \\
        -c 2048 --parallel 1 -t 1 --host 127.0.0.1 --port 8095
    LLAMA_SERVER_URL=http://127.0.0.1:8095/v1 QT_QPA_PLATFORM=offscreen \\
        .venv/bin/python -m pytest -q -s tests/test_e2e_openai_server.py

It asserts what the issue asks (it compacts, no request is refused as over-length, counts come
from the server) and prints the run's figures as one JSON line.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import AsyncGenerator
from typing import Any

import pytest

from ollm_desktop.backend import BackendError, ChatDone
from ollm_desktop.backend.openai_compat import COUNTED_BEFORE_SENDING
from ollm_desktop.controller import ChatController
from ollm_desktop.paths import app_paths
from ollm_desktop.session import Settings
from ollm_desktop.storage import ChatStore
from ollm_desktop.storage.models import ChatSettings
from tests.controller_harness import run, settle, turn
from tests.realistic_chat import conversation

URL = os.environ.get("LLAMA_SERVER_URL", "")
TURNS = int(os.environ.get("LLAMA_SERVER_TURNS", "20"))

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(not URL, reason="LLAMA_SERVER_URL is not set")]


class Recorder:
    """Passes every call to the app's backend; notes each request's exact count (asked of the
    server before it goes), the server's usage count, and every over-length error."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.requests: list[dict[str, Any]] = []
        self.overflows: list[BackendError] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def chat_stream(self, model: str, messages: Any, **kwargs: Any,
                          ) -> AsyncGenerator[Any, None]:
        exact = await self._inner.count(model, messages)
        row: dict[str, Any] = {"exact": exact, "usage": None,
                               "summary": "<chat_history>" in str(messages[-1]["content"])
                               or "<checkpoint" in str(messages[-1]["content"])}
        self.requests.append(row)
        try:
            async for event in self._inner.chat_stream(model, messages, **kwargs):
                if isinstance(event, ChatDone):
                    row["usage"], row["cached"] = (event.prompt_eval_count,
                                                   event.prompt_eval_cached_count)
                yield event
        except BackendError as exc:
            if exc.kind == "context_overflow":
                self.overflows.append(exc)
            raise

    async def chat(self, model: str, messages: Any, **kwargs: Any) -> ChatDone:
        async for event in self.chat_stream(model, messages, **kwargs):
            if isinstance(event, ChatDone):
                return event
        raise AssertionError("no final event")


def test_twenty_turns_at_2k_against_a_real_llama_server(qloop, tmp_path) -> None:
    paths = app_paths(tmp_path / "data")
    paths.ensure()
    store, _ = ChatStore.open(paths)
    controller = ChatController(store, Settings(context_size=2048), host=URL)
    recorder = Recorder(controller.session.backend)
    controller.session.backend = recorder  # type: ignore[assignment]
    compactions: list[Any] = []
    failures: list[tuple[str, str]] = []
    errors: list[tuple[str, str]] = []
    notices: list[str] = []
    controller.compactionFinished.connect(compactions.append)
    controller.sendFailed.connect(lambda text, why: failures.append((text, why)))
    controller.error.connect(lambda kind, text: errors.append((kind, text)))
    controller.notice.connect(notices.append)
    chat = conversation(max(TURNS, 10))
    started = time.monotonic()

    async def scenario() -> None:
        status = await controller.refresh_ollama()
        await settle(controller)
        assert status.reachable, status.error
        controller.new_chat("Real llama.cpp server")
        # A reply cap as a user would set one for a small model (it rambles otherwise).
        controller.apply_chat_settings(ChatSettings(num_predict=160), 2048)
        for t in chat.turns[:TURNS]:
            await turn(controller, t.user)

    try:
        run(qloop, scenario())
    finally:
        run(qloop, controller.shutdown())
    session = controller.session
    chats = [r for r in recorder.requests if not r["summary"]]
    from_server = [r for r in recorder.requests if r["usage"] is not None]
    server_refusals = [e for e in recorder.overflows
                       if not (e.detail or "").startswith(COUNTED_BEFORE_SENDING)]
    figures = {
        "turns": TURNS, "seconds": round(time.monotonic() - started),
        "window": controller.snapshot.server_window,
        "chat_context": session.chat.context_size if session.chat else None,
        "compactions": session.engine.compaction_count if session.engine else 0,
        "chat_requests": len(chats),
        "summary_requests": len(recorder.requests) - len(chats),
        "server_refusals": len(server_refusals),
        "caught_before_sending": len(recorder.overflows) - len(server_refusals),
        "exact_equals_usage": sum(r["exact"] == r["usage"] for r in from_server),
        "with_usage": len(from_server),
        "max_usage": max((r["usage"] for r in from_server), default=0),
        "calibration": session.calibrations.for_model(session.model or "").model_dump(),
        "failed_sends": len(failures), "errors": errors,
    }
    print(json.dumps(figures))
    assert figures["window"] == 2048 and figures["chat_context"] == 2048
    assert figures["compactions"] >= 1
    assert figures["server_refusals"] == 0 and not failures
    # Counts come from the server: every request's count is the server's (usage), and the
    # exact count asked before it matched it.
    assert figures["with_usage"] == len(recorder.requests)
    assert figures["exact_equals_usage"] == figures["with_usage"]
    assert figures["max_usage"] < 2048
