"""Documents in the session: attached off the event loop with progress, stored once, a
clear message for bad input, removed with Undo, a changed file noticed and re-read, and the
passages a send carries kept with its reply."""

from __future__ import annotations

import asyncio
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ollm_desktop.session import ChatSession, ReplyFinished, SessionEvent
from tests.controller_harness import recorded_session, scripted_model
from tests.ollama_server import EMBED_DIMS, FakeOllama
from tests.test_document_reading import make_pdf
from tests.test_session import send

pytestmark = pytest.mark.asyncio

SECTIONS = ["Retries", "Timeouts", "Storage", "Logging", "Metrics", "Backups"]
FACTS = {"Retries": "A failed call is retried at most 7 times.",
         "Timeouts": "The client timeout is 12 seconds.",
         "Storage": "Snapshots are kept for 14 days.",
         "Logging": "Logs rotate at 64 MB.", "Metrics": "Metrics are scraped every 15 s.",
         "Backups": "Backups run at 02:30 UTC."}


def manual() -> str:
    filler = "Routine upkeep keeps every machine in the fleet running well. " * 25
    return "# Manual\n\n" + "".join(f"## {name}\n\n{filler}\n\n{FACTS[name]}\n\n{filler}\n\n"
                                   for name in SECTIONS)


@pytest.fixture
def server(ollama_server: FakeOllama) -> FakeOllama:
    ollama_server.reply_fn = scripted_model(reply_words=12)
    return ollama_server


@pytest.fixture
def session(tmp_path: Any, server: FakeOllama) -> Iterator[tuple[ChatSession, list[SessionEvent]]]:
    with recorded_session(tmp_path / "data", server, context_size=2048) as recorded:
        yield recorded


async def test_attaching_reads_in_a_worker_with_progress_and_stores_once(
        session, tmp_path: Path) -> None:
    s, _events = session
    s.new_chat("documents")
    pages = [[f"Page {i} line {j} of the operations handbook." for j in range(30)]
             for i in range(12)]
    path = tmp_path / "handbook.pdf"
    path.write_bytes(make_pdf(pages))
    seen: list[tuple[str, float]] = []
    ticks = 0

    def changed() -> None:
        seen.extend((row.status, row.progress) for row in s.documents.rows())

    async def heartbeat() -> None:  # the loop keeps turning while the file is read
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    s.documents.changed = changed
    beat = asyncio.ensure_future(heartbeat())
    change = await s.documents.attach(path)
    beat.cancel()
    assert not change.problems and "handbook.pdf attached: 12 pages" in change.notices[0]
    reading = [share for status, share in seen if status == "reading"]
    assert reading[0] == 0.0 and any(0 < share < 1 for share in reading)
    assert reading == sorted(reading)
    assert ticks > 1
    (row,) = s.documents.rows()
    assert (row.status, row.pages, row.name) == ("ready", 12, "handbook.pdf")
    assert s.engine is not None and s.engine._data.documents_attached
    # The same content again, from another file and another chat: not read, not stored again.
    copy = tmp_path / "copy.pdf"
    copy.write_bytes(path.read_bytes())
    s.new_chat("second")
    assert not (await s.documents.attach(copy)).problems
    assert s.store._conn.execute("SELECT count(*) FROM document_files").fetchone()[0] == 1


@pytest.mark.parametrize(("name", "data", "message"), [
    ("empty.txt", b"", "empty.txt is empty."),
    ("photo.bin", bytes(range(256)) * 8, "binary file"),
    ("scan.pdf", None, "This PDF has no text layer; text recognition is not supported"),
])
async def test_bad_input_gets_a_clear_message_and_nothing_is_attached(
        session, tmp_path: Path, name: str, data: bytes | None, message: str) -> None:
    s, _events = session
    s.new_chat("documents")
    if data is None:
        import io

        import pypdf

        writer = pypdf.PdfWriter()
        writer.add_blank_page(595, 842)
        out = io.BytesIO()
        writer.write(out)
        data = out.getvalue()
    path = tmp_path / name
    path.write_bytes(data)
    change = await s.documents.attach(path)
    assert message in change.problems[0].text
    assert s.documents.rows() == []


