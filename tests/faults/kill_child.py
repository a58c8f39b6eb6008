"""The app-like process the SIGKILL tests kill: a real ChatController in one qasync loop.

``python -m tests.faults.kill_child --data-dir D --port P --run N --turns T``

It opens the newest chat of D (or starts one) and chats with the fake Ollama on port P.
After every write that SQLite committed it prints one JSON line (flushed), so the parent
knows exactly what was on disk before it sent SIGKILL:

  {"ev": "append"|"update", "chat", "id", "role", "partial", "content"}
  {"ev": "delete", "id"}        {"ev": "pin", "id", "pinned"}
  {"ev": "state", "chat"}       {"ev": "snapshot", "chat"}
  {"ev": "phase", "phase": "ready"|"stream"|"idle"|"compaction"|"compacted"|"end"}
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_API", "pyside6")

import qasync
from PySide6.QtCore import QCoreApplication  # before qasync (platform facts)

from ollm_desktop.controller import ChatController
from ollm_desktop.paths import app_paths
from ollm_desktop.session import Settings, turns
from ollm_desktop.storage import ChatStore

MODEL = "llama3.2:3b"
CONTEXT = 2048
PRESERVE = 300
MAX_PINS = 3

# Save a streamed reply every 50 ms instead of every second: more writes for kills to hit.
turns.SAVE_INTERVAL = 0.05


def settings_for(port: int) -> Settings:
    return Settings(ollama_host=f"http://127.0.0.1:{port}", default_model=MODEL,
                    context_size=CONTEXT, preserve_recent_tokens=PRESERVE)


def emit(**event: Any) -> None:
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


def trace(store: ChatStore) -> None:
    """Report each committed write; the line is printed only after the call returned."""

    def wrap(name: str, after: Any) -> None:
        original = getattr(store, name)

        def traced(*args: Any, **kwargs: Any) -> Any:
            result = original(*args, **kwargs)
            after(*args, **kwargs)
            return result

        setattr(store, name, traced)

    def message_event(kind: str) -> Any:
        def after(chat_id: str, message: Any, **_options: Any) -> None:  # index=False too
            emit(ev=kind, chat=chat_id, id=message.id, role=message.role,
                 partial=message.partial, content=message.content)
        return after

    wrap("append_message", message_event("append"))
    wrap("update_message", message_event("update"))
    wrap("delete_message", lambda message_id: emit(ev="delete", id=message_id))
    wrap("set_pinned", lambda message_id, pinned: emit(ev="pin", id=message_id, pinned=pinned))
    wrap("save_engine_state", lambda chat_id, _state: emit(ev="state", chat=chat_id))
    wrap("create_snapshot", lambda chat_id, *_a, **_k: emit(ev="snapshot", chat=chat_id))


async def chat(args: argparse.Namespace) -> int:
    paths = app_paths(args.data_dir)
    paths.ensure()
    store, notices = ChatStore.open(paths)
    if notices:  # the database was set aside: that would lose chats
        emit(ev="notice", text=[n.text for n in notices])
    trace(store)
    controller = ChatController(store, settings_for(args.port))
    controller.replyStarted.connect(lambda _id: emit(ev="phase", phase="stream"))
    controller.replyFinished.connect(lambda *_: emit(ev="phase", phase="idle"))
    controller.compactionStarted.connect(lambda: emit(ev="phase", phase="compaction"))
    controller.compactionFinished.connect(lambda *_: emit(ev="phase", phase="compacted"))
    controller.compactionFailed.connect(lambda *_: emit(ev="phase", phase="compacted"))
    chats = store.list_chats()
    if chats:
        controller.open_chat(chats[0].id)
    else:
        controller.new_chat("kill test")
    emit(ev="phase", phase="ready")
    rng = random.Random(args.run)
    try:
        for i in range(args.turns):
            task = controller.send(f"Run {args.run} turn {i}: tell me more about item "
                                   f"{rng.randint(0, 999)} and how it fits the plan.")
            if task is None:
                emit(ev="refused")
                return 3
            await asyncio.gather(task, return_exceptions=True)
            engine = controller.session.engine
            assert engine is not None
            pinned = [m for m in engine.display_messages() if m.pinned]
            users = [m for m in engine.display_messages() if m.role == "user" and not m.pinned]
            if i == 0 and len(pinned) < MAX_PINS and users:
                controller.set_pinned(rng.choice(users).id, True)
            # Background compaction keeps running while the next message is sent.
    finally:
        emit(ev="phase", phase="end")
        await controller.shutdown()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--run", type=int, default=0)
    parser.add_argument("--turns", type=int, default=40)
    args = parser.parse_args()
    app = QCoreApplication.instance() or QCoreApplication(sys.argv[:1])

    async def runner() -> int:
        loop = asyncio.get_running_loop()
        sys.set_asyncgen_hooks(firstiter=loop._asyncgen_firstiter_hook,  # type: ignore[attr-defined]
                               finalizer=loop._asyncgen_finalizer_hook)  # type: ignore[attr-defined]
        return await chat(args)

    code = asyncio.run(runner(), loop_factory=qasync.QEventLoop)
    del app
    return code


if __name__ == "__main__":
    sys.exit(main())
