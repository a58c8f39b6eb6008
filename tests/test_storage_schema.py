"""Opening the database: migrations, bad files set aside, newer schemas refused, permissions."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from ollm_desktop.engine import EngineState, Message
from ollm_desktop.paths import AppPaths, app_paths
from ollm_desktop.storage import APPLICATION_ID, LATEST_VERSION, ChatStore, StorageError, schema


def _pragma(path: Path, name: str) -> int | str:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"PRAGMA {name}").fetchone()[0]
    finally:
        conn.close()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _fresh_store_works(paths: AppPaths, kept: tuple[str, ...] = ()) -> None:
    store, notices = ChatStore.open(paths)
    assert notices == []  # the second open finds a healthy file
    record = store.create_chat("after")
    store.append_message(record.id, Message(role="user", content="still works"))
    assert sorted(c.title for c in store.list_chats()) == sorted(["after", *kept])
    store.close()


# ------------------------------------------------------------------------------ migrations
def test_fresh_database_is_at_latest_version(paths: AppPaths) -> None:
    store, notices = ChatStore.open(paths)
    store.close()
    assert notices == []
    assert LATEST_VERSION == len(schema.MIGRATIONS) >= 2
    assert _pragma(paths.database, "user_version") == LATEST_VERSION
    assert _pragma(paths.database, "application_id") == APPLICATION_ID
    assert _pragma(paths.database, "journal_mode") == "wal"


def test_old_version_is_migrated_and_keeps_data(paths: AppPaths) -> None:
    paths.data_dir.mkdir(parents=True)
    conn = sqlite3.connect(paths.database, isolation_level=None)
    assert schema.migrate(conn, target=1) == 1
    conn.execute("INSERT INTO chats (id, title, model, context_size, created_at, updated_at, "
                 "message_count) VALUES ('c1', 'Old chat', NULL, 8192, "
                 "'2025-01-01T00:00:00.000000+00:00', '2025-01-01T00:00:00.000000+00:00', 1)")
    conn.execute("INSERT INTO messages (id, chat_id, seq, role, content, created_at) VALUES "
                 "('m1', 'c1', 0, 'user', 'Written by version ONE', "
                 "'2025-01-01T00:00:00.000000+00:00')")
    conn.close()
    store, notices = ChatStore.open(paths)
    assert notices == []
    assert _pragma(paths.database, "user_version") == LATEST_VERSION
    assert [h.message_id for h in store.search("version one")] == ["m1"]  # index backfilled
    state = store.load_engine_state("c1")
    assert state is not None and state.messages[0].content == "Written by version ONE"
    store.close()


def test_a_failing_migration_step_rolls_back(paths: AppPaths, monkeypatch) -> None:
    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE half_done (x)")
        raise RuntimeError("step failed")

    paths.data_dir.mkdir(parents=True)
    conn = sqlite3.connect(paths.database, isolation_level=None)
    monkeypatch.setattr(schema, "MIGRATIONS", [*schema.MIGRATIONS, broken])
    with pytest.raises(RuntimeError):
        schema.migrate(conn, target=LATEST_VERSION + 1)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST_VERSION
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "half_done" not in tables and "chats" in tables
    conn.close()


# ------------------------------------------------------------------------------ bad files
def _garbage(path: Path) -> None:
    path.write_bytes(bytes(range(256)) * 64)


def _foreign(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE bookmarks (url TEXT)")
    conn.execute("INSERT INTO bookmarks VALUES ('https://example.org')")
    conn.commit()
    conn.close()


def _ours_without_marker(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("CREATE TABLE something (x)")
    conn.commit()
    conn.close()


def _filled(path: Path) -> None:
    store, _ = ChatStore.open(app_paths(path.parent))
    record = store.create_chat("big")
    for i in range(400):
        store.append_message(record.id, Message(role="user", content=f"message {i} " * 40))
    store.close()


def _truncated(path: Path) -> None:
    _filled(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _damaged_pages(path: Path) -> None:
    _filled(path)
    data = bytearray(path.read_bytes())
    for offset in range(4096 * 3, len(data) - 4096, 4096 * 7):
        data[offset:offset + 600] = b"\xa5" * 600  # scribble over b-tree page headers
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("make", [_garbage, _foreign, _ours_without_marker, _truncated,
                                  _damaged_pages])
def test_bad_database_is_set_aside(paths: AppPaths, make) -> None:
    """Garbage, foreign and unmarked files start empty; damaged ones of ours keep what reads
    (tests/test_storage_salvage.py checks the rows themselves)."""
    paths.data_dir.mkdir(parents=True)
    make(paths.database)
    original = _digest(paths.database)
    store, notices = ChatStore.open(paths)
    store.close()
    assert len(notices) == 1
    notice = notices[0]
    assert notice.level == "warning" and notice.backup_path
    backup = Path(notice.backup_path)
    assert backup.parent == paths.backup_dir
    assert _digest(backup) == original  # moved as it was, not rewritten
    assert str(backup) in notice.text
    assert _pragma(paths.database, "user_version") == LATEST_VERSION
    damaged = make in (_truncated, _damaged_pages)
    assert (notice.salvage is not None and notice.salvage.messages > 0) == damaged
    # _damaged_pages hits the chats table's page: the chat comes back through its messages.
    kept = {_truncated: ("big",), _damaged_pages: ("Recovered chat 1",)}.get(make, ())
    _fresh_store_works(paths, kept)


def test_side_files_move_with_the_database(paths: AppPaths) -> None:
    paths.data_dir.mkdir(parents=True)
    _garbage(paths.database)
    Path(f"{paths.database}-wal").write_bytes(b"old wal")
    _, notices = ChatStore.open(paths)
    backup = Path(notices[0].backup_path or "")
    assert Path(f"{backup}-wal").read_bytes() == b"old wal"


def test_empty_file_is_a_fresh_database(paths: AppPaths) -> None:
    paths.data_dir.mkdir(parents=True)
    paths.database.touch()
    store, notices = ChatStore.open(paths)
    store.close()
    assert notices == []
    assert _pragma(paths.database, "user_version") == LATEST_VERSION


def test_newer_schema_is_refused_and_left_alone(paths: AppPaths) -> None:
    store, _ = ChatStore.open(paths)
    store.create_chat("from the future")
    store.close()
    conn = sqlite3.connect(paths.database)
    conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    conn.commit()
    conn.close()
    before = _digest(paths.database)
    with pytest.raises(StorageError, match="newer ollm-desktop"):
        ChatStore.open(paths)
    assert _digest(paths.database) == before
    assert not paths.backup_dir.exists() or not any(paths.backup_dir.iterdir())


# ----------------------------------------------------------------------------- permissions
def test_files_and_folders_are_private(paths: AppPaths) -> None:
    store, _ = ChatStore.open(paths)
    record = store.create_chat("c")
    store.append_message(record.id, Message(role="user", content="secret"))
    assert _mode(paths.data_dir) == 0o700
    for suffix in ("", "-wal", "-shm"):
        side = Path(f"{paths.database}{suffix}")
        assert side.exists(), suffix
        assert _mode(side) == 0o600, suffix
    store.close()
    _garbage(paths.database)
    _, notices = ChatStore.open(paths)
    assert _mode(paths.backup_dir) == 0o700
    assert _mode(Path(notices[0].backup_path or "")) == 0o600


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores file permissions")
def test_read_only_folder_is_a_clear_error(paths: AppPaths) -> None:
    paths.data_dir.mkdir(parents=True)
    paths.data_dir.chmod(0o500)
    try:
        with pytest.raises(StorageError, match=r"read-only|cannot be opened"):
            ChatStore.open(paths)
    finally:
        paths.data_dir.chmod(0o700)


def test_permission_denied_is_a_clear_error(paths: AppPaths, monkeypatch) -> None:
    paths.data_dir.mkdir(parents=True)

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(schema.os, "open", denied)
    with pytest.raises(StorageError, match="read-only"):
        ChatStore.open(paths)


def test_data_folder_that_cannot_exist_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(StorageError):
        ChatStore.open(app_paths(blocker / "data"))


def test_full_disk_is_a_storage_error_and_keeps_earlier_data(paths: AppPaths) -> None:
    store, _ = ChatStore.open(paths)
    record = store.create_chat("c")
    kept = Message(role="user", content="saved before the disk filled")
    store.append_message(record.id, kept)
    pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
    store._conn.execute(f"PRAGMA max_page_count = {pages + 2}")  # the "disk" is now full
    with pytest.raises(StorageError, match="full"):
        for _ in range(50):
            store.append_message(record.id, Message(role="user", content="x" * 20_000))
    with pytest.raises(StorageError, match="full"):
        store.save_engine_state(record.id, EngineState(system_prompt="y" * 200_000))
    state = store.load_engine_state(record.id)
    assert state is not None and state.messages[0] == kept
    store.close()
