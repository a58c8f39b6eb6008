"""Attached images: stored once per content (SHA-256), shared by messages, branches and
snapshots.

A message keeps only an ``ImageRef`` (in ``messages.meta``); the bytes are read when a
request is built or a thumbnail is drawn, so a long chat with pictures loads as fast as one
without.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Collection

from ollm_desktop.storage.database import Database
from ollm_desktop.storage.rows import now


def image_id(data: bytes) -> str:
    """The key of an image: the SHA-256 of its bytes (hex)."""
    return hashlib.sha256(data).hexdigest()


class Images(Database):
    def put_image(self, data: bytes, mime: str) -> str:
        """Store ``data`` (once: the same bytes already stored are not written again) and
        return its id."""
        key = image_id(data)
        with self._write() as conn:
            conn.execute("INSERT OR IGNORE INTO images (id, mime, data, created_at) "
                         "VALUES (?, ?, ?, ?)", (key, mime, data, now()))
        return key

    def image_data(self, key: str) -> bytes | None:
        """The bytes of an image; None when this database does not have it (a chat imported
        from another machine keeps the reference without the picture)."""
        with self._read() as conn:
            row = conn.execute("SELECT data FROM images WHERE id = ?", (key,)).fetchone()
        return bytes(row[0]) if row else None

    def image_mime(self, key: str) -> str | None:
        with self._read() as conn:
            row = conn.execute("SELECT mime FROM images WHERE id = ?", (key,)).fetchone()
        return str(row[0]) if row else None

    def purge_unused_images(self, keep: Collection[str] = ()) -> int:
        """Delete the pictures nothing refers to any more (no message, no snapshot, not in
        ``keep``: the attachments being written, a deletion that can still be undone), so a
        deleted chat's photo does not stay in the file. Returns how many went."""
        with self._read() as conn:
            candidates = {r[0] for r in conn.execute("SELECT id FROM images")} - set(keep)
            if not candidates:
                return 0
            candidates -= {r[0] for r in conn.execute(
                "SELECT json_extract(j.value, '$.id') FROM messages AS m, "
                "json_each(m.meta, '$.images') AS j "
                "WHERE m.meta LIKE '%\"images\"%' AND json_valid(m.meta)")}
            if candidates:  # snapshots are compressed JSON: a plain search of the ids
                for (blob,) in conn.execute("SELECT state FROM snapshots"):
                    text = zlib.decompress(blob)
                    candidates = {key for key in candidates if key.encode() not in text}
                    if not candidates:
                        break
        if candidates:
            with self._write() as conn:
                conn.executemany("DELETE FROM images WHERE id = ?", [(k,) for k in candidates])
        return len(candidates)
