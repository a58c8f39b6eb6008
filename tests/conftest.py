"""Shared test setup: offscreen Qt, no real network, isolated data folders."""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_API", "pyside6")

import pytest

pytest_plugins = ["tests.ollama_server"]


@pytest.fixture
def screenshot_dir(tmp_path):
    """Where screenshots go: $OLLM_SCREENSHOT_DIR (docs/screenshots when refreshing the docs),
    else the test's temporary folder; either way each one is really written."""
    from pathlib import Path

    target = os.environ.get("OLLM_SCREENSHOT_DIR")
    folder = Path(target) if target else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def paths(tmp_path):
    """AppPaths of a fresh data folder (storage tests)."""
    from ollm_desktop.paths import app_paths

    return app_paths(tmp_path / "data")


@pytest.fixture
def store(paths):
    """A ChatStore on a fresh folder; opening it must raise no notice."""
    from ollm_desktop.storage import ChatStore

    opened, notices = ChatStore.open(paths)
    assert notices == []
    yield opened
    opened.close()


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """A fresh data folder; OLLM_DATA_DIR points at it."""
    folder = tmp_path / "data"
    monkeypatch.setenv("OLLM_DATA_DIR", str(folder))
    return folder



@pytest.fixture(scope="session")
def _session_qloop(qapp):
    """One qasync loop for the whole run, as the app has one: creating and closing a loop per
    test leaves Qt timers and socket notifiers of dead loops behind (seen as rare crashes)."""
    import asyncio

    import qasync

    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    # qasync installs no async-generator hooks; the app does this too (see app.py).
    old_hooks = sys.get_asyncgen_hooks()
    sys.set_asyncgen_hooks(firstiter=loop._asyncgen_firstiter_hook,
                           finalizer=loop._asyncgen_finalizer_hook)
    yield loop
    loop.run_until_complete(loop.shutdown_asyncgens())
    sys.set_asyncgen_hooks(*old_hooks)
    loop.close()
    asyncio.set_event_loop(None)


@pytest.fixture
def qloop(_session_qloop):
    """The qasync loop; drive coroutines with ``qloop.run_until_complete`` (Qt signals and
    asyncio callbacks both run while it waits). Tasks a test leaves behind are cancelled."""
    import asyncio

    asyncio.set_event_loop(_session_qloop)
    yield _session_qloop
    pending = [t for t in asyncio.all_tasks(_session_qloop) if not t.done()]
    for task in pending:
        task.cancel()
    if pending:
        _session_qloop.run_until_complete(
            asyncio.wait(pending, timeout=5))


@pytest.fixture
def app(qloop, qtbot, tmp_path, server):
    """The real window over the requesting module's ``server`` fixture (its scripted model)."""
    from tests.test_ui_main_window import App

    a = App(qloop, qtbot, tmp_path / "data", server)
    yield a
    a.close()


@pytest.fixture
def controller(qloop, tmp_path, server):
    """A controller over the requesting module's ``server`` fixture (its scripted model)."""
    from tests.controller_harness import make_controller, shutdown

    c = make_controller(tmp_path / "data", server)
    yield c
    shutdown(qloop, c)
