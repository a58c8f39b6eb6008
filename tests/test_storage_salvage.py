"""A partly damaged database: every row that still reads is recovered into the new database.

Each test builds a real store through ``ChatStore``, damages the closed file the way disks and
bugs do (4 KB overwritten in the middle, one table's page, the header page), reopens it and
compares with an independent oracle: what SQLite can still read from the damaged file by
looking each row up by its id.
"""

from __future__ import annotations

import hashlib
import random
import shutil
import sqlite3
from pathlib import Path

from ollm_desktop.engine import EngineState, Message
from ollm_desktop.engine.models import CompressedGroup, GoalState
from ollm_desktop.paths import AppPaths
from ollm_desktop.storage import ChatStore

PAGE = 4096
CHATS = 12
PER_CHAT = 30


def _build(paths: AppPaths) -> dict[str, list[Message]]:
    """Chats with a system prompt, a goal, one checkpoint over their first four messages and a
    snapshot each; returns every chat's messages by chat id."""
    store, notices = ChatStore.open(paths)
    assert notices == []
    made: dict[str, list[Message]] = {}
    for c in range(CHATS):
        chat = store.create_chat(f"chat {c}", model="llama3.2:3b")
        messages = [Message(role="user" if i % 2 == 0 else "assistant",
                            content=f"chat {c} message {i} MARK-{c}-{i}-END " + "lorem " * 80)
                    for i in range(PER_CHAT)]
        group = CompressedGroup(summary=f"summary of chat {c}", original_tokens=400,
                                current_tokens=40, message_ids=[m.id for m in messages[:4]],
                                span_ids=[m.id for m in messages[:4]])
        state = EngineState(system_prompt=f"prompt {c}", messages=messages, groups=[group],
                            goal=GoalState(description=f"goal {c}"))
        store.replace_chat_state(chat.id, state)
        store.create_snapshot(chat.id, state, reason="manual")
        made[chat.id] = messages
    store.close()
    assert not Path(f"{paths.database}-wal").exists()  # everything is in the main file
    return made


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _overwrite(path: Path, offset: int, size: int = PAGE) -> None:
    data = bytearray(path.read_bytes())
    data[offset:offset + size] = random.Random(offset).randbytes(size)
    path.write_bytes(bytes(data))


def _page_of(path: Path, text: str) -> int:
    offset = path.read_bytes().find(text.encode())
    assert offset > 0, text
    return offset // PAGE * PAGE


def _middle_message_page(path: Path) -> int:
    """The page holding the row of the message nearest the middle of the file."""
    data = path.read_bytes()
    middle = len(data) // 2
    offsets = [data.find(f"MARK-{c}-{i}-END".encode()) for c in range(CHATS)
               for i in range(PER_CHAT)]
    return min((o for o in offsets if o > 0), key=lambda o: abs(o - middle)) // PAGE * PAGE


def _root_page(path: Path, table: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
                            (table,)).fetchone()[0]
    finally:
        conn.close()


def _oracle(path: Path, made: dict[str, list[Message]], tmp: Path) -> tuple[set[str], set[str]]:
    """(chat ids, message ids) SQLite can still read from a copy of the damaged file, each
    looked up by its id (through the id index, then the table row)."""
    copy = tmp / "oracle.sqlite3"
    shutil.copyfile(path, copy)
    conn = sqlite3.connect(copy)
    chats, messages = set(), set()
    for chat_id, items in made.items():
        try:
            if conn.execute("SELECT title FROM chats WHERE id = ?", (chat_id,)).fetchone():
                chats.add(chat_id)
        except sqlite3.DatabaseError:
            pass
        for message in items:
            try:
                row = conn.execute("SELECT content FROM messages WHERE id = ?",
                                   (message.id,)).fetchone()
            except sqlite3.DatabaseError:
                continue
            if row and row[0] == message.content:
                messages.add(message.id)
    conn.close()
    return chats, messages


def _reopen(paths: AppPaths):
    damaged = _digest(paths.database)
    store, notices = ChatStore.open(paths)
    assert len(notices) == 1
    notice = notices[0]
    assert notice.level == "warning" and notice.backup_path
    backup = Path(notice.backup_path)
    assert backup.parent == paths.backup_dir
    assert _digest(backup) == damaged  # the damaged file is kept exactly as it was
    assert str(backup) in notice.text
    return store, notice


