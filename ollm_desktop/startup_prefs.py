"""The few preferences needed before the first paint, read without pydantic.

Theme and window geometry must be applied before the window is shown (or it flashes and
jumps); everything else waits for the full, validated ``settings.load_settings`` after the
first paint. Anything odd here is ignored: the full load reports it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class StartupPrefs:
    theme: str = "system"
    window_geometry: str | None = None
    send_key: str = "enter"
    last_chat_id: str | None = None  # the chat the first picture shows


def read_startup_prefs(path: Path) -> StartupPrefs:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return StartupPrefs()
    if not isinstance(raw, dict):
        return StartupPrefs()
    theme = raw.get("theme")
    geometry = raw.get("window_geometry")
    send_key = raw.get("send_key")
    last_chat = raw.get("last_chat_id")
    return StartupPrefs(
        theme=theme if theme in ("system", "light", "dark") else "system",
        window_geometry=geometry if isinstance(geometry, str) else None,
        send_key=send_key if send_key in ("enter", "ctrl-enter") else "enter",
        last_chat_id=last_chat if isinstance(last_chat, str) else None,
    )
