"""Closing the window ends the app cleanly in whatever it was doing (issue 29, point 3).

Each case runs the real ``main()`` in a fresh process (``tests/shutdown_driver.py``) against
the loopback Ollama, puts it into one state, closes the window, and fails if the app left a
task (its last resort, ``os._exit``, was reached), a thread or a child process, or did not
end by itself. ``bench/shutdown_closes.py`` runs 20 such closes for the figures.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from ollm_desktop import task_names
from tests.shutdown_closes import HELD, ShutdownServer, clean, close_once


@pytest.fixture(scope="module")
def closing_server():
    with ShutdownServer().running() as server:
        yield server


@pytest.mark.parametrize("state", list(HELD))
def test_closing_the_window_ends_every_task(closing_server, state, tmp_path) -> None:
    closing_server.disconnected.clear()
    report = close_once(closing_server, state, tmp_path)
    summary = json.dumps({k: v for k, v in report.items() if k != "stderr"}, indent=1)
    assert report["reached"], f"the app never reached {state!r}: {summary}"
    assert report["returncode"] is not None, f"the app did not end: {summary}"
    assert report["forced_exit"] is None, f"os._exit with tasks left: {summary}"
    assert "would not stop" not in report["stderr"]
    assert clean(report), summary
    if state == "stream":  # the harness can fail: the close hung up on the held reply
        assert (tmp_path / "markers" / "turn").exists()
        assert closing_server.disconnected.wait(10)
        assert closing_server.streams[-1].outcome == "disconnected"


def test_a_task_started_without_a_name_is_named_after_its_coroutine(qloop) -> None:
    async def fetch_the_weather() -> int:
        return 1

    async def scenario() -> tuple[str, str]:
        unnamed = asyncio.ensure_future(fetch_the_weather())
        named = asyncio.get_running_loop().create_task(fetch_the_weather(), name="weather")
        await asyncio.gather(unnamed, named)
        return unnamed.get_name(), named.get_name()

    unnamed, named = qloop.run_until_complete(scenario())
    assert unnamed == task_names.UNNAMED + "test_a_task_started_without_a_name_is_named_after_" \
        "its_coroutine.<locals>.fetch_the_weather"
    assert named == "weather"


def test_an_abandoned_stream_is_closed_by_a_named_task(qloop) -> None:
    closed: list[str] = []

    async def stream():
        try:
            yield 1
            yield 2
        finally:
            closed.append(asyncio.current_task().get_name())

    async def scenario() -> None:
        agen = stream()
        await agen.__anext__()
        del agen  # abandoned mid-stream: the loop's hook closes it
        for _ in range(20):
            if closed:
                return
            await asyncio.sleep(0)

    qloop.run_until_complete(scenario())
    assert closed == [task_names.CLOSING + "test_an_abandoned_stream_is_closed_by_a_named_"
                      "task.<locals>.stream"]


def test_every_task_the_app_starts_is_given_a_name() -> None:
    """Each ``create_task``/``ensure_future`` in the package passes ``name=`` or names the
    task in the same function (the runtime factory only catches what this misses)."""
    import ast
    from pathlib import Path

    import ollm_desktop

    unnamed: list[str] = []
    for path in Path(ollm_desktop.__file__).parent.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            body = ast.unparse(function)
            for call in ast.walk(function):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                        and call.func.attr in ("create_task", "ensure_future") \
                        and not any(k.arg == "name" for k in call.keywords) \
                        and ".set_name(" not in body:
                    unnamed.append(f"{path.name}:{call.lineno}")
    assert unnamed == []