async def test_a_file_over_the_limit_is_refused_before_it_is_read(
        session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s, _events = session
    s.new_chat("documents")
    from ollm_desktop.session import documents as module

    monkeypatch.setattr(module, "MAX_BYTES", 10)
    path = tmp_path / "big.txt"
    path.write_text("more than ten bytes of text")
    change = await s.documents.attach(path)
    assert "documents up to 32 MB can be attached" in change.problems[0].text


async def test_remove_with_undo(session, tmp_path: Path) -> None:
    s, _events = session
    s.new_chat("documents")
    path = tmp_path / "manual.md"
    path.write_text(manual())
    await s.documents.attach(path)
    (row,) = s.documents.rows()
    assert not s.documents.remove(row.key).problems
    assert s.documents.rows() == [] and s.documents.can_undo()
    assert s.engine is not None and not s.engine._data.documents_attached
    assert not s.documents.undo_remove().problems
    assert [r.key for r in s.documents.rows()] == [row.key]
    assert s.engine._data.documents_attached
    assert s.documents.undo_remove().problems  # nothing more to undo


async def test_a_changed_file_is_noticed_and_read_again_and_a_vanished_one_serves(
        session, server, tmp_path: Path) -> None:
    s, _events = session
    s.new_chat("documents")
    path = tmp_path / "manual.md"
    path.write_text(manual())
    await s.documents.attach(path)
    (row,) = s.documents.rows()
    path.write_text(manual().replace("at most 7 times", "at most 9 times"))
    os.utime(path, (1, 1))
    assert await s.documents.check_disk() == [row.key]
    assert s.documents.rows()[0].status == "changed"
    assert not (await s.documents.reread(row.key)).problems
    (fresh,) = s.documents.rows()
    assert fresh.key != row.key and fresh.status == "ready"
    assert any("9 times" in p.text for p in s.documents.passages(fresh.key))
    path.unlink()
    await s.documents.check_disk()
    assert s.documents.rows()[0].status == "missing"
    await send(s, "How many times is a failed call retried?")
    assert "at most 9 times" in server.chat_requests()[-1]["messages"][-1]["content"]


async def test_a_send_carries_the_passages_and_the_reply_keeps_their_sources(
        session, server, tmp_path: Path) -> None:
    s, events = session
    s.new_chat("documents")
    path = tmp_path / "manual.md"
    path.write_text(manual())
    await s.documents.attach(path)
    await send(s, "How long are snapshots kept?")
    request = server.chat_requests()[-1]["messages"]
    assert "cite the source in brackets" in request[0]["content"]
    newest = request[-1]["content"]
    assert newest.startswith("How long are snapshots kept?")
    assert "Snapshots are kept for 14 days." in newest and "[manual.md, lines " in newest
    assert "Logs rotate at 64 MB." not in newest
    record = [e for e in events if isinstance(e, ReplyFinished)][-1].info.recalled
    assert record is not None and record.items == []
    assert record.sources and record.sources[0].name == "manual.md"
    assert record.sources[0].source in newest
    stored = s.recall.records()
    assert list(stored.values())[-1].sources == record.sources


def _bin(word: str) -> int:  # where the loopback's bag-of-words embedding puts a word
    return hashlib.sha256(word.encode()).digest()[0] % EMBED_DIMS


QUERY_BINS = {_bin(w) for w in ("long", "kept", "snapshots", "days")}
# Names and words off the query's bins, so that only the passage that means it points alike.
UNITS = [f"wing{n}" for n in range(200) if _bin(f"wing{n}") not in QUERY_BINS][:70]
FILLER_WORDS = [w for w in ("hall", "opens", "nine", "closes", "weekdays", "gate", "morning",
                             "visitors", "guided", "tours", "museum", "rooms")
                if _bin(w) not in QUERY_BINS][:6]


def catalogue() -> str:
    """Short sections; one says how long snapshots are kept, in words no question uses."""
    parts = []
    for unit in UNITS:
        fact = ("Snapshots are kept for 14 days." if unit == UNITS[33]
                else " ".join(FILLER_WORDS).capitalize() + ".")
        parts.append(f"## {unit.capitalize()}\n\n{fact}\n")
    return "\n".join(parts)


async def test_meaning_search_finds_the_passage_words_miss(session, server, tmp_path) -> None:
    s, _events = session
    s.new_chat("documents")
    server.embed_aliases.update({"retain": "kept", "images": "snapshots",
                                 "fortnight": "days"})
    question = "How long do we retain images for, a fortnight?"
    path = tmp_path / "catalogue.md"
    path.write_text(catalogue())
    await s.documents.attach(path)
    await send(s, question)  # no embedding model: words alone, which share none
    assert "14 days" not in server.chat_requests()[-1]["messages"][-1]["content"]
    s.settings.embedding_model = "all-minilm"
    s.documents.meaning.schedule([r.key for r in s.documents.rows()])
    await s.drain()
    assert await s.documents.meaning.embed([r.key for r in s.documents.rows()]) == 0  # all
    await send(s, question)
    assert "Snapshots are kept for 14 days." in server.chat_requests()[-1]["messages"][-1][
        "content"]


async def test_a_fork_has_the_chats_documents(session, tmp_path: Path) -> None:
    s, _events = session
    s.new_chat("documents")
    path = tmp_path / "manual.md"
    path.write_text(manual())
    await s.documents.attach(path)
    await send(s, "How long are snapshots kept?")
    assert s.engine is not None
    first = s.engine.display_messages()[0]
    fork = s.branches.fork(first.id)
    assert hasattr(fork, "id")
    assert [d.name for d in s.store.chat_documents(fork.id)] == ["manual.md"]
    assert s.store._conn.execute("SELECT count(*) FROM document_files").fetchone()[0] == 1


async def test_export_and_import_carry_the_documents(session, tmp_path: Path) -> None:
    s, _events = session
    s.new_chat("documents")
    path = tmp_path / "manual.md"
    path.write_text(manual())
    await s.documents.attach(path)
    key = s.documents.rows()[0].key
    exported = tmp_path / "chat.json"
    s.snapshots.export_json(exported)
    path.unlink()
    imported = s.snapshots.import_json(exported)
    assert hasattr(imported, "id")
    (copy,) = s.store.chat_documents(imported.id)
    assert (copy.document_id, copy.name) == (key, "manual.md")
    assert any("14 days" in p.text for p in s.store.document_passages(key))


async def test_a_background_compaction_counts_the_documents_next_send(
        session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s, _events = session
    s.new_chat("documents")
    assert s.documents.ahead_tokens() == 0
    path = tmp_path / "manual.md"
    path.write_text(manual())
    await s.documents.attach(path)
    await send(s, "How long are snapshots kept?")
    record = list(s.recall.records().values())[-1]
    took = s.documents.ahead_tokens()
    assert took > 100 and record.sources
    asked: list[int] = []
    assert s.engine is not None
    monkeypatch.setattr(s.engine, "needs_compaction",
                        lambda ahead_tokens=0: asked.append(ahead_tokens) or False)
    s.compactions.last_exchange_tokens = 40
    s.compactions.schedule_background()
    assert asked == [40 + took]
    s.documents.remove(s.documents.rows()[0].key)
    assert s.documents.ahead_tokens() == 0
