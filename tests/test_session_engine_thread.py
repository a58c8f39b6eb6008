"""The engine's worker thread (issue 29): the job runs away from the loop, its summary requests
and events come back to the loop, and cancelling the awaiting task ends both ends."""

from __future__ import annotations

import asyncio
import gc
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from ollm_desktop.engine import ContextEngine, EngineConfig
from ollm_desktop.engine.models import EngineEvent
from ollm_desktop.paths import app_paths
from ollm_desktop.session import ChatSession
from ollm_desktop.session.engine_thread import JOB_SWITCH_INTERVAL, EngineThread
from ollm_desktop.storage import ChatStore
from tests.controller_harness import make_settings
from tests.engine_fakes import GoodSummarizer, exchange


def test_the_job_runs_on_another_thread_and_its_requests_on_the_loop() -> None:
    async def scenario() -> None:
        worker = EngineThread("test-engine")
        loop_thread = threading.get_ident()
        seen: dict[str, int] = {}

        async def summarize(prompt: str) -> str:
            seen["request"] = threading.get_ident()
            return prompt.upper()

        events: list[int] = []
        relay = worker.relay(lambda _event: events.append(threading.get_ident()))
        at_home = worker.home(summarize)

        async def job() -> str:
            seen["job"] = threading.get_ident()
            relay(EngineEvent(name="compaction-progress"))
            return await at_home("checkpoint")

        assert await worker.run(job) == "CHECKPOINT"
        await asyncio.sleep(0)  # the relayed event is delivered by the loop
        assert seen["job"] != loop_thread
        assert seen["request"] == loop_thread
        assert events == [loop_thread]

    asyncio.run(scenario())


def test_cancelling_the_awaiting_task_cancels_the_job_and_its_request() -> None:
    async def scenario() -> None:
        worker = EngineThread("test-engine")
        started, cancelled = asyncio.Event(), asyncio.Event()

        async def summarize(_prompt: str) -> str:
            started.set()
            try:
                await asyncio.Event().wait()  # a summary that never ends
            except asyncio.CancelledError:
                cancelled.set()
                raise
            return ""

        at_home = worker.home(summarize)
        job_ended = threading.Event()

        async def job() -> str:
            try:
                return await at_home("x")
            finally:
                job_ended.set()

        task = asyncio.ensure_future(worker.run(job))
        await asyncio.wait_for(started.wait(), 10)
        task.cancel()
        await asyncio.wait({task}, timeout=10)
        assert task.cancelled()
        await asyncio.wait_for(cancelled.wait(), 10)  # the server's stream closes too
        assert await asyncio.to_thread(job_ended.wait, 10)

    asyncio.run(scenario())


def test_a_compaction_in_the_worker_gives_the_same_checkpoint_as_one_in_place() -> None:
    """Seen: the summariser's wrapper hid its signature, the engine passed ``max_tokens`` to
    a summariser that takes none, and every checkpoint was built by code."""
    async def compacted(worker: EngineThread | None) -> tuple[list[list[str]], int]:
        engine = ContextEngine(EngineConfig(context_size=8192, min_messages=2),
                               GoodSummarizer(), "sys")
        for turn in range(16):
            exchange(engine, turn)
        report = await engine.compact(force=True, worker=worker)
        assert report.status == "compacted"
        return [g.message_ids for g in engine.groups], engine.api_tokens()

    async def scenario() -> None:
        in_place = await compacted(None)
        away = await compacted(EngineThread("test-engine"))
        assert [len(ids) for ids in away[0]] == [len(ids) for ids in in_place[0]]
        assert away[1] == in_place[1]

    asyncio.run(scenario())



@pytest.mark.asyncio
async def test_a_job_hides_the_heap_from_the_collector_until_the_chat_changes(
        tmp_path: Path, ollama_server: Any) -> None:
    """A full collection during a job walks the whole heap holding the GIL (70-150 ms of a
    frozen window at 32K): what is alive when a job starts is frozen, and given back when
    the open chat changes (its old objects may be garbage then)."""
    gc.unfreeze()

    async def job() -> int:
        return gc.get_freeze_count()

    assert await EngineThread("test-engine").run(job) > 0
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    session = ChatSession(store, make_settings(ollama_server))
    session.new_chat("another chat")
    assert gc.get_freeze_count() == 0
    await session.close()
    store.close()


_SWITCH_SCRIPT = """
import asyncio, sys
from ollm_desktop.session.engine_thread import EngineThread
sys.setswitchinterval(0.005)

async def job():
    return sys.getswitchinterval()

async def scenario():
    return await EngineThread("test-engine").run(job)

print(asyncio.run(scenario()), sys.getswitchinterval())
"""


def test_a_thread_waiting_for_the_gil_gets_it_sooner_while_a_job_runs() -> None:
    """The window's thread needs the GIL for every Python call Qt makes while it paints; with
    the worker busy, each waited up to the 5 ms default (``JOB_SWITCH_INTERVAL`` meanwhile),
    and the default is back after the job. In a process of its own: the interval is the
    process's, and a job of an earlier test in this worker may still be ending."""
    done = subprocess.run([sys.executable, "-c", _SWITCH_SCRIPT], capture_output=True,
                          text=True, check=True, timeout=120)
    during, after = (float(x) for x in done.stdout.split())
    assert during == JOB_SWITCH_INTERVAL < 0.005
    assert after == 0.005
