"""Builds a real ChatController (real store, real backend) against the loopback fake Ollama.

Nothing here is a mock of the app: the controller talks through the official ``ollama`` client
to ``tests.ollama_server.FakeOllama``, stores into SQLite under a temporary folder, and its
summaries come from the fake server too, answered by ``scripted_model``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ollm_desktop.controller import ChatController
from ollm_desktop.engine.prompts import CHAT_SUMMARY_OPENING
from ollm_desktop.engine.tokens import truncate_to_tokens
from ollm_desktop.paths import app_paths
from ollm_desktop.session import ChatSession, SessionEvent, Settings
from ollm_desktop.storage import ChatStore
from tests.engine_fakes import prompt_target, words
from tests.ollama_server import FakeOllama, Reply

MODEL = "llama3.2:3b"


def is_summary_request(body: dict[str, Any]) -> bool:
    """The engine's summary and condense prompts carry a token target; chat turns do not.
    A summary that reuses the chat's prefix ends with the engine's request for one."""
    if not isinstance(body, dict):  # a client killed mid-request sent no readable body
        return False
    messages = body.get("messages") or []
    last = str(messages[-1].get("content", "")) if messages else ""
    if last.startswith(CHAT_SUMMARY_OPENING):
        return True
    return bool(messages) and "at most" in last and (
        "<chat_history>" in last or "<checkpoint" in last or "<previous_checkpoint" in last)


def is_warmup(body: dict[str, Any]) -> bool:
    """The one-token request that warms the server's cache after a background compaction."""
    if not isinstance(body, dict):
        return False
    messages = body.get("messages") or []
    one = (body.get("options") or {}).get("num_predict") == 1 or body.get("max_tokens") == 1
    return bool(messages) and messages[-1].get("role") == "assistant" and one


def is_turn(body: dict[str, Any]) -> bool:
    """A chat turn: neither a summary nor a warm-up."""
    return not is_summary_request(body) and not is_warmup(body)


def chat_turns(server: FakeOllama) -> list[dict[str, Any]]:
    """The chat requests the fake received, summaries left out: what the user's turns sent."""
    return [b for b in server.chat_requests() if is_turn(b)]


def scripted_model(reply_words: int = 150) -> Callable[[dict[str, Any]], str]:
    """A well-behaved model: short structured summaries, ``reply_words``-word chat replies."""
    counter = {"n": 0}

    def answer(body: dict[str, Any]) -> str:
        counter["n"] += 1
        if is_summary_request(body):
            target = prompt_target(body["messages"])
            head = f"## Context\nSummary {counter['n']} of the chat.\n## Key Information\n"
            return head + truncate_to_tokens(words(target, counter["n"]), max(8, target // 3))
        return f"Reply {counter['n']}: " + words(reply_words, counter["n"])

    return answer


def make_settings(server: FakeOllama, **overrides: Any) -> Settings:
    values: dict[str, Any] = {"default_model": MODEL,
                              "context_size": 4096, "preserve_recent_tokens": 600}
    values.update(overrides)
    if "ollama_host" not in values:  # a stopped server has no URL: tests then pass one
        values["ollama_host"] = server.url
    return Settings(**values)


@contextmanager
def recorded_session(data_dir: Path, server: FakeOllama, **overrides: Any
                     ) -> Iterator[tuple[ChatSession, list[SessionEvent]]]:
    """A session over a fresh store in ``data_dir`` whose published events are recorded; the
    store is closed after."""
    store, _notices = ChatStore.open(app_paths(data_dir))
    session = ChatSession(store, make_settings(server, **overrides))
    events: list[SessionEvent] = []
    session.publish = events.append  # type: ignore[method-assign]
    try:
        yield session, events
    finally:
        store.close()


def make_controller(data_dir: Path, server: FakeOllama, **overrides: Any) -> ChatController:
    paths = app_paths(data_dir)
    paths.ensure()
    store, _notices = ChatStore.open(paths)
    return ChatController(store, make_settings(server, **overrides))


def run(loop: asyncio.AbstractEventLoop, scenario: Awaitable[Any]) -> Any:
    """Run a whole test scenario in ONE pass of the qasync loop, as the app runs.

    Stopping and restarting a qasync loop while an httpx request is in flight breaks anyio's
    task detection, so a test never leaves the loop between its steps.
    """
    return loop.run_until_complete(scenario)


async def turn(controller: ChatController, text: str) -> None:
    """Send one message and wait for the reply and any background compaction."""
    task = controller.send(text)
    if task is not None:
        await asyncio.gather(task, return_exceptions=True)
    await settle(controller)


async def settle(controller: ChatController) -> None:
    """Wait for every task the controller started (background compaction, probes)."""
    while pending := [t for t in list(controller._tasks) if not t.done()]:
        await asyncio.gather(*pending, return_exceptions=True)


async def until(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    """Yield to the loop until ``predicate`` holds (the asyncio twin of qtbot.waitUntil)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.005)


def shutdown(loop: asyncio.AbstractEventLoop, controller: ChatController) -> None:
    loop.run_until_complete(controller.shutdown())


__all__ = ["MODEL", "FakeOllama", "Reply", "chat_turns", "is_summary_request", "make_controller",
           "make_settings", "run", "scripted_model", "settle", "shutdown", "turn", "until"]