def _healthy(paths: AppPaths) -> None:
    conn = sqlite3.connect(paths.database)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.close()
    store, notices = ChatStore.open(paths)
    assert notices == []  # the new database is not set aside again
    chat = store.create_chat("after")
    store.append_message(chat.id, Message(role="user", content="still works"))
    store.close()


def test_4kb_overwritten_in_the_middle_keeps_every_readable_chat_and_message(
        paths: AppPaths, tmp_path: Path) -> None:
    made = _build(paths)
    first = next(iter(made))
    store, _ = ChatStore.open(paths)
    store.set_chat_mark(first, "compression-warned")
    store.close()
    # The page in the middle of the file that holds a message row (the exact middle may be an
    # index or an empty table's page, depending on the random ids' layout).
    _overwrite(paths.database, _middle_message_page(paths.database))
    readable_chats, readable = _oracle(paths.database, made, tmp_path)
    total = sum(len(m) for m in made.values())
    assert 0 < len(readable) < total  # the damage hit messages, and most still read

    store, notice = _reopen(paths)
    report = notice.salvage
    assert report is not None
    recovered = {c.id: c for c in store.list_chats()}
    assert set(recovered) >= readable_chats
    assert len(recovered) == CHATS
    for chat_id, items in made.items():
        state = store.load_engine_state(chat_id)
        assert state is not None
        kept = [m for m in items if m.id in readable]
        # Every readable message, with its text and in its order (nothing half-copied).
        got = {m.id: m for m in state.messages}
        assert [m.id for m in state.messages if m.id in readable] == [m.id for m in kept]
        for message in kept:
            assert got[message.id].content == message.content
            assert got[message.id].role == message.role
        assert recovered[chat_id].message_count == len(state.messages)
        assert state.system_prompt == f"prompt {recovered[chat_id].title.split()[-1]}"
    found = sum(c.message_count for c in recovered.values())
    assert found >= len(readable)
    lost = total - found
    assert lost > 0
    # The notice says what came back and what did not, in numbers and by name.
    assert report.messages == found and report.messages_expected == total
    assert report.lost_messages == lost
    assert f"{found:,} of {total:,} messages" in notice.text
    assert f"{lost:,} message(s)" in notice.text
    for chat_id in made:
        short = recovered[chat_id].message_count < PER_CHAT
        assert (recovered[chat_id].title in report.short_chats) == short
    assert store.search("MARK-0-1-END")  # the search index was rebuilt for recovered rows
    assert store.has_chat_mark(first, "compression-warned")  # one-off facts kept too
    store.close()
    _healthy(paths)


def test_a_lost_message_drops_only_its_chats_checkpoints(paths: AppPaths,
                                                          tmp_path: Path) -> None:
    made = _build(paths)
    victim = list(made)[5]
    page = _page_of(paths.database, "MARK-5-2-END")  # inside chat 5's checkpoint
    _overwrite(paths.database, page)
    _, readable = _oracle(paths.database, made, tmp_path)
    assert made[victim][2].id not in readable

    store, notice = _reopen(paths)
    assert notice.salvage is not None and notice.salvage.states_reset >= 1
    state = store.load_engine_state(victim)
    assert state is not None
    assert state.groups == []  # its checkpoint named a lost message: dropped
    assert state.system_prompt == "prompt 5" and state.goal.description == "goal 5"
    others = [chat_id for chat_id in made if all(m.id in readable for m in made[chat_id])]
    assert others
    for chat_id in others:
        kept = store.load_engine_state(chat_id)
        assert kept is not None and len(kept.groups) == 1  # untouched chats keep theirs
        assert len(store.list_snapshots(chat_id)) == 1
    assert "checkpoints" in notice.text
    store.close()
    _healthy(paths)


def test_lost_chat_rows_come_back_as_recovered_chats_with_their_messages(
        paths: AppPaths) -> None:
    made = _build(paths)
    _overwrite(paths.database, (_root_page(paths.database, "chats") - 1) * PAGE)

    store, notice = _reopen(paths)
    report = notice.salvage
    assert report is not None and report.chats_rebuilt == CHATS
    chats = store.list_chats()
    assert sorted(c.title for c in chats) == sorted(f"Recovered chat {i + 1}"
                                                    for i in range(CHATS))
    for chat_id, items in made.items():
        state = store.load_engine_state(chat_id)
        assert state is not None
        assert [m.content for m in state.messages] == [m.content for m in items]
    assert "Recovered chat" in notice.text
    store.close()
    _healthy(paths)


