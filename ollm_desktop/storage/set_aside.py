"""Databases set aside at start (damaged, foreign or unmarked files kept in the backup folder)
and the chats one of them still holds: what the File menu's "Open set-aside database" offers.

A set-aside file is only ever read: it is copied to a scratch folder and opened there like a
data folder of its own (a healthy file opens as is, a damaged one is salvaged), so the kept
file stays exactly as it was found.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ollm_desktop.engine.models import EngineState
from ollm_desktop.paths import AppPaths
from ollm_desktop.storage.export import export_json, image_bytes
from ollm_desktop.storage.models import ChatRecord
from ollm_desktop.storage.schema import SIDE_FILES
from ollm_desktop.storage.store import ChatStore

RECOVERED_SUFFIX = " (recovered)"


@dataclass(frozen=True)
class ReadableChat:
    chat: ChatRecord
    state: EngineState
    images: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # its pictures' bytes


def files(paths: AppPaths) -> list[Path]:
    """The set-aside databases of this data folder, newest first."""
    folder = paths.backup_dir
    if not folder.is_dir():
        return []
    found = [p for p in folder.glob(f"{paths.database.stem}-*{paths.database.suffix}")
             if p.is_file()]
    return sorted(found, key=lambda p: (p.stat().st_mtime, p.name), reverse=True)


def has_set_aside(paths: AppPaths) -> bool:
    """Whether the File menu's "Open set-aside database" has anything to open."""
    return bool(files(paths))


def readable_chats(path: Path) -> list[ReadableChat]:
    """Every chat that can still be read from ``path`` (StorageError if it cannot be opened at
    all, e.g. a newer version's file)."""
    with tempfile.TemporaryDirectory(prefix="ollm-set-aside-", dir=path.parent) as scratch:
        root = Path(scratch)
        work = AppPaths(root, root / "config", root / "logs")
        shutil.copyfile(path, work.database)
        for suffix in SIDE_FILES:
            side = Path(f"{path}{suffix}")
            if side.exists():
                shutil.copyfile(side, Path(f"{work.database}{suffix}"))
        store, _notices = ChatStore.open(work)
        try:
            found = []
            for chat in store.list_chats():
                state = store.load_engine_state(chat.id) or EngineState()
                found.append(ReadableChat(chat, state, image_bytes(state, lambda key: (
                    None if (data := store.image_data(key)) is None
                    else (store.image_mime(key) or "image/png", data)))))
            return found
        finally:
            store.close()


def export_for_import(chats: list[ReadableChat], folder: Path) -> list[Path]:
    """Write each chat as a JSON export (the format Import reads) into ``folder``; their titles
    say they were recovered."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for number, item in enumerate(chats, 1):
        title = item.chat.title
        if not title.startswith("Recovered chat") and not title.endswith(RECOVERED_SUFFIX):
            title += RECOVERED_SUFFIX
        target = folder / f"recovered-{number}.json"
        chat = item.chat.model_copy(update={"title": title})
        target.write_text(export_json(chat, item.state, [], item.images), encoding="utf-8")
        written.append(target)
    return written
