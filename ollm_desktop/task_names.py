"""Every asyncio task of the app has a name that says where it came from.

The app names the tasks it starts itself ("turn", "background-compaction", ...). Libraries and
asyncio start some too: asyncio closes an abandoned async generator (an HTTP stream that was
left unfinished) in a task of its own, and a coroutine handed to ``ensure_future`` without a
name became "Task-48" in a log that said a task would not stop at shutdown, with nothing to
find it by. ``name_tasks`` makes every task on the loop nameable: one started without a name
is called after its coroutine (``unnamed: RecallService._query_vector``), and the closing of
an async generator after the generator (``close: ChatClient.stream``).

It also installs the async-generator hooks qasync does not install: without them an
abandoned stream keeps its socket open until the garbage collector runs.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncGenerator, Coroutine
from typing import Any

UNNAMED = "unnamed: "  # the prefix of a task its creator did not name
CLOSING = "close: "  # the prefix of the task that closes an abandoned async generator


def _coroutine_name(coro: Any) -> str:
    return str(getattr(coro, "__qualname__", None) or type(coro).__name__)


def _named_task(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any],
                **kwargs: Any) -> asyncio.Task[Any]:
    # create_task(name=...) names the task after this returns (Python 3.12; 3.13 passes the
    # name here); ensure_future(coro) never names it.
    kwargs.setdefault("name", None)
    if kwargs["name"] is None:
        kwargs["name"] = UNNAMED + _coroutine_name(coro)
    return asyncio.Task(coro, loop=loop, **kwargs)


def name_tasks(loop: asyncio.AbstractEventLoop) -> None:
    """Install the naming task factory and the async-generator hooks on ``loop`` (before
    any task of the app starts; the hooks apply to the calling thread)."""
    loop.set_task_factory(_named_task)
    firstiter = loop._asyncgen_firstiter_hook  # type: ignore[attr-defined]
    known = loop._asyncgens  # type: ignore[attr-defined]

    def finalizer(agen: AsyncGenerator[Any, Any]) -> None:
        known.discard(agen)
        if not loop.is_closed():
            loop.call_soon_threadsafe(_close_generator, loop, agen)

    sys.set_asyncgen_hooks(firstiter=firstiter, finalizer=finalizer)


def _close_generator(loop: asyncio.AbstractEventLoop, agen: AsyncGenerator[Any, Any]) -> None:
    if not loop.is_closed():
        loop.create_task(agen.aclose(), name=CLOSING + _coroutine_name(agen))
