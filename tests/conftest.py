"""Shared test setup: offscreen Qt, no real network, isolated data folders."""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_API", "pyside6")

import pytest

# the fact tests' shared checks assert as a test does (values shown on a failure)
pytest.register_assert_rewrite("tests.fact_ledger")

pytest_plugins = ["tests.ollama_server"]

FORCED_EXITS: list[str] = []  # the app's last resort (os._exit), reached in this process


@pytest.fixture(autouse=True, scope="session")
def _no_forced_exit():
    """The app's last resort at shutdown (``os._exit`` with tasks that would not stop) fails
    the run wherever it is reached in this process: the test that reached it fails at once
    (the exit is refused, so the run goes on), and the session's exit status says so.
    Subprocesses report it on stderr ("would not stop"), which their tests check."""
    real = os._exit

    def refuse(code: int) -> None:
        FORCED_EXITS.append(os.environ.get("PYTEST_CURRENT_TEST", "?"))
        raise AssertionError(f"os._exit({code}) reached: a task would not stop at shutdown")

    os._exit = refuse
    yield
    os._exit = real


def pytest_sessionfinish(session, exitstatus):
    if FORCED_EXITS:
        print(f"\nos._exit was reached in: {', '.join(FORCED_EXITS)}", file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


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

    from ollm_desktop.task_names import name_tasks

    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    old_hooks = sys.get_asyncgen_hooks()
    name_tasks(loop)  # as the app does: every task named, async generators closed (app.py)
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
