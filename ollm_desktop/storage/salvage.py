"""Rows still readable in a damaged database, copied into the new one that replaces it.

A few damaged pages should not hide every chat: SQLite stops a table scan at the first page it
cannot read, but the rows after it are usually still reachable by seeking past the damage. Each
table is read in rowid order; at an error the reader probes forward (exponentially, then back by
bisection) for the next row that reads, so one bad leaf page loses only the rows it held.

The damaged file itself is never written: it is copied (with its WAL, whose committed pages
are part of the data) to a scratch folder, and the copy is read. Every row is validated the way
the store reads it; a row that does not validate is counted as lost, never copied half-way.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from ollm_desktop.engine.models import EngineState
from ollm_desktop.storage.models import SalvageReport
from ollm_desktop.storage.recall_index import copy_recall_marks
from ollm_desktop.storage.rows import (
    CHAT_COLUMNS,
    chat_from_row,
    insert_message,
    iso,
    message_from_row,
    settings_json,
)
from ollm_desktop.storage.salvage_schema import open_source
from ollm_desktop.storage.schema import SIDE_FILES, is_corruption
from ollm_desktop.storage.snapshots import INFO_COLUMNS, decode_state, info_from_row
from ollm_desktop.storage.state_parts import StateParts, readable_facts

log = logging.getLogger(__name__)

ROWID_MIN, ROWID_MAX = -(2**63), 2**63 - 1
PROBE_BUDGET = 20_000  # probes per table: a badly broken b-tree is given up, not searched forever
TIME_BUDGET_S = 60.0
MESSAGE_READ = ("id, chat_id, seq, role, content, pinned, tokens, exact_tokens, created_at, "
                "partial, model, meta")
# Columns later schema steps added, read as their default from a file made before them.
LATER_COLUMNS = {"settings": "'{}'", "meta": "'{}'", "pinned": "0", "trashed_at": "NULL",
                 "parent_id": "NULL", "root_id": "NULL", "branch_kind": "''",
                 "branch_label": "''", "facts": "'[]'"}
EMPTY_GROUPS = json.dumps({"groups": [], "dropped_ids": []})


class _Gone(Exception):
    """The table cannot be read at all (its schema entry or root page is lost)."""


@dataclass
class _Reader:
    conn: sqlite3.Connection
    deadline: float
    probes: int = 0

    def count(self, table: str) -> int | None:
        """``count(*)``: SQLite often answers from an intact index when table pages are lost."""
        try:
            return int(self.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
        except sqlite3.Error:
            return None

    def readable(self, table: str, columns: str) -> str:
        """``columns`` as this file can answer them: one a later schema step added reads as its
        default from an older file (a damaged v2 file has no ``chats.settings``)."""
        try:
            present = {row[1] for row in self.conn.execute(f"PRAGMA table_info({table})")}
        except sqlite3.Error:
            return columns
        names = [name.strip() for name in columns.split(",")]
        if not present:
            return columns
        return ", ".join(name if name in present or name not in LATER_COLUMNS
                         else f"{LATER_COLUMNS[name]} AS {name}" for name in names)

    def rows(self, table: str, columns: str) -> Iterator[tuple]:
        """Every readable row of ``table`` (rowid first), skipping the unreadable stretches."""
        columns = self.readable(table, columns)
        query = f"SELECT rowid, {columns} FROM {table} WHERE rowid > ? ORDER BY rowid"
        last = ROWID_MIN
        self.probes = 0
        while True:
            try:
                for row in self.conn.execute(query, (last,)):
                    if isinstance(row[0], int) and row[0] > last:  # out of order: junk
                        last = row[0]
                        yield row
                return
            except sqlite3.Error as exc:
                if last == ROWID_MIN and not is_corruption(exc):
                    raise _Gone(str(exc)) from exc
                # The error may come from the row after the last one returned (the cursor
                # steps ahead): the probe's row is yielded itself, so every pass moves on.
                following = self._next_readable(table, columns, last)
                if following is None:
                    return
                last = following[0]
                yield following

    def _probe(self, table: str, columns: str, start: int) -> tuple[bool, tuple | None]:
        """(readable, first row with rowid >= start): whether a scan there can begin."""
        self.probes += 1
        try:
            row = self.conn.execute(f"SELECT rowid, {columns} FROM {table} WHERE rowid >= ? "
                                    "ORDER BY rowid LIMIT 1", (start,)).fetchone()
        except sqlite3.Error:
            return False, None
        if row is not None and not (isinstance(row[0], int) and row[0] >= start):
            return False, None  # a damaged page answering with junk
        return True, row

    def _next_readable(self, table: str, columns: str, last: int) -> tuple | None:
        """The first readable row after ``last`` (None: none, or the budget ran out)."""
        failed, step = last, 1
        while True:
            if self.probes > PROBE_BUDGET or time.monotonic() > self.deadline:
                log.warning("salvage of %s stopped: the table is too damaged", table)
                return None
            start = min(last + step, ROWID_MAX)
            ok, found = self._probe(table, columns, start)
            if ok:
                break
            if start == ROWID_MAX:
                return None
            failed, step = start, step * 2
        while start - failed > 1:  # back to the first start that reads (rows right after damage)
            middle = (failed + start) // 2
            ok, first = self._probe(table, columns, middle)
            if ok:
                start, found = middle, first
            else:
                failed = middle
        return found


@dataclass
class _Copy:
    """What was written so far, to check the rows that refer to others."""

    chats: dict[str, str] = field(default_factory=dict)  # id -> title
    expected: dict[str, int] = field(default_factory=dict)  # chat id -> its stored count
    messages: dict[str, set[str]] = field(default_factory=dict)  # chat id -> message ids
    seqs: set[tuple[str, int]] = field(default_factory=set)
    rebuilt: list[str] = field(default_factory=list)


def _scratch_copy(path: Path, folder: Path) -> Path:
    """Copy the damaged file and its side files; SQLite may replay the WAL into the copy."""
    target = folder / path.name
    shutil.copyfile(path, target)
    for suffix in SIDE_FILES:
        side = Path(f"{path}{suffix}")
        if side.exists():
            shutil.copyfile(side, Path(f"{target}{suffix}"))
    return target


def _decode(value: bytes) -> str:
    return value.decode("utf-8", "replace")


def recover(damaged: Path, conn: sqlite3.Connection) -> SalvageReport:
    """Copy every readable row of ``damaged`` into the fresh database ``conn`` (one
    transaction); the report says what was found and what was lost. Never raises for damage:
    an unreadable file gives an empty report."""
    report = SalvageReport()
    with tempfile.TemporaryDirectory(prefix="salvage-", dir=damaged.parent) as scratch:
        try:
            source = open_source(_scratch_copy(damaged, Path(scratch)))
        except (OSError, sqlite3.Error) as exc:
            log.warning("the damaged database could not be copied for salvage: %s", exc)
            return report
        source.text_factory = _decode
        reader = _Reader(source, time.monotonic() + TIME_BUDGET_S)
        conn.execute("BEGIN IMMEDIATE")
        try:
            _copy_all(reader, conn, report)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        finally:
            source.close()
    return report


def _copy_all(reader: _Reader, conn: sqlite3.Connection, report: SalvageReport) -> None:
    done = _Copy()
    for step in (_copy_chats, _copy_messages, _copy_states, _copy_snapshots,
                 _copy_calibration, _copy_chat_marks, _copy_families, _copy_images):
        try:
            step(reader, conn, report, done)
        except _Gone as exc:
            log.warning("salvage: %s could not be read (%s)", step.__name__[6:], exc)
    for chat_id, count in done.messages.items():
        conn.execute("UPDATE chats SET message_count = ? WHERE id = ?", (len(count), chat_id))
    if report.messages_expected is None:  # no count from SQLite: at least what chats said
        report.messages_expected = sum(done.expected.values()) + sum(
            len(done.messages.get(chat_id, ())) for chat_id in done.rebuilt)
    report.chats = len(done.chats)
    report.chats_rebuilt = len(done.rebuilt)
    report.messages = sum(len(ids) for ids in done.messages.values())
    report.short_chats = [
        done.chats[chat_id] for chat_id, count in done.expected.items()
        if len(done.messages.get(chat_id, ())) < count
    ]


def _copy_chats(reader: _Reader, conn: sqlite3.Connection, report: SalvageReport,
                done: _Copy) -> None:
    report.chats_expected = reader.count("chats")
    for row in reader.rows("chats", CHAT_COLUMNS):
        try:
            chat = chat_from_row(row[1:])
        except (ValidationError, ValueError, TypeError):
            continue
        if chat.id in done.chats:
            continue
        conn.execute(f"INSERT INTO chats ({CHAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
                     (chat.id, chat.title, chat.model, chat.context_size,
                      iso(chat.created_at), iso(chat.updated_at), settings_json(chat.settings)))
        done.chats[chat.id] = chat.title
        done.expected[chat.id] = chat.message_count


def _copy_messages(reader: _Reader, conn: sqlite3.Connection, report: SalvageReport,
                   done: _Copy) -> None:
    report.messages_expected = reader.count("messages")
    seen: set[str] = set()
    for row in reader.rows("messages", MESSAGE_READ):
        _rowid, mid, chat_id, seq, role, content, pinned, tokens, exact, created, partial, \
            model, meta = row
        try:
            message = message_from_row((mid, role, content, pinned, tokens, exact, created,
                                        partial, model, meta))
        except (ValidationError, ValueError, TypeError):
            continue
        if (message.id in seen or not isinstance(chat_id, str) or not isinstance(seq, int)
                or (chat_id, seq) in done.seqs):
            continue
        if chat_id not in done.chats:
            _rebuild_chat(conn, chat_id, message.created_at.isoformat(), done)
        insert_message(conn, chat_id, message, seq)
        copy_recall_marks(conn, message.id, meta)
        conn.execute("UPDATE chats SET updated_at = max(updated_at, ?) WHERE id = ?",
                     (iso(message.created_at), chat_id))
        seen.add(message.id)
        done.seqs.add((chat_id, seq))
        done.messages.setdefault(chat_id, set()).add(message.id)


def _rebuild_chat(conn: sqlite3.Connection, chat_id: str, created: str, done: _Copy) -> None:
    """The chat's row was lost but its messages were not: a chat to hold them."""
    title = f"Recovered chat {len(done.rebuilt) + 1}"
    conn.execute(f"INSERT INTO chats ({CHAT_COLUMNS}) VALUES (?, ?, NULL, 8192, ?, ?, 0, '{{}}')",
                 (chat_id, title, created, created))
    done.chats[chat_id] = title
    done.rebuilt.append(chat_id)


