"""Reading a damaged copy whose schema itself is lost (a truncated file, a torn first page).

SQLite finds each table through ``sqlite_master``; when that cannot be read, nothing can, even
if the tables' pages are intact. Our tables are always created by the same first migration in
the same order, so their root pages are known: a first page holding that schema (built by
running the migration on an empty file of the same page size) is written over the scratch
copy's, and the tables read again. Only ever done to a scratch copy, and only when the file's
header was still SQLite's (the caller's verdict said damaged, not foreign).
"""

from __future__ import annotations

import logging
import sqlite3
import tempfile
from pathlib import Path

from ollm_desktop.storage import schema

log = logging.getLogger(__name__)

TABLES = ("chats", "messages", "chat_state", "snapshots", "calibration")
_LEAF_TABLE_PAGE = 0x0D


def _schema_readable(conn: sqlite3.Connection) -> bool:
    try:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    except sqlite3.Error:
        return False
    return {"chats", "messages"} <= names


def _page_size(path: Path) -> int | None:
    with path.open("rb") as handle:
        header = handle.read(100)
    if len(header) < 100 or header[:16] != schema.SQLITE_HEADER:
        return None
    size = int.from_bytes(header[16:18], "big")
    size = 65536 if size == 1 else size
    return size if size >= 512 and size & (size - 1) == 0 else None


def _first_page(page_size: int, pages: int) -> bytes | None:
    """Page 1 of a file holding only the first migration's schema, without the tables whose
    pages are past the end of a file of ``pages`` pages (SQLite refuses a schema naming them);
    None if it would not fit on one page."""
    with tempfile.TemporaryDirectory(prefix="salvage-schema-") as folder:
        path = Path(folder) / "template.sqlite3"
        conn = sqlite3.connect(path, isolation_level=None)
        try:
            conn.execute(f"PRAGMA page_size = {page_size}")
            conn.execute("PRAGMA journal_mode = DELETE")
            schema.migrate(conn, target=1)
            # The later columns too (their root pages do not move): a newer file's rows keep
            # them, an older file's shorter rows read them as their defaults.
            schema.add_chat_feature_columns(conn)
            schema.add_family_columns(conn)
            schema.add_facts_column(conn)
            conn.execute("PRAGMA writable_schema = ON")
            conn.execute("DELETE FROM sqlite_master WHERE tbl_name IN (SELECT tbl_name FROM "
                         "sqlite_master WHERE rootpage > ?)", (pages,))
            conn.execute("PRAGMA writable_schema = OFF")
        finally:
            conn.close()
        page = path.read_bytes()[:page_size]
    if len(page) < page_size or page[100] != _LEAF_TABLE_PAGE:
        return None
    # No page count in the header: SQLite then takes the file's size, not the template's.
    return page[:28] + bytes(4) + page[32:]


def open_source(copy: Path) -> sqlite3.Connection:
    """A connection to the scratch copy whose schema can be read, if it can be made so."""
    conn = sqlite3.connect(copy)
    if _schema_readable(conn):
        return conn
    conn.close()
    size = _page_size(copy)
    page = _first_page(size, copy.stat().st_size // size) if size else None
    if page is None:
        return sqlite3.connect(copy)
    for suffix in schema.SIDE_FILES:  # a WAL would bring back its own, damaged first page
        Path(f"{copy}{suffix}").unlink(missing_ok=True)
    with copy.open("r+b") as handle:
        handle.write(page)
    log.warning("salvage: the schema was unreadable; reading the tables at their known pages")
    return sqlite3.connect(copy)
