"""Damaged, foreign or impossible data folders, and a full disk.

The real entry point runs as a subprocess (``python -m ollm_desktop --self-test --data-dir D``,
offscreen, Ollama pointed at a closed loopback port) against each prepared bad state. It must
either start (exit 0, "self-test: ok") or stop with a one-line reason and no traceback; it
keeps a backup of whatever it could not use, and nothing else is lost. A full disk is
simulated in-process with SQLite's ``max_page_count``.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ollm_desktop.engine import Message
from ollm_desktop.paths import app_paths
from ollm_desktop.storage import ChatStore
from tests.controller_harness import make_controller, run, settle, shutdown, turn
from tests.faults import tally
from tests.ollama_server import FakeOllama, free_port

pytestmark = pytest.mark.faultgroup("bad-data")

REPO = Path(__file__).resolve().parents[2]
QT_NOISE = ("This plugin does not support",)
CHATS = ["Alpha plans", "Beta review", "Gamma notes"]


def run_app(data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("OLLM_DATA_DIR", "DISPLAY",
                                                           "WAYLAND_DISPLAY")}
    env.update(PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen",
               OLLAMA_HOST=f"http://127.0.0.1:{free_port()}")
    return subprocess.run([sys.executable, "-m", "ollm_desktop", "--self-test", "--data-dir",
                           str(data_dir)], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=60)


def assert_started(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0, (result.returncode, result.stdout, result.stderr)
    assert "ollm-desktop self-test: ok" in result.stdout


def assert_refused_clearly(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr, result.stderr
    # The offscreen Qt plugin's own warnings are not the app's words.
    lines = [line for line in result.stderr.splitlines()
             if line.strip() and not line.startswith(QT_NOISE)]
    assert len(lines) == 1 and lines[0].startswith("ollm-desktop"), lines
    for word in words:
        assert word in lines[0], lines[0]


def good_database(data_dir: Path) -> list[str]:
    """A database with three chats of two messages each; returns their ids."""
    paths = app_paths(data_dir)
    paths.ensure()
    store, _ = ChatStore.open(paths)
    try:
        ids = []
        for title in CHATS:
            chat = store.create_chat(title, model="llama3.2:3b", context_size=4096)
            store.append_message(chat.id, Message(role="user", content=f"{title}: question"))
            store.append_message(chat.id, Message(role="assistant", content=f"{title}: answer"))
            ids.append(chat.id)
        return ids
    finally:
        store.close()


def chats_in(data_dir: Path) -> dict[str, list[str]]:
    store, notices = ChatStore.open(app_paths(data_dir))
    try:
        assert not notices, [n.text for n in notices]
        return {c.title: [m.content for m in store.messages(c.id)] for c in store.list_chats()}
    finally:
        store.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


# ----------------------------------------------------------------- database
@pytest.mark.parametrize("damage", ["garbage", "truncated", "zeroed-pages", "foreign-sqlite"])
def test_damaged_database_is_set_aside_and_the_app_starts(data_dir, damage):
    good_database(data_dir)
    db = app_paths(data_dir).database
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = db.read_bytes()
    if damage == "garbage":
        data = os.urandom(len(data))
    elif damage == "truncated":
        data = data[: len(data) // 2 + 100]
    elif damage == "zeroed-pages":
        data = data[:4096] + b"\0" * (len(data) - 4096)
    else:
        db.unlink()
        with sqlite3.connect(db) as other:
            other.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        other.close()
        data = db.read_bytes()
    db.write_bytes(data)
    for side in ("-wal", "-shm"):
        Path(f"{db}{side}").unlink(missing_ok=True)
    original = hashlib.sha256(data).hexdigest()

    result = run_app(data_dir)

    assert_started(result)
    backups = list((data_dir / "backups").glob("*.sqlite3"))
    if damage == "truncated" and not backups:
        # SQLite may still read every page it needs: then nothing was damaged for it.
        assert chats_in(data_dir)
        return
    assert len(backups) == 1, backups
    assert digest(backups[0]) == original  # the damaged file is kept as it was
    if damage == "truncated":  # the pages before the cut still read: their chats come back
        kept = chats_in(data_dir)
        assert kept and all(kept[t] == [f"{t}: question", f"{t}: answer"] for t in kept)
        return
    assert chats_in(data_dir) == {}  # a fresh, working database took its place


def test_database_of_a_newer_version_is_left_untouched(data_dir):
    good_database(data_dir)
    db = app_paths(data_dir).database
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA user_version = 999")
    conn.close()
    before = digest(db)
    result = run_app(data_dir)
    assert_refused_clearly(result, "newer")
    assert digest(db) == before
    assert not list((data_dir / "backups").glob("*.sqlite3"))


def test_database_path_taken_by_a_folder_fails_clearly(data_dir):
    app_paths(data_dir).ensure()
    app_paths(data_dir).database.mkdir()
    (app_paths(data_dir).database / "keep.txt").write_text("mine")
    result = run_app(data_dir)
    if result.returncode == 0:
        assert_started(result)
    else:
        assert_refused_clearly(result)
    assert (app_paths(data_dir).database / "keep.txt").read_text() == "mine"


# ----------------------------------------------------------------- settings
SETTINGS_CASES: dict[str, Callable[[Path], None]] = {
    "not-json": lambda p: p.write_text("{ this is not json", encoding="utf-8"),
    "not-an-object": lambda p: p.write_text("[1, 2, 3]", encoding="utf-8"),
    "invalid-value": lambda p: p.write_text(json.dumps({"context_size": "huge"})),
    "binary": lambda p: p.write_bytes(b"\xff\xfe\x00garbage\x80"),
    "a-folder": lambda p: (p.mkdir(), (p / "inner.txt").write_text("mine")),
}


@pytest.mark.parametrize("case", sorted(SETTINGS_CASES))
def test_bad_settings_are_backed_up_and_chats_kept(data_dir, case):
    good_database(data_dir)
    settings = app_paths(data_dir).settings_file
    SETTINGS_CASES[case](settings)
    original = None if settings.is_dir() else settings.read_bytes()

    result = run_app(data_dir)

    assert_started(result)
    backups = sorted(settings.parent.glob("settings.json.*.bak"))
    assert len(backups) == 1, list(settings.parent.iterdir())
    if original is not None:
        assert backups[0].read_bytes() == original
    else:
        assert (backups[0] / "inner.txt").read_text() == "mine"
    assert json.loads(settings.read_text(encoding="utf-8"))["context_size"] >= 1024
    assert sorted(chats_in(data_dir)) == sorted(CHATS)


def test_unknown_settings_are_ignored_and_known_ones_kept(data_dir):
    good_database(data_dir)
    settings = app_paths(data_dir).settings_file
    settings.write_text(json.dumps({"context_size": 16384, "theme": "dark",
                                    "from_the_future": {"x": 1}}), encoding="utf-8")
    result = run_app(data_dir)
    assert_started(result)
    saved = json.loads(settings.read_text(encoding="utf-8"))
    assert saved["context_size"] == 16384 and saved["theme"] == "dark"
    assert sorted(chats_in(data_dir)) == sorted(CHATS)


# ----------------------------------------------------------------- folders
def test_data_folder_that_is_a_file_fails_clearly(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("not a folder")
    result = run_app(blocker)
    assert_refused_clearly(result, str(blocker))
    assert blocker.read_text() == "not a folder"


@pytest.mark.parametrize("sub", ["config", "logs", "backups"])
def test_subfolder_blocked_by_a_file_fails_clearly_and_keeps_chats(data_dir, sub):
    """Root ignores permission bits: a file where a folder must be is the unwritable case."""
    good_database(data_dir)
    blocker = data_dir / sub
    if blocker.exists():
        os.rmdir(blocker)
    blocker.write_text("in the way")
    result = run_app(data_dir)
    if result.returncode == 0:
        assert_started(result)
    else:
        assert_refused_clearly(result)
    tally.note("bad-data", "blocked folders refused" if result.returncode else
               "blocked folders started")
    assert blocker.read_text() == "in the way"
    assert sorted(chats_in(data_dir)) == sorted(CHATS)


# ----------------------------------------------------------------- full disk
def fill_disk(store: ChatStore, spare_pages: int = 0) -> None:
    """SQLite's page limit set to what the file holds now: the next growth fails (SQLITE_FULL)."""
    conn = store._conn
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages + spare_pages}")


