"""A long reply is tokenised on a thread (issue 29), to the count the engine would give it."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from ollm_desktop.engine import count_message_tokens, facts_extract
from ollm_desktop.paths import app_paths
from ollm_desktop.session import ChatSession
from ollm_desktop.session import turns as turns_module
from ollm_desktop.storage import ChatStore
from tests.controller_harness import make_settings
from tests.test_session import send

LONG = "".join(f"{i:07d}|" for i in range(4_000))  # 32 KB of one line


@pytest.mark.asyncio
async def test_a_long_reply_is_counted_off_the_loop_as_the_engine_counts(
        tmp_path: Path, ollama_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    ollama_server.reply_fn = lambda _body: LONG
    threads: list[int] = []

    def counted(*args: Any) -> int:
        threads.append(threading.get_ident())
        return count_message_tokens(*args)

    monkeypatch.setattr(turns_module, "count_message_tokens", counted)
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    s = ChatSession(store, make_settings(ollama_server, context_size=32768))
    await send(s, "One long line, please")
    assert s.engine is not None
    reply = s.engine.display_messages()[-1]
    assert reply.content == LONG
    assert threads and threads[-1] != threading.get_ident()
    config = s.engine.config
    assert reply.tokens == count_message_tokens(LONG, config.estimate_scale,
                                                config.message_overhead)
    await s.close()
    store.close()


@pytest.mark.asyncio
async def test_a_long_replys_facts_are_extracted_off_the_loop(
        tmp_path: Path, ollama_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine reads them from the cache when the reply joins the chat: none of its
    extractions runs on the loop (a 512 KB line's took 0.1-0.3 s there)."""
    text = LONG + " The exporter listens on port 8443 now."
    ollama_server.reply_fn = lambda _body: text
    where: list[tuple[str, int]] = []
    extract = facts_extract.message_facts

    def extracting(content: str, role: str) -> Any:
        where.append((role, threading.get_ident()))
        return extract(content, role)

    monkeypatch.setattr(facts_extract, "message_facts", extracting)
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    s = ChatSession(store, make_settings(ollama_server, context_size=32768))
    await send(s, "One long line, please")
    assert s.engine is not None and s.engine.display_messages()[-1].content == text
    replies = [thread for role, thread in where if role == "assistant"]
    assert replies and threading.get_ident() not in replies
    await s.close()
    store.close()
