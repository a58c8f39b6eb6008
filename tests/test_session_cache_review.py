"""Review findings on the server cache's session side: each test failed before its fix.

11: a cancelled summary or warm-up that does not end is waited for only briefly; Regenerate
and Continue stop a warm-up and pause a background summary as a send does. 15: a compaction
cancelled by anything but a send's pause (the app's shutdown) says nothing; a round's
embedding computed while the round was derived again is not written onto it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from ollm_desktop.engine import Message
from ollm_desktop.session import ChatSession, CompactionEnded
from ollm_desktop.session import server_cache as server_cache_module
from ollm_desktop.session.compactions import PAUSED
from ollm_desktop.session.server_cache import ServerCache
from tests.controller_harness import (
    is_summary_request,
    is_warmup,
    recorded_session,
    scripted_model,
    until,
)
from tests.ollama_server import FakeOllama, Reply

pytestmark = pytest.mark.asyncio

HELD = 60.0  # seconds the fake server holds a request (it wakes early when it stops)
ROUNDS = [(f"Round {i}: the report exporter again. " + "It keeps timing out on big files. " * 6,
           "Try streaming the rows instead of building the list. " * 12) for i in range(14)]


# ------------------------------------------------------------------ 11: bounded waits
async def _stuck(release: asyncio.Event) -> asyncio.Task[None]:
    """A running task a cancel does not end (as an httpx connect stranded on the qasync
    loop) until ``release`` is set."""
    started = asyncio.Event()

    async def body() -> None:
        started.set()
        while not release.is_set():
            try:
                await release.wait()
            except asyncio.CancelledError:
                continue

    task = asyncio.ensure_future(body())
    await started.wait()
    return task


async def test_a_send_does_not_wait_forever_for_a_paused_summary_that_will_not_end(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_cache_module, "CANCEL_WAIT_S", 0.05, raising=False)
    release = asyncio.Event()
    task = await _stuck(release)
    core: Any = SimpleNamespace(compaction_task=task)
    cache = ServerCache(core)
    cache.background = task
    send = asyncio.ensure_future(cache.before_send())
    try:
        # asyncio.wait, not wait_for: cancelling a wait on the stuck task would hang too
        await asyncio.wait({send}, timeout=5)
        assert send.done() and send.result() is True
        assert cache.stats["paused"] == 1 and not task.done()
    finally:
        release.set()
        await asyncio.gather(task, send)


async def test_a_send_does_not_wait_forever_for_a_warm_up_that_will_not_end(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_cache_module, "CANCEL_WAIT_S", 0.05, raising=False)
    release = asyncio.Event()
    task = await _stuck(release)
    core: Any = SimpleNamespace(compaction_task=None)
    cache = ServerCache(core)
    cache.warm_task = task
    send = asyncio.ensure_future(cache.before_send())
    closing = asyncio.ensure_future(cache.close())  # the session closing: the same wait
    try:
        await asyncio.wait({send, closing}, timeout=5)
        assert send.done() and send.result() is False and closing.done()
    finally:
        release.set()
        await asyncio.gather(task, send, closing)


# ------------------------------------------------------------------ 11: Regenerate, Continue
@pytest.fixture
def server(ollama_server: FakeOllama) -> FakeOllama:
    ollama_server.reply_fn = scripted_model(reply_words=12)
    return ollama_server


@pytest.fixture
def session(tmp_path: Any, server: FakeOllama) -> Iterator[tuple[ChatSession, list[Any]]]:
    with recorded_session(tmp_path / "data", server, context_size=2048,
                          preserve_recent_tokens=0) as recorded:
        yield recorded


def _seed(s: ChatSession, *, stopped: bool = False) -> None:
    """A chat just over its compaction trigger whose request still goes out whole, opened;
    its newest reply stopped if ``stopped``."""
    s.new_chat("cache")
    engine, chat = s.engine, s.chat
    assert chat is not None and engine is not None
    for user, reply in ROUNDS:
        if engine.needs_compaction():
            break
        for message in (Message(role="user", content=user),
                        Message(role="assistant", content=reply)):
            engine.add_message(message)
            s.store.append_message(chat.id, message)
    if stopped:
        newest = engine.display_messages()[-1]
        newest.partial = True
        s.store.update_message(chat.id, newest)
    s.save_state()
    s.open_chat(chat.id)
    assert s.engine is not None and s.engine.needs_compaction()
    usage = s.engine.usage()
    assert usage.dropped_messages == 0 and usage.total <= usage.usable  # it fits


def _hold(server: FakeOllama, held: dict[str, bool]) -> None:
    """Summaries and warm-ups are held by the server while ``held`` says so."""
    answer = scripted_model(reply_words=12)

    def reply(body: dict[str, Any]) -> str | Reply:
        text = answer(body)
        if (held.get("summary") and is_summary_request(body)) or \
                (held.get("warmup") and is_warmup(body)):
            return Reply(text=text, delay_before=HELD)
        return text

    server.reply_fn = reply


async def _edit(s: ChatSession, kind: str) -> None:
    change = s.start_reply_edit(kind)  # type: ignore[arg-type]
    assert not change.problems, change.problems
    edits = s.reply_edits
    try:
        await asyncio.wait_for(edits.regenerate() if kind == "regenerate"
                               else edits.continue_reply(), timeout=30)
    finally:
        s.turns.ended()


@pytest.mark.parametrize("kind", ["regenerate", "continue"])
async def test_regenerate_and_continue_stop_a_running_warm_up(session, server, kind) -> None:
    s, _events = session
    held = {"warmup": True}
    _hold(server, held)
    _seed(s, stopped=kind == "continue")
    s.compactions.schedule_background()
    await until(lambda: any(is_warmup(b) for b in server.chat_requests()))
    warm = s.compactions.cache.warm_task
    assert warm is not None and not warm.done()
    held["warmup"] = False
    await _edit(s, kind)
    assert warm.cancelled() and s.compactions.cache.stats["warm_cancelled"] == 1
    await s.drain()
    await s.close()


@pytest.mark.parametrize("kind", ["regenerate", "continue"])
async def test_regenerate_and_continue_pause_a_background_summary(session, server, kind) -> None:
    """A send never waits behind our own summary; Regenerate and Continue were refused while
    it ran ("being compacted"), and nothing paused it for them."""
    s, events = session
    held = {"summary": True}
    _hold(server, held)
    _seed(s, stopped=kind == "continue")
    assert s.engine is not None
    before = s.engine.display_messages()[-1]
    s.compactions.schedule_background()
    await until(lambda: any(is_summary_request(b) for b in server.chat_requests()))
    held["summary"] = False  # the compaction run again after the reply is answered at once
    await _edit(s, kind)
    assert s.compactions.cache.stats["paused"] == 1
    assert any(isinstance(e, CompactionEnded) and e.report.reason == PAUSED for e in events)
    newest = s.engine.display_messages()[-1]
    assert newest.role == "assistant" and newest.content != before.content
    await s.drain()
    await s.close()


# ------------------------------------------------------------------ 15: said, or not
async def test_a_compaction_cancelled_at_shutdown_says_nothing(session, server) -> None:
    s, events = session
    _hold(server, {"summary": True})
    _seed(s)
    s.compactions.schedule_background()
    task = s.compaction_task
    assert task is not None
    await until(lambda: any(is_summary_request(b) for b in server.chat_requests()))
    task.cancel()  # as the controller's shutdown does
    await asyncio.wait({task}, timeout=5)
    assert task.done()
    assert not any(isinstance(e, CompactionEnded) and e.report.reason == PAUSED
                   for e in events)
    await s.close()


async def test_an_embedding_made_while_its_round_changed_is_not_written_onto_it(
        session, server) -> None:
    """The reply arrived while its round (the user's message alone) was being embedded: the
    round was derived again under the same rowid, and the stale vector was written onto it."""
    s, _events = session
    s.settings.embedding_model = "all-minilm"
    s.new_chat("vectors")
    assert s.chat is not None and s.engine is not None
    chat = s.chat
    user = Message(role="user", content="Where do the nightly exports go?")
    s.engine.add_message(user)
    s.store.append_message(chat.id, user)
    await s.drain()
    s.store._conn.execute("UPDATE recall_rounds SET vector = NULL, vector_model = NULL")
    reply = Message(role="assistant", content="They go to the archive bucket.")
    original = s.backend.embed
    calls: list[list[str]] = []

    async def embed(model: str, texts: list[str], **kwargs: Any) -> list[list[float]]:
        calls.append(list(texts))
        vectors = await original(model, texts, **kwargs)
        if len(calls) == 1:  # the reply lands while the first batch is in flight
            s.engine.add_message(reply)  # type: ignore[union-attr]
            s.store.append_message(chat.id, reply)
        return vectors

    s.backend.embed = embed  # type: ignore[method-assign]
    await s.recall.embed_rounds()
    rows = s.store.vectors(chat.id, "all-minilm")
    assert len(rows) == 1
    (text,) = [t for _r, t in s.store._conn.execute(
        "SELECT rowid, user || char(10) || reply FROM recall_text")]
    assert "archive bucket" in text
    wanted = np.asarray((await original("all-minilm", [text]))[0], dtype=np.float32)
    stored = np.frombuffer(rows[0][1], dtype=np.float32)
    assert np.allclose(stored, wanted / np.linalg.norm(wanted))
    await s.drain()
    await s.close()