def free_disk(store: ChatStore) -> None:
    store._conn.execute("PRAGMA max_page_count = 1073741823")


@pytest.fixture
def server(ollama_server: FakeOllama) -> Iterator[FakeOllama]:
    yield ollama_server


def test_full_disk_when_sending_gives_the_text_back_and_keeps_the_chat(qloop, tmp_path,
                                                                       server):
    c = make_controller(tmp_path / "data", server)
    failed: list[tuple[str, str]] = []
    c.sendFailed.connect(lambda text, why: failed.append((text, why)))
    big = "A long message that needs new pages. " + "x" * 20_000

    async def scenario() -> None:
        server.script("First answer.")
        await turn(c, "First question")
        fill_disk(c.session.store)
        await turn(c, big)
        free_disk(c.session.store)
        server.script("Second answer.")
        await turn(c, big)
        await settle(c)

    try:
        run(qloop, scenario())
        assert failed and failed[0][0] == big.strip()
        assert failed[0][1].strip() and "Traceback" not in failed[0][1]
        contents = [m.content for m in c.session.engine.display_messages()]
        assert contents == ["First question", "First answer.", big.strip(), "Second answer."]
        chat_id = c.chat.id
    finally:
        shutdown(qloop, c)
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    try:
        assert [m.content for m in store.messages(chat_id)] == contents
    finally:
        store.close()


