"""Shared test setup: offscreen Qt, no real network, isolated data folders."""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_API", "pyside6")

import pytest

pytest_plugins = ["tests.ollama_server"]


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """A fresh data folder; OLLM_DATA_DIR points at it."""
    folder = tmp_path / "data"
    monkeypatch.setenv("OLLM_DATA_DIR", str(folder))
    return folder



@pytest.fixture
def qloop(qapp):
    """A qasync event loop on the test's QApplication, as the app runs (platform-facts.md).

    Drive coroutines with ``qloop.run_until_complete``; Qt signals and asyncio callbacks
    both run while it waits.
    """
    import asyncio

    import qasync

    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    # qasync installs no async-generator hooks; the app does this too (see app.py).
    old_hooks = sys.get_asyncgen_hooks()
    sys.set_asyncgen_hooks(firstiter=loop._asyncgen_firstiter_hook,
                           finalizer=loop._asyncgen_finalizer_hook)
    yield loop
    pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
    for task in pending:
        task.cancel()
    if pending:
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    loop.run_until_complete(loop.shutdown_asyncgens())
    sys.set_asyncgen_hooks(*old_hooks)
    loop.close()
    asyncio.set_event_loop(None)
