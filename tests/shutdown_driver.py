"""The real app, closed while it works: ``python -m tests.shutdown_driver STATE --host URL
--data-dir DIR --report FILE``.

It runs ``ollm_desktop.app.main()`` as ``ollm-desktop`` does (the same QApplication, qasync
loop, window, controller and ``asyncio.run``), against a loopback server the caller runs and
scripts (``tests.shutdown_closes``). When the app opens its first chat (the last step of its
start) the driver starts on the loop, puts the app into STATE, and closes the window the way
a user does:

- ``stream``: a reply is streaming;
- ``compaction``: "Compact now" is waiting for its summary;
- ``warm-up``: a background compaction ended and the server's cache is being warmed;
- ``embedding``: a reply's round is being embedded for recall;
- ``recall``: a send is waiting for its query's embedding;
- ``edits``: after sends, a Regenerate, an edit and a change of the chat's context size (the
  script of issue 29's report), idle.

The report (JSON) says how main() ended: its return code, or ``os._exit`` with the tasks that
would not stop (name, coroutine, where each waits); the threads and child processes left
when main() returned; and whether the state was really reached before the close.
"""

from __future__ import annotations

import argparse
import asyncio
import faulthandler
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

STATES = ("stream", "compaction", "warm-up", "embedding", "recall", "edits")
MODEL = "llama3.2:3b"
EMBEDDER = "nomic-embed-text"  # prefixes tell a query (recall) from a round (embedding)
DRIVER_TASK = "shutdown-driver"


def describe(task: asyncio.Task[Any]) -> dict[str, Any]:
    """A task's name, its coroutine and the line it waits at (what the app's log says)."""
    coro = task.get_coro()
    frames = [f"{f.f_code.co_filename.rsplit('/', 2)[-1]}:{f.f_lineno} {f.f_code.co_name}"
              for f in task.get_stack(limit=8)]
    return {"name": task.get_name(),
            "coro": getattr(coro, "__qualname__", type(coro).__name__), "stack": frames}


def children(pid: int) -> list[int]:
    """The live child processes of ``pid`` (Linux /proc; empty elsewhere)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def write_settings(data_dir: Path, host: str, state: str) -> None:
    from ollm_desktop.paths import app_paths
    from ollm_desktop.session import Settings, save_settings

    paths = app_paths(str(data_dir))
    paths.ensure()
    embedder = EMBEDDER if state in ("embedding", "recall") else None
    save_settings(paths.settings_file, Settings(
        default_model=MODEL, ollama_host=host, context_size=2048, preserve_recent_tokens=300,
        embedding_model=embedder))


async def _until(predicate: Any, what: str, limit: float = 60.0) -> None:
    """Yield to the loop until ``predicate()`` holds; the state was never reached otherwise."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not predicate():
        if loop.time() > deadline:
            raise TimeoutError(f"never reached: {what}")
        await asyncio.sleep(0.01)


def _running(name: str) -> bool:
    return any(t.get_name() == name and not t.done() for t in asyncio.all_tasks())