def full_disk_mid_stream(qloop, data: Path, server: FakeOllama,
                         ) -> tuple[list[str], list[str], list[str]]:
    """Disk full while a long reply streams, freed before the next turn.

    Returns the error kinds emitted, the chat as shown, and the chat as stored afterwards.
    """
    from tests.ollama_server import Reply

    c = make_controller(data, server)
    errors: list[str] = []
    c.error.connect(lambda kind, text: errors.append(kind))

    async def scenario() -> list[str]:
        server.script("First answer.")
        await turn(c, "First question")
        fill_disk(c.session.store, spare_pages=2)
        server.script(Reply(text=LONG_REPLY, chunks=[LONG_REPLY[i:i + 2000] for i in
                                                     range(0, len(LONG_REPLY), 2000)]))
        await turn(c, "Write a lot")
        during = [m.content for m in c.session.engine.display_messages()]
        free_disk(c.session.store)
        server.script("You are welcome.")
        await turn(c, "Thanks")  # the next turn's saves must also write what was missed
        return during

    try:
        during = run(qloop, scenario())
        assert during[-1] == LONG_REPLY  # nothing streamed was dropped while the disk was full
        chat_id = c.chat.id
        shown = [m.content for m in c.session.engine.display_messages()]
    finally:
        shutdown(qloop, c)
    store, _ = ChatStore.open(app_paths(data))
    try:
        stored = [m.content for m in store.messages(chat_id)]
    finally:
        store.close()
    return errors, shown, stored


LONG_REPLY = " ".join(f"word{i}" for i in range(3000)) + " " + "y" * 30_000
EXPECTED = ["First question", "First answer.", "Write a lot", LONG_REPLY, "Thanks",
            "You are welcome."]


def test_full_disk_while_streaming_keeps_the_reply_and_saves_it_later(qloop, tmp_path,
                                                                      server):
    errors, shown, stored = full_disk_mid_stream(qloop, tmp_path / "data", server)
    assert "storage" in errors
    assert shown == EXPECTED
    assert sorted(stored) == sorted(EXPECTED)  # every message reached the disk in the end


def test_a_reply_saved_late_keeps_its_place_in_the_history(qloop, tmp_path, server):
    _errors, shown, stored = full_disk_mid_stream(qloop, tmp_path / "data", server)
    assert shown == EXPECTED
    assert stored == EXPECTED