def test_schema_page_overwritten_still_recovers_every_chat(paths: AppPaths) -> None:
    """The first page (after SQLite's 100-byte header) holds the schema: without it no table
    can be found, but ours sit at known pages."""
    made = _build(paths)
    _overwrite(paths.database, 100, PAGE - 100)

    store, notice = _reopen(paths)
    assert notice.salvage is not None
    assert {c.id: c.title for c in store.list_chats()} == {
        chat_id: f"chat {n}" for n, chat_id in enumerate(made)}
    for chat_id, items in made.items():
        state = store.load_engine_state(chat_id)
        assert state is not None and [m.id for m in state.messages] == [m.id for m in items]
        assert len(state.groups) == 1
    assert f"{CHATS} chats, {CHATS * PER_CHAT} messages and {CHATS} snapshots" in notice.text
    store.close()
    _healthy(paths)


def test_truncated_file_recovers_the_first_half(paths: AppPaths) -> None:
    """A copy cut short loses the schema's later pages (SQLite keeps part of it at the end)."""
    made = _build(paths)
    data = paths.database.read_bytes()
    paths.database.write_bytes(data[: len(data) // 2])

    store, notice = _reopen(paths)
    assert notice.salvage is not None and notice.salvage.chats == CHATS
    recovered = sum(c.message_count for c in store.list_chats())
    assert 0 < recovered < CHATS * PER_CHAT
    for chat_id, items in made.items():
        state = store.load_engine_state(chat_id)
        contents = {m.id: m.content for m in items}
        assert all(contents[m.id] == m.content for m in (state.messages if state else []))
    store.close()
    _healthy(paths)


def test_overwritten_file_header_starts_empty_and_keeps_the_file(paths: AppPaths) -> None:
    """Without SQLite's header the file is not known to be a database: nothing is guessed."""
    _build(paths)
    _overwrite(paths.database, 0)

    store, notice = _reopen(paths)
    assert store.list_chats() == []
    assert notice.salvage is None or not notice.salvage.found_anything
    assert "new, empty database" in notice.text
    store.close()
    _healthy(paths)
    assert list(paths.backup_dir.glob("*.sqlite3")) == [Path(notice.backup_path or "")]


def test_set_aside_files_list_their_readable_chats_for_import(paths: AppPaths,
                                                              tmp_path: Path) -> None:
    """What File ▸ Open set-aside database offers: the chats a kept file still holds."""
    from ollm_desktop.storage import set_aside

    made = _build(paths)
    assert not set_aside.has_set_aside(paths)
    _overwrite(paths.database, _middle_message_page(paths.database))
    _, readable = _oracle(paths.database, made, tmp_path)
    store, notice = _reopen(paths)
    store.close()
    assert set_aside.has_set_aside(paths)
    [kept] = set_aside.files(paths)
    found = set_aside.readable_chats(kept)
    assert {c.chat.id for c in found} == set(made)
    for item in found:
        assert {m.id for m in item.state.messages} >= {m.id for m in made[item.chat.id]
                                                        if m.id in readable}
    assert _digest(kept) == _digest(Path(notice.backup_path or ""))  # only read, never written
    exported = set_aside.export_for_import(found[:2], tmp_path / "out")
    assert [p.suffix for p in exported] == [".json", ".json"]
    left = [p for p in paths.backup_dir.iterdir() if not p.name.startswith(kept.name)]
    assert left == []  # no scratch folder left behind (the kept file's -wal/-shm may be)


def test_a_salvage_keeps_pictures_pins_and_branches(paths: AppPaths, tmp_path: Path) -> None:
    made = _build(paths)
    first, second, third = list(made)[:3]
    store, _ = ChatStore.open(paths)
    picture = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    key = store.put_image(picture, "image/png")
    store.set_chat_pinned(first, True)
    store.set_family(second, parent_id=first, root_id=first, kind="branch", label="Edited: x")
    store.trash_chat(third)
    store.close()
    _overwrite(paths.database, _middle_message_page(paths.database))
    store, _notice = _reopen(paths)
    try:
        assert store.image_data(key) == picture
        chats = {c.id: c for c in store.list_chats()}
        assert chats[first].pinned
        assert (chats[second].root_id, chats[second].branch_kind,
                chats[second].branch_label) == (first, "branch", "Edited: x")
        assert third not in chats and third in store.trashed_ids()  # still in the trash
    finally:
        store.close()
