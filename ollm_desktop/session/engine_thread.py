"""The engine's long work on a thread of its own, so the window's event loop never waits on it.

A compaction at 32K-128K is seconds of pure-Python work (facts, references, counts, the
request's layout). ``EngineThread`` is the engine's ``Worker``: the job runs on a new thread
with an event loop of its own, its summary requests go back to the caller's loop (the HTTP
client and its connections live there), and so do its events. The result is applied on the
caller's loop by the engine (``engine.compaction_draft``).

A thread, not a process: measured with ``bench/bench_compaction_stall.py`` the loop's longest
gap stays within a few switch intervals (``sys.getswitchinterval()``, 5 ms), because the
engine's regular expressions run on one message at a time; a process would have to copy the
chat both ways and own no connection to the server, for no gain in what the window feels.

Cancelling the awaiting task (a send pauses a background compaction, the app shuts down)
cancels the job on its thread at its next await and the summary request on the caller's loop
at once; the thread is a daemon, so a job still in a CPU stage never holds up the exit, and
its result is thrown away.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import gc
import sys
import threading
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, TypeVar

from ollm_desktop.engine.models import EngineEvent
from ollm_desktop.engine.summarizer import Summarize

T = TypeVar("T")
Listener = Callable[[EngineEvent], None]


class EngineThread:
    """Runs one engine job at a time per call on a daemon thread (see the module)."""

    def __init__(self, name: str = "engine-work") -> None:
        self.name = name

    async def run(self, job: Callable[[], Coroutine[Any, Any, T]]) -> T:
        home = asyncio.get_running_loop()
        done: asyncio.Future[T] = home.create_future()
        started = threading.Event()
        away: dict[str, Any] = {}

        def settle(result: T | None, error: BaseException | None) -> None:
            if done.done():
                return
            if error is not None:
                done.set_exception(error)
            else:
                done.set_result(result)  # type: ignore[arg-type]

        def body() -> None:
            loop = asyncio.new_event_loop()
            try:
                task = loop.create_task(job(), name=f"{self.name}-job")
                away.update(loop=loop, task=task)
                started.set()
                try:
                    result = loop.run_until_complete(task)
                except BaseException as exc:  # handed to the awaiting task
                    _hand_over(home, settle, None, exc)
                    return
                _hand_over(home, settle, result, None)
            finally:
                started.set()
                loop.close()

        settle_heap()
        with _short_turns():  # before the thread starts: its first steps wait less too
            threading.Thread(target=body, name=self.name, daemon=True).start()
            try:
                return await done
            except asyncio.CancelledError:
                started.wait()
                loop, task = away.get("loop"), away.get("task")
                if loop is not None and task is not None and not loop.is_closed():
                    with contextlib.suppress(RuntimeError):  # it has just ended: nothing to
                        loop.call_soon_threadsafe(task.cancel)  # cancel
                raise

    def home(self, summarize: Summarize) -> Summarize:
        """``summarize`` run on the caller's loop, awaited from the job's thread (wrapped on
        the caller's loop)."""
        home = asyncio.get_running_loop()

        @functools.wraps(summarize)  # its signature too: the engine asks it (max_tokens)
        async def at_home(*args: Any, **kwargs: Any) -> str:
            request: Coroutine[Any, Any, str] = summarize(*args, **kwargs)  # type: ignore[assignment]
            future: concurrent.futures.Future[str] = asyncio.run_coroutine_threadsafe(request,
                                                                                      home)
            try:
                return await asyncio.wrap_future(future)
            except asyncio.CancelledError:
                future.cancel()  # the request on the caller's loop ends too
                raise

        return at_home

    def asks_home(self, question: Callable[[], T]) -> Callable[[], Coroutine[Any, Any, T]]:
        """``question()`` answered on the caller's loop (whose state it reads), awaited from
        the job's thread (wrapped on the caller's loop)."""
        home = asyncio.get_running_loop()

        async def answer() -> T:
            return question()

        async def ask() -> T:
            future = asyncio.run_coroutine_threadsafe(answer(), home)
            return await asyncio.wrap_future(future)

        return ask

    def relay(self, listener: Listener) -> Listener:
        """Events of the job's copy, delivered on the caller's loop (wrapped there)."""
        home = asyncio.get_running_loop()

        def deliver(event: EngineEvent) -> None:
            _hand_over(home, listener, event)

        return deliver


JOB_SWITCH_INTERVAL = 0.001  # seconds a thread holds the GIL while another waits, during a job
_jobs = [0, sys.getswitchinterval()]  # jobs running; the interval to restore after the last


@contextlib.contextmanager
def _short_turns() -> Iterator[None]:
    """While a job runs, a thread waiting for the GIL gets it after 1 ms instead of 5 ms.

    The window's thread needs the GIL for each Python call Qt makes while it paints or lays
    out (a row's data, size and paint): with the worker busy in Python, each of them waited up
    to the 5 ms default, which adds up to tens of ms per repaint (the gaps of P11 at 128K that
    were neither the loop's own work nor a wait for a core). Set on the caller's loop only.
    """
    if _jobs[0] == 0:
        _jobs[1] = sys.getswitchinterval()
        sys.setswitchinterval(min(_jobs[1], JOB_SWITCH_INTERVAL))
    _jobs[0] += 1
    try:
        yield
    finally:
        _jobs[0] -= 1
        if _jobs[0] == 0:
            sys.setswitchinterval(_jobs[1])


def settle_heap() -> None:
    """Move what is alive now out of the cyclic garbage collector's sight, before a job.

    A job allocates copies of the chat (tens of thousands of objects at 32K-128K); they push
    the collector into a full collection, which walks every tracked object of the process
    (the chat, the window's wrappers, every module) holding the GIL: 70-150 ms in which the
    event loop cannot run (measured in the P11 benchmark with ``gc.callbacks``). Frozen
    objects are skipped by every collection; they are still freed when unreferenced, only
    cycles among them are not collected, so the young generations are collected first (a
    few ms: what was just made, not the heap).
    """
    gc.collect(1)
    gc.freeze()


def release_heap() -> None:
    """Give the frozen objects back to the collector (``settle_heap``) when the open chat
    changes: the old chat's objects may be cyclic garbage now, which only a collection that
    sees them frees. The full collection that follows falls in the chat switch, not in a
    compaction."""
    gc.unfreeze()


def _hand_over(loop: asyncio.AbstractEventLoop, callback: Callable[..., Any], *args: Any) -> None:
    """``callback(*args)`` on ``loop``; nothing once the app closed it (a job that ended
    after the shutdown has no one to tell)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(callback, *args)
