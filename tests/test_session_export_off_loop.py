"""The export of a long chat is rendered and written on a thread (issue 29), with what the
synchronous export writes."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from ollm_desktop.engine import Message
from ollm_desktop.paths import app_paths
from ollm_desktop.session import ChatSession
from ollm_desktop.session import snapshots as snapshots_module
from ollm_desktop.storage import ChatStore
from tests.controller_harness import make_settings


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["markdown", "json"])
async def test_an_export_off_the_loop_writes_what_the_export_writes(
        tmp_path: Path, ollama_server: Any, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    s = ChatSession(store, make_settings(ollama_server))
    s.new_chat("export")
    assert s.engine is not None and s.chat is not None
    for i in range(6):
        message = Message(role="user" if i % 2 == 0 else "assistant", content=f"Line {i}")
        s.engine.add_message(message)
        store.append_message(s.chat.id, message)
    name = "export_json" if kind == "json" else "export_markdown"
    render = getattr(snapshots_module, name)
    threads: list[int] = []

    def recorded(*args: Any) -> str:
        threads.append(threading.get_ident())
        return render(*args)

    monkeypatch.setattr(snapshots_module, name, recorded)
    here, there = tmp_path / "sync.out", tmp_path / "off-loop.out"
    getattr(s.snapshots, name)(here)
    await asyncio.wait_for(s.snapshots.export_off_loop(there, kind), timeout=30)
    assert threads[0] == threading.get_ident() and threads[1] != threading.get_ident()
    same = here.read_text(encoding="utf-8") == there.read_text(encoding="utf-8")
    assert same or kind == "json"  # a JSON export carries the time it was made
    assert "Line 5" in there.read_text(encoding="utf-8")
    await s.close()
    store.close()