def _copy_states(reader: _Reader, conn: sqlite3.Connection, report: SalvageReport,
                 done: _Copy) -> None:
    """A state is kept whole when every message it names was recovered; otherwise its
    checkpoints and undo steps are dropped (the chat keeps its full history, its goal and
    system prompt, and is summarised again when it fills up)."""
    for row in reader.rows("chat_state", "chat_id, meta, groups, undo, facts, updated_at"):
        _rowid, chat_id, meta, groups, undo, facts, updated = row
        if chat_id not in done.chats:
            continue
        facts = readable_facts(facts)  # kept whatever else is lost: they are the user's
        try:
            EngineState.model_validate_json(meta)
            parts = StateParts.parse(meta, groups, undo, facts)
        except (ValidationError, ValueError, KeyError, TypeError):
            try:
                EngineState.model_validate_json(meta)
            except (ValidationError, ValueError, TypeError):
                continue
            parts = None
        if parts is None or not _refers_to(parts, done.messages.get(chat_id, set())):
            groups, undo = EMPTY_GROUPS, "[]"
            report.states_reset += 1
        with contextlib.suppress(sqlite3.IntegrityError):
            conn.execute("INSERT INTO chat_state (chat_id, meta, groups, undo, facts, "
                         "updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                         (chat_id, meta, groups, undo, facts, str(updated)))


def _refers_to(parts: StateParts, known: set[str]) -> bool:
    named = set(parts.dropped_ids)
    for group in [*parts.groups, *(g for entry in parts.undo for g in entry.groups)]:
        named.update(group.message_ids)
        named.update(group.span_ids)
    return named <= known


def _copy_snapshots(reader: _Reader, conn: sqlite3.Connection, report: SalvageReport,
                    done: _Copy) -> None:
    report.snapshots_expected = reader.count("snapshots")
    for row in reader.rows("snapshots", f"{INFO_COLUMNS}, state"):
        info_row, blob = row[1:-1], row[-1]
        try:
            info = info_from_row(info_row)
            decode_state(blob)
        except Exception:  # ValidationError, ValueError, zlib.error: not a snapshot any more
            continue
        if info.chat_id not in done.chats:
            continue
        with contextlib.suppress(sqlite3.IntegrityError):
            conn.execute(f"INSERT INTO snapshots ({INFO_COLUMNS}, state) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (*info_row, blob))
            report.snapshots += 1


def _copy_calibration(reader: _Reader, conn: sqlite3.Connection, report: SalvageReport,
                      done: _Copy) -> None:
    for row in reader.rows("calibration", "model, factor, samples, updated_at"):
        _rowid, model, factor, samples, updated = row
        if not (isinstance(model, str) and isinstance(factor, float | int)
                and isinstance(samples, int)):
            continue
        with contextlib.suppress(sqlite3.IntegrityError):
            conn.execute("INSERT INTO calibration (model, factor, samples, updated_at) "
                         "VALUES (?, ?, ?, ?)", (model, float(factor), samples, str(updated)))


def _copy_chat_marks(reader: _Reader, conn: sqlite3.Connection, report: SalvageReport,
                     done: _Copy) -> None:
    """One-off facts about a chat (``chat:<id>:<mark>`` in ollm_meta), for recovered chats."""
    for _rowid, key, value in reader.rows("ollm_meta", "key, value"):
        if not (isinstance(key, str) and key.startswith("chat:")):
            continue
        if key.split(":")[1] in done.chats and isinstance(value, str):
            conn.execute("INSERT OR IGNORE INTO ollm_meta (key, value) VALUES (?, ?)",
                         (key, value))


def _copy_families(reader: _Reader, conn: sqlite3.Connection, report: SalvageReport,
                   done: _Copy) -> None:
    """Step 4's facts of the recovered chats: pinned, in the trash, a branch of which family."""
    columns = "id, pinned, trashed_at, parent_id, root_id, branch_kind, branch_label"
    for _rowid, chat_id, *family in reader.rows("chats", columns):
        if chat_id in done.chats:
            conn.execute("UPDATE chats SET pinned = ?, trashed_at = ?, parent_id = ?, "
                         "root_id = ?, branch_kind = ?, branch_label = ? WHERE id = ?",
                         (*family, chat_id))


def _copy_images(reader: _Reader, conn: sqlite3.Connection, report: SalvageReport,
                 done: _Copy) -> None:
    """The pictures whose bytes still read (an image is whole or not at all: its id is the
    hash of its bytes)."""
    for _rowid, key, mime, data, created in reader.rows("images",
                                                        "id, mime, data, created_at"):
        if isinstance(key, str) and isinstance(data, bytes) and \
                hashlib.sha256(data).hexdigest() == key:
            conn.execute("INSERT OR IGNORE INTO images (id, mime, data, created_at) "
                         "VALUES (?, ?, ?, ?)", (key, mime or "image/png", data, created))


def describe(report: SalvageReport, backup: Path) -> str:
    """The notice: what was recovered, what was lost, where the damaged file is (SQLite's own
    findings go to the log: they mean nothing to the user)."""
    head = "The chat database was damaged: some of its pages could not be read."

    def of(found: int, expected: int | None, noun: str) -> str:
        if expected is not None and expected > found:
            return f"{found:,} of {expected:,} {noun}s"
        return f"{found:,} {noun}{'' if found == 1 else 's'}"

    parts = [of(report.chats, report.chats_expected, "chat"),
             of(report.messages, report.messages_expected, "message")]
    if report.snapshots:
        parts.append(of(report.snapshots, report.snapshots_expected, "snapshot"))
    recovered = ", ".join(parts[:-1]) + " and " + parts[-1]
    lost: list[str] = []
    if report.lost_messages:
        where = ", ".join(f"“{t}”" for t in report.short_chats[:3])
        more = len(report.short_chats) - 3
        where += f" and {more} more" if more > 0 else ""
        lost.append(f"{report.lost_messages:,} message(s)" + (f" of {where}" if where else ""))
    if report.lost_chats:
        lost.append(f"{report.lost_chats:,} chat(s)")
    if report.lost_snapshots:
        lost.append(f"{report.lost_snapshots:,} snapshot(s)")
    text = f"{head} Everything still readable was copied into a new database: {recovered}."
    if lost:
        text += " Could not be read: " + "; ".join(lost) + "."
    else:
        text += " Nothing else was lost."
    if report.chats_rebuilt:
        text += (f" {report.chats_rebuilt} chat(s) lost their title and are listed as "
                 f"“Recovered chat”.")
    if report.states_reset:
        text += (f" {report.states_reset} chat(s) lost their checkpoints: their full history "
                 f"is kept and is summarised again when needed.")
    return text + f" The damaged file was kept at {backup}."
