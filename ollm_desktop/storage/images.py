"""Attached images: stored once per content (SHA-256), shared by messages, branches and
snapshots."""

from __future__ import annotations

from ollm_desktop.storage.database import Database


class Images(Database):
    pass
