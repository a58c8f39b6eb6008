"""Crash safety: a writer killed with SIGKILL loses nothing it reported as committed.

The child appends messages and streams partial replies, printing a line after each commit.
The parent kills it once it has read a given number of lines (a point the child certainly
reached; it is usually further along, in the middle of another write), then checks the file.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ollm_desktop.paths import app_paths
from ollm_desktop.storage import ChatStore

ROOT = Path(__file__).resolve().parent.parent

CHILD = textwrap.dedent(
    """
    import sys
    from ollm_desktop.engine.models import Message
    from ollm_desktop.paths import app_paths
    from ollm_desktop.storage import ChatStore

    store, _ = ChatStore.open(app_paths(sys.argv[1]))
    chat = store.create_chat("crash")
    print("chat", chat.id, flush=True)
    for i in range(5000):
        message = Message(role="user", content=f"message {i} " + "x" * (i * 37 % 3000))
        store.append_message(chat.id, message)
        print("committed", message.id, flush=True)
        if i % 2 == 0:
            reply = Message(role="assistant", content="", partial=True)
            store.append_message(chat.id, reply)
            print("committed", reply.id, flush=True)
            for k in range(6):
                reply.content += f"chunk {k} " * 20
                store.update_message(chat.id, reply)
                print("partial", reply.id, len(reply.content), flush=True)
            reply.partial = False
            store.update_message(chat.id, reply)
            print("final", reply.id, len(reply.content), flush=True)
    """
)


@pytest.mark.parametrize("kill_after", [1, 2, 5, 13, 40, 97, 260])
def test_sigkill_loses_no_committed_write(tmp_path: Path, kill_after: int) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    data = tmp_path / "data"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, str(script), str(data)], stdout=subprocess.PIPE,
                             text=True, env=env, cwd=ROOT)
    assert child.stdout is not None
    lines: list[list[str]] = []
    try:
        while len(lines) < kill_after:
            line = child.stdout.readline()
            if not line:
                break
            lines.append(line.split())
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=30)
        child.stdout.close()
    assert len(lines) == kill_after, "the child stopped before the kill point"
    assert child.returncode == -signal.SIGKILL

    chat_id = lines[0][1]
    committed = [words[1] for words in lines if words[0] == "committed"]
    grown = {words[1]: int(words[2]) for words in lines if words[0] in ("partial", "final")}
    finished = {words[1] for words in lines if words[0] == "final"}

    conn = sqlite3.connect(data / "ollm-desktop.sqlite3")
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.close()

    store, notices = ChatStore.open(app_paths(data))
    assert notices == []
    state = store.load_engine_state(chat_id)
    stored = {m.id: m for m in (state.messages if state else [])}
    for message_id in committed:
        assert message_id in stored
    for message_id, length in grown.items():
        assert len(stored[message_id].content) >= length
    for message_id in finished:
        assert not stored[message_id].partial
    stored_ids = [m.id for m in state.messages] if state else []  # None: nothing committed yet
    assert stored_ids[: len(committed)] == committed
    chat = store.get_chat(chat_id)
    assert chat is not None and chat.message_count == len(stored)
    store.close()
