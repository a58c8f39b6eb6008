"""The SQLite connection under the store: opening (create, migrate, set aside), transactions.

See ``store.py`` for the durability and cost model.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Self

from ollm_desktop.paths import AppPaths
from ollm_desktop.storage import recall_index, salvage, schema
from ollm_desktop.storage.models import SalvageReport, StartupNotice
from ollm_desktop.storage.schema import StorageError

log = logging.getLogger(__name__)


def _salvage(backup: Path, conn: sqlite3.Connection) -> SalvageReport | None:
    """Copy the damaged file's readable rows into the new database; None if that failed (the
    new database then starts empty, as it would without salvage)."""
    try:
        report = salvage.recover(backup, conn)
        recall_index.rebuild_all(conn)  # the copied messages' rounds
        return report
    except Exception:  # never a reason not to start: the damaged file is kept either way
        log.exception("salvaging %s failed", backup)
        return None


def _set_aside_notice(reason: str, backup: Path, path: Path,
                      report: SalvageReport | None) -> StartupNotice:
    log.warning("database %s set aside to %s: %s", path, backup, reason)
    if report is not None and report.found_anything:
        text = salvage.describe(report, backup)
    else:
        text = (f"The chat database could not be used because {reason}. It was moved to "
                f"{backup} and a new, empty database was started.")
    return StartupNotice(level="warning", text=text, backup_path=str(backup),
                         extra={"reason": reason, "database": str(path)}, salvage=report)


class Database:
    """One connection, used from one thread (the Qt/asyncio thread): no locking here."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path
        self.writes = 0  # transactions so far: a save prepared before one is out of date
        kind = conn.execute("SELECT value FROM ollm_meta WHERE key = 'search'").fetchone()
        self.search_kind = kind[0] if kind else "like"

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, paths: AppPaths) -> tuple[Self, list[StartupNotice]]:
        """Open (creating, migrating or setting aside a bad file); StorageError if impossible."""
        schema.make_private_dir(paths.data_dir)
        path = paths.database
        verdict = schema.inspect(path)
        if verdict.kind == "newer":
            raise StorageError(
                f"The chat database {path} was written by a newer ollm-desktop (schema version "
                f"{verdict.version}; this version knows up to {schema.LATEST_VERSION}). It was "
                f"not changed. Update ollm-desktop, or start with --data-dir to use another "
                f"folder."
            )
        backup = schema.set_aside(path, paths.backup_dir) if verdict.kind == "bad" else None
        schema.create_private_file(path)
        conn: sqlite3.Connection | None = None
        try:
            conn = sqlite3.connect(path, isolation_level=None)
            conn.execute("PRAGMA busy_timeout = 3000")
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                log.warning("journal_mode is %s, not WAL", mode)
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            schema.migrate(conn)
            report = _salvage(backup, conn) if backup is not None and verdict.damaged else None
            store = cls(conn, path)
        except sqlite3.Error as exc:
            if conn is not None:
                conn.close()
            raise StorageError(schema.describe_os_error(exc, path)) from exc
        schema.tighten(path)
        if backup is None:
            return store, []
        return store, [_set_aside_notice(verdict.reason, backup, path, report)]

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._conn.execute("PRAGMA optimize")
        self._conn.close()

    # ------------------------------------------------------------ transactions
    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction; SQLite errors become StorageError with a readable message."""
        conn = self._conn
        self.writes += 1
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            raise StorageError(schema.describe_os_error(exc, self.path)) from exc

    @contextlib.contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        try:
            yield self._conn
        except sqlite3.Error as exc:
            raise StorageError(schema.describe_os_error(exc, self.path)) from exc

