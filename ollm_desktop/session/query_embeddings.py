"""Query embeddings a send waits for within a budget (recall's and the documents' meaning
search): a late one is left to finish by itself, tracked so that shutdown can end it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)

CLOSE_WAIT_S = 1.0  # the longest close() waits for cancelled query embeddings to end


class QueryEmbeddings:
    def __init__(self, task_name: str) -> None:
        self.task_name = task_name
        self.late: set[asyncio.Task[Any]] = set()  # running, whether waited for or not

    async def within(self, embed: Coroutine[Any, Any, list[list[float]]],
                     budget: float) -> list[list[float]] | None:
        """The vectors, or None when they did not come within ``budget`` seconds; the
        embedding's own error (``BackendError``) is raised."""
        task = asyncio.create_task(embed, name=self.task_name)
        self.late.add(task)  # tracked until it ends, so that close() can end it
        task.add_done_callback(self._ended)
        try:
            done, _pending = await asyncio.wait({task}, timeout=budget)
        except asyncio.CancelledError:
            task.cancel()  # the send was stopped (or the app closes): its query is of no use
            raise
        return task.result() if done else None

    async def close(self) -> None:
        """At shutdown: cancel the query embeddings still running (a late one is otherwise
        left for the client's timeout) and give them a moment to end; never wait longer."""
        late = [t for t in self.late if not t.done()]
        for task in late:
            task.cancel()
        if late:
            _done, stuck = await asyncio.wait(late, timeout=CLOSE_WAIT_S)
            for task in stuck:
                log.warning("task %s did not stop at shutdown", task.get_name())

    def _ended(self, task: asyncio.Task[Any]) -> None:
        self.late.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: a late failure is not an unhandled one