async def reach(state: str, window: Any, report: dict[str, Any]) -> None:
    """Put the app into ``state`` through the controller the window uses."""
    controller = window.controller
    chunks: list[str] = []
    controller.replyChunk.connect(lambda _id, text: chunks.append(text))
    events: list[str] = report.setdefault("events", [])
    controller.compactionFinished.connect(lambda r: events.append(f"compacted {r.status}"))
    controller.compactionFailed.connect(lambda r: events.append(f"compaction failed {r}"))
    controller.error.connect(lambda kind, text: events.append(f"error {kind}: {text}"))
    controller.sendFailed.connect(lambda text, why: events.append(f"send failed: {why}"))

    async def turn(text: str) -> None:
        task = controller.send(text)
        assert task is not None, "the send was refused"
        await asyncio.wait({task})

    if state == "stream":
        controller.send("Tell me a long story about lighthouses")
        await _until(lambda: chunks, "a streamed chunk")
    elif state == "compaction":
        for n in range(6):
            await turn(f"Question {n} about the harbour's tide tables")
        await _until(lambda: not controller.busy, "an idle chat")
        assert controller.compact() is not None, "Compact now was refused"
        await _until(lambda: report["server"]("summary"), "the summary request")
    elif state == "warm-up":  # turns until a background compaction warms the server
        for n in range(20):
            await turn(f"Question {n} about the harbour's tide tables")
            await _until(lambda: not controller.compacting, "the compaction's end")
            await asyncio.sleep(0.05)  # a warm-up starts as the compaction ends
            if report["server"]("warm-up"):
                break
        await _until(lambda: report["server"]("warm-up"), "the warm-up request", 1.0)
    elif state == "embedding":
        await turn("Where did we put the tide tables?")
        await _until(lambda: _running("recall-embed"), "a round's embedding")
        await _until(lambda: report["server"]("document"), "the round's embedding request")
    elif state == "recall":
        controller.send("Where did we put the tide tables?")
        await _until(lambda: report["server"]("query"), "the query's embedding request")
    elif state == "edits":  # the script: sends, a regenerate, an edit, a setting
        await turn("Where did we put the tide tables?")
        await turn("And the harbour master's number?")
        task = controller.regenerate()
        assert task is not None, "Regenerate was refused"
        await asyncio.wait({task})
        first = controller.display_messages()[0].id
        assert controller.begin_edit(first) is not None, "the edit was refused"
        await turn("Where did we put the tide tables, again?")
        controller.set_context_size(4096)
        await turn("Thanks, that is all")
    report["reached"] = True


def seen_by_server(marker_dir: Path) -> Any:
    """The caller's server drops a file per request kind it holds open (it runs elsewhere)."""
    return lambda kind: (marker_dir / kind).exists()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("state", choices=STATES)
    parser.add_argument("--host", required=True)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--report", required=True)
    parser.add_argument("--markers", required=True, help="folder the server marks requests in")
    parser.add_argument("--close-after", type=float, default=0.0,
                        help="seconds between reaching the state and closing")
    args = parser.parse_args(argv)
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    data_dir = Path(args.data_dir)
    write_settings(data_dir, args.host, args.state)
    report: dict[str, Any] = {"state": args.state, "reached": False, "forced_exit": None,
                              "error": None}
    report_path = Path(args.report)

    def save() -> None:
        public = {k: v for k, v in report.items() if k != "server"}
        report_path.write_text(json.dumps(public, indent=1), encoding="utf-8")

    real_exit = os._exit

    def recording_exit(code: int) -> None:
        loop = asyncio.get_event_loop()
        stuck = [t for t in asyncio.all_tasks(loop) if t is not asyncio.current_task(loop)]
        report["forced_exit"] = {"code": code, "tasks": [describe(t) for t in stuck
                                                         if not t.done()]}
        report["children"] = children(os.getpid())
        save()
        real_exit(code)

    os._exit = recording_exit  # type: ignore[assignment]
    report["server"] = seen_by_server(Path(args.markers))

    faulthandler.enable()  # a crash says where, on stderr (the report keeps its tail)
    from ollm_desktop.ui.main_window import MainWindow

    closed_at: list[float] = []

    async def drive(window: Any) -> None:
        try:
            await reach(args.state, window, report)
            if args.close_after:
                await asyncio.sleep(args.close_after)
        except Exception as exc:  # reported; the window closes all the same
            report["error"] = f"{type(exc).__name__}: {exc}"
        closed_at.append(time.monotonic())
        window.close()

    opened = MainWindow.open_initial_chat

    def open_then_drive(window: Any) -> None:
        """The app's last step of its start (``_run``, on the loop): the driver starts."""
        opened(window)
        asyncio.get_running_loop().create_task(drive(window), name=DRIVER_TASK)

    MainWindow.open_initial_chat = open_then_drive  # type: ignore[method-assign]
    from ollm_desktop import app as ollm_app

    started = time.monotonic()
    code = ollm_app.main(["--data-dir", str(data_dir), "--host", args.host])
    ended = time.monotonic()
    report["code"] = code
    report["close_seconds"] = round(ended - closed_at[0], 3) if closed_at else None
    report["run_seconds"] = round(ended - started, 3)
    report["threads"] = sorted(t.name for t in threading.enumerate()
                               if t is not threading.main_thread() and t.is_alive())
    report["children"] = children(os.getpid())
    save()
    return code


if __name__ == "__main__":
    raise SystemExit(main())
