"""The database file: schema migrations, the identity checks run at open, and file safety.

Identity: ``PRAGMA application_id`` holds :data:`APPLICATION_ID` and the ``ollm_meta`` table
holds ``schema = ollm-desktop``; a file without both is not ours and is set aside, never
written into. ``PRAGMA user_version`` is the schema version: each entry of :data:`MIGRATIONS`
moves it up by one, in its own transaction, so an interrupted upgrade leaves a valid older
version that the next start continues from.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from ollm_desktop.storage.message_facts import create as _message_facts_v7  # step 7

APPLICATION_ID = 0x4F4C4D44  # "OLMD"
SCHEMA_MARKER = "ollm-desktop"
SQLITE_HEADER = b"SQLite format 3\x00"
SIDE_FILES = ("-wal", "-shm", "-journal")

# SQLite primary result codes that mean "the bytes are damaged or not a database".
_CORRUPT_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB


class StorageError(Exception):
    """The database cannot be used; the message is meant for the user."""


def run_script(conn: sqlite3.Connection, script: str) -> None:
    """Execute statements one by one: ``executescript`` would commit the open transaction."""
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            conn.execute(pending)
            pending = ""
    if pending.strip():
        raise ValueError(f"incomplete SQL statement: {pending!r}")


def _schema_v1(conn: sqlite3.Connection) -> None:
    run_script(
        conn,
        f"""
        CREATE TABLE ollm_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO ollm_meta (key, value) VALUES ('schema', '{SCHEMA_MARKER}');
        CREATE TABLE chats (
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            model TEXT,
            context_size INTEGER NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            message_count INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX chats_updated ON chats (updated_at);
        CREATE TABLE messages (
            rowid INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            chat_id TEXT NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            role TEXT NOT NULL,
            content TEXT NOT NULL,
            pinned INTEGER NOT NULL DEFAULT 0,
            tokens INTEGER NOT NULL DEFAULT 0,
            exact_tokens INTEGER NOT NULL DEFAULT 0,
            partial INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            model TEXT,
            UNIQUE (chat_id, seq)
        );
        CREATE TABLE chat_state (
            chat_id TEXT PRIMARY KEY REFERENCES chats (id) ON DELETE CASCADE,
            meta TEXT NOT NULL,
            groups TEXT NOT NULL,
            undo TEXT NOT NULL,
            updated_at TEXT NOT NULL
        );
        CREATE TABLE snapshots (
            rowid INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            chat_id TEXT NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
            created_at TEXT NOT NULL,
            reason TEXT NOT NULL,
            label TEXT NOT NULL DEFAULT '',
            auto INTEGER NOT NULL,
            message_count INTEGER NOT NULL,
            tokens INTEGER NOT NULL,
            checkpoint_count INTEGER NOT NULL,
            model TEXT,
            tier INTEGER,
            state BLOB NOT NULL
        );
        CREATE INDEX snapshots_chat ON snapshots (chat_id, created_at);
        CREATE TRIGGER snapshots_immutable BEFORE UPDATE ON snapshots
        BEGIN SELECT RAISE(ABORT, 'snapshots are immutable'); END;
        CREATE TABLE calibration (
            model TEXT PRIMARY KEY,
            factor REAL NOT NULL,
            samples INTEGER NOT NULL,
            updated_at TEXT NOT NULL
        );
        """
    )


def fts5_has(tokenize: str) -> bool:
    """Whether this SQLite builds an FTS5 table with the ``tokenize`` option given."""
    try:
        probe = sqlite3.connect(":memory:")
        try:
            probe.execute(f"CREATE VIRTUAL TABLE t USING fts5(body, tokenize='{tokenize}')")
        finally:
            probe.close()
    except sqlite3.Error:
        return False
    return True


def fts_available() -> bool:
    """FTS5 with the trigram tokenizer (SQLite >= 3.34) gives indexed substring search."""
    return fts5_has("trigram")


def _search_index_v2(conn: sqlite3.Connection) -> None:
    """``message_search`` holds the case-folded text (rowid = messages.rowid).

    SQLite folds only ASCII case, so the store writes ``str.casefold()`` of each message here
    and searches that. It is an FTS5 trigram table when this SQLite has one, else a plain table
    searched with LIKE (same results, slower).
    """
    if fts_available():
        conn.execute("CREATE VIRTUAL TABLE message_search USING fts5(body, tokenize='trigram')")
        kind = "fts5-trigram"
    else:
        conn.execute("CREATE TABLE message_search (rowid INTEGER PRIMARY KEY, body TEXT)")
        kind = "like"
    conn.execute("CREATE TRIGGER messages_search_delete AFTER DELETE ON messages "
                 "BEGIN DELETE FROM message_search WHERE rowid = old.rowid; END")
    conn.execute("INSERT INTO ollm_meta (key, value) VALUES ('search', ?)", (kind,))
    rows = conn.execute("SELECT rowid, content FROM messages").fetchall()
    conn.executemany("INSERT INTO message_search (rowid, body) VALUES (?, ?)",
                     [(rowid, content.casefold()) for rowid, content in rows])


def add_chat_feature_columns(conn: sqlite3.Connection) -> None:
    """The columns of step 3 (also added to the salvage's stand-in schema page: adding a
    column only rewrites the table's CREATE text, so the tables keep their root pages)."""
    conn.execute("ALTER TABLE chats ADD COLUMN settings TEXT NOT NULL DEFAULT '{}'")
    conn.execute("ALTER TABLE messages ADD COLUMN meta TEXT NOT NULL DEFAULT '{}'")


def _chat_features_v3(conn: sqlite3.Connection) -> None:
    """Per-chat settings (``chats.settings``, JSON of ``ChatSettings``) and per-message facts
    (``messages.meta``, JSON: a reply's statistics).

    Until now a chat kept the Preferences' system prompt it was created with (in its engine
    state); that prompt becomes the chat's own setting, so an upgrade never changes what an
    existing chat sends. A chat without one follows the Preferences' prompt from now on.
    """
    add_chat_feature_columns(conn)
    updates = []
    for chat_id, meta in conn.execute("SELECT chat_id, meta FROM chat_state").fetchall():
        try:
            prompt = json.loads(meta).get("system_prompt")
        except (ValueError, TypeError, AttributeError):
            continue  # an unreadable state is the store's to report when the chat opens
        if isinstance(prompt, str) and prompt.strip():
            updates.append((json.dumps({"system_prompt": prompt}), chat_id))
    conn.executemany("UPDATE chats SET settings = ? WHERE id = ?", updates)


def add_family_columns(conn: sqlite3.Connection) -> None:
    """The chat columns of step 4 (also on the salvage's stand-in schema page)."""
    for column in ("pinned INTEGER NOT NULL DEFAULT 0", "trashed_at TEXT", "parent_id TEXT",
                   "root_id TEXT", "branch_kind TEXT NOT NULL DEFAULT ''",
                   "branch_label TEXT NOT NULL DEFAULT ''"):
        conn.execute(f"ALTER TABLE chats ADD COLUMN {column}")


def _branches_v4(conn: sqlite3.Connection) -> None:
    """Branches and forks (a chat's parent and family), chats pinned to the top of the list or
    moved to the trash (kept until the undo is over), and attached images.

    ``root_id`` names the family a branch belongs to (NULL: the chat is its own root);
    ``branch_kind`` is '' for a chat, 'branch' or 'fork'. Images are stored once per content
    (``id`` is the SHA-256 of ``data``), whichever messages, branches or snapshots use them.
    """
    add_family_columns(conn)
    conn.execute("CREATE INDEX chats_root ON chats (root_id)")
    conn.execute(
        "CREATE TABLE images (id TEXT PRIMARY KEY, mime TEXT NOT NULL, data BLOB NOT NULL, "
        "created_at TEXT NOT NULL)"
    )


def add_facts_column(conn: sqlite3.Connection) -> None:
    """The column of step 5 (also on the salvage's stand-in schema page)."""
    conn.execute("ALTER TABLE chat_state ADD COLUMN facts TEXT NOT NULL DEFAULT '[]'")


def _facts_v5(conn: sqlite3.Connection) -> None:
    """The facts ledger (``engine.facts``): a chat's facts, with who stated them and what the
    user added, edited, pinned or forgot, in a part of its own (``chat_state.facts``, JSON), so
    a change of a fact writes that part only. A chat saved before it keeps its reference ledger
    in ``meta``; the engine converts that into facts when the chat is loaded."""
    add_facts_column(conn)


def _recall_v6(conn: sqlite3.Connection) -> None:
    """Recall's word index (``storage.recall_index``): each round of a chat in FTS5 (BM25),
    built from the stored messages (plain tables without FTS5: recall off). New tables only."""
    from ollm_desktop.storage import recall_index

    recall_index.create(conn)


def _documents_v8(conn: sqlite3.Connection) -> None:
    """Attached documents: new tables only (``storage.documents.library``)."""
    from ollm_desktop.storage.documents import library  # it imports this module

    library.create_tables(conn)


Migration = Callable[[sqlite3.Connection], None]
# Never edit or reorder a released step: append a new one.
MIGRATIONS: list[Migration] = [_schema_v1, _search_index_v2, _chat_features_v3, _branches_v4,
                               _facts_v5, _recall_v6, _message_facts_v7, _documents_v8]
LATEST_VERSION = len(MIGRATIONS)


def migrate(conn: sqlite3.Connection, target: int = LATEST_VERSION) -> int:
    """Apply the missing steps up to ``target``, one transaction each; returns the version."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    while version < target:
        step = MIGRATIONS[version]
        conn.execute("BEGIN IMMEDIATE")
        try:
            if version == 0:
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            step(conn)
            conn.execute(f"PRAGMA user_version = {version + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        version += 1
    return version


# --------------------------------------------------------------------------- inspection
class Verdict:
    """What :func:`inspect` found: ``fresh``, ``ours``, ``newer`` or ``bad`` (with a reason).

    ``damaged``: bad because SQLite found damaged pages (not a foreign or unmarked file), so
    the rows that still read are worth recovering.
    """

    def __init__(self, kind: str, reason: str = "", version: int = 0,
                 damaged: bool = False) -> None:
        self.kind = kind
        self.reason = reason
        self.version = version
        self.damaged = damaged


def is_corruption(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _CORRUPT_CODES
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text


def describe_os_error(exc: BaseException, path: Path) -> str:
    """A sentence for the user; the common causes first."""
    text = str(exc).lower()
    if "readonly" in text or "read-only" in text or isinstance(exc, PermissionError):
        return (f"The data folder {path.parent} is read-only or not yours, so chats cannot be "
                f"saved there. Fix its permissions or start with --data-dir pointing elsewhere.")
    if "full" in text or getattr(exc, "errno", None) == 28:
        return (f"The disk holding {path.parent} is full; free some space and try again. "
                f"Nothing already saved was lost.")
    if "locked" in text or "busy" in text:
        return (f"The database {path} is in use by another program (another ollm-desktop "
                f"window?). Close it and try again.")
    if "unable to open" in text:
        return (f"The database {path} cannot be opened: the folder may be missing, read-only "
                f"or not yours. Fix its permissions or use --data-dir.")
    return f"The database {path} cannot be used: {exc}"


def inspect(path: Path) -> Verdict:
    """Decide, without writing, whether ``path`` is missing, ours, from a newer app, or bad."""
    if not path.exists():
        return Verdict("fresh")
    try:
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise StorageError(describe_os_error(exc, path)) from exc
    if not header:
        return Verdict("fresh")  # an empty file is an empty database
    if header != SQLITE_HEADER:
        return Verdict("bad", "it is not an SQLite database")
    try:
        return _inspect_sqlite(path)
    except sqlite3.Error as exc:
        if is_corruption(exc):
            return Verdict("bad", f"SQLite reports it damaged ({exc})", damaged=True)
        raise StorageError(describe_os_error(exc, path)) from exc


def _inspect_sqlite(path: Path) -> Verdict:
    conn = _connect_readonly(path)
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        if app_id != APPLICATION_ID:
            if app_id == 0 and version == 0 and not tables:
                return Verdict("fresh")
            return Verdict("bad", "it is an SQLite database of another program")
        if version > LATEST_VERSION:  # ours, from a newer build: its layout is unknown
            return Verdict("newer", version=version)
        marker = None
        if "ollm_meta" in tables:
            row = conn.execute("SELECT value FROM ollm_meta WHERE key = 'schema'").fetchone()
            marker = row[0] if row else None
        if marker != SCHEMA_MARKER:
            return Verdict("bad", "it lacks the ollm-desktop schema marker")
        problems = [line.strip() for r in conn.execute("PRAGMA integrity_check(5)")
                    for line in str(r[0]).splitlines() if line.strip() and "***" not in line]
        if problems != ["ok"]:
            return Verdict("bad", "the integrity check failed: " + "; ".join(problems),
                           damaged=True)
        return Verdict("ours", version=version)
    finally:
        conn.close()


def _connect_readonly(path: Path) -> sqlite3.Connection:
    """Read-only when SQLite allows it (a WAL file without its -shm needs a writer)."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.Error as exc:
        if is_corruption(exc):
            raise
    return sqlite3.connect(path)


def timestamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S")


def set_aside(path: Path, backup_dir: Path) -> Path:
    """Move the database and its side files into ``backup_dir``; returns the new db path."""
    make_private_dir(backup_dir)
    stem = f"{path.stem}-{timestamp()}"
    target = backup_dir / f"{stem}{path.suffix}"
    counter = 1
    while target.exists():
        counter += 1
        target = backup_dir / f"{stem}-{counter}{path.suffix}"
    try:
        os.replace(path, target)
        with contextlib.suppress(OSError):
            os.chmod(target, 0o600)
        for suffix in SIDE_FILES:
            side = Path(f"{path}{suffix}")
            if side.exists():
                os.replace(side, Path(f"{target}{suffix}"))
    except OSError as exc:
        raise StorageError(
            f"The database {path} is damaged and could not be moved aside ({exc}). "
            f"Move it away by hand and start again."
        ) from exc
    return target


def make_private_dir(folder: Path) -> None:
    """Create ``folder`` (and parents) as 0700; existing folders are left as the user set them."""
    missing = []
    current = folder
    while not current.exists():
        missing.append(current)
        current = current.parent
    try:
        for item in reversed(missing):
            item.mkdir(mode=0o700)
            os.chmod(item, 0o700)  # mkdir's mode is filtered by the umask
    except FileExistsError:
        pass
    except OSError as exc:
        raise StorageError(describe_os_error(exc, folder / "x")) from exc


def create_private_file(path: Path) -> None:
    """Create the database file as 0600 before SQLite does (it gives -wal/-shm the same mode)."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o600)
        os.close(fd)
    except OSError as exc:
        raise StorageError(describe_os_error(exc, path)) from exc


def tighten(path: Path) -> None:
    """Make the database and its side files 0600 (a file from an older build may be 0644)."""
    for candidate in (path, *(Path(f"{path}{s}") for s in SIDE_FILES)):
        with contextlib.suppress(OSError):
            if candidate.exists() and (candidate.stat().st_mode & 0o077):
                os.chmod(candidate, 0o600)
