"""User preferences in a small JSON file; a damaged file is backed up, never fatal.

The limits of the settings the engine uses are the engine's own (``EngineConfig``'s field
types): one source of truth, so a value saved here is always one the engine accepts.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ollm_desktop.backend import Connection
from ollm_desktop.backend.mcp_config import McpServer
from ollm_desktop.engine import (
    CompactionTimeout,
    ContextSize,
    KeepRecentTurns,
    PreserveRecentTokens,
    SummaryTimeout,
    TriggerRatio,
)
from ollm_desktop.storage.models import StartupNotice

SETTINGS_VERSION = 2
LEGACY_PRESERVE_DEFAULT = 2048  # forced at every context size before version 2


def _upgrade(raw: dict[str, Any]) -> dict[str, Any]:
    """Version 1 wrote every default into the file, so its 2048 is not a choice: automatic."""
    version = raw.get("settings_version")
    if not isinstance(version, int) or version < 2:
        if raw.get("preserve_recent_tokens") == LEGACY_PRESERVE_DEFAULT:
            raw = {**raw, "preserve_recent_tokens": 0}
        raw = {**raw, "settings_version": SETTINGS_VERSION}
    return raw


class Settings(BaseModel):
    model_config = ConfigDict(extra="ignore", validate_assignment=True)

    ollama_host: str | None = None  # the "Local Ollama" connection's address
    # Other servers (llama.cpp's server, LM Studio, vLLM, ...): no API key is ever in here, only
    # whether the keyring holds one. ``default_connection``: new chats' (None: Local Ollama).
    connections: list[Connection] = Field(default_factory=list)
    default_connection: str | None = None
    default_model: str | None = None
    context_size: ContextSize = 8192
    trigger_ratio: TriggerRatio = 0.80
    # Recent tokens kept verbatim; 0 = automatic (the engine scales it with the context size).
    preserve_recent_tokens: PreserveRecentTokens = 0
    # "Keep the last N turns verbatim"; 0 = automatic.
    keep_recent_turns: KeepRecentTurns = 0
    preserve_user_messages: bool = True
    # Time limits of one summarizer call and of one whole compaction run (seconds): generous
    # enough for an 8B model on a slow CPU, short enough that a hung model is given up.
    summary_timeout_s: SummaryTimeout = 180.0
    compaction_timeout_s: CompactionTimeout = 480.0
    summarization_model: str | None = None  # None: the chat's own model
    # Recall (issue 23): new chats' switch, and the model that embeds rounds for meaning
    # search (None: words only).
    recall_new_chats: bool = True
    embedding_model: str | None = None
    # A chat's context may exceed what the model was trained for only when the user says so
    # (Preferences); otherwise it is lowered to the model's trained length when that is known.
    allow_beyond_trained: bool = False
    keep_alive: str = "10m"
    snapshot_retention: int = Field(20, ge=1, le=1000)
    theme: Literal["system", "light", "dark"] = "system"
    # Which key sends a message: "enter" (Shift+Enter is a new line) as in most chat apps, or
    # "ctrl-enter" (Enter is a new line). Ctrl+Enter sends with either.
    send_key: Literal["enter", "ctrl-enter"] = "enter"
    start_ollama: Literal["ask", "always", "never"] = "ask"
    request_timeout: float = Field(10.0, ge=1.0, le=600.0)
    system_prompt: str = ""
    window_geometry: str | None = None  # base64 QByteArray
    window_state: str | None = None
    splitter_state: str | None = None
    last_chat_id: str | None = None
    # MCP servers (Preferences): no secret in here, their env and header values are in the
    # keyring (``backend.mcp_secrets``); ``--mcp-config`` servers are never added.
    mcp_servers: list[McpServer] = Field(default_factory=list)
    # 2: preserve_recent_tokens 0 means automatic (version 1 saved its old default, 2048).
    settings_version: int = SETTINGS_VERSION


def _backup(path: Path) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.{stamp}.bak")
    os.replace(path, target)
    return target


def load_settings(path: Path) -> tuple[Settings, list[StartupNotice]]:
    """Defaults when missing; a corrupt or invalid file is set aside with a notice."""
    if not path.exists():
        return Settings(), []
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(raw, dict):
            raise ValueError("settings file is not a JSON object")
        settings = Settings.model_validate(_upgrade(raw))
    except (OSError, UnicodeDecodeError, ValueError, ValidationError) as exc:
        try:
            backup = str(_backup(path))
        except OSError:
            backup = None
        reason = exc.errors()[0]["msg"] if isinstance(exc, ValidationError) else str(exc)
        return Settings(), [
            StartupNotice(
                text=f"Your settings file could not be read ({reason}); defaults are in use.",
                backup_path=backup,
            )
        ]
    unknown = sorted(set(raw) - set(Settings.model_fields))
    notices = []
    if unknown:
        notices.append(
            StartupNotice(level="info", text=f"Ignored unknown settings: {', '.join(unknown)}.")
        )
    return settings, notices


def save_settings(path: Path, settings: Settings) -> None:
    """Atomic: a crash mid-write leaves the old file, never half of a new one."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(prefix=".settings-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(settings.model_dump_json(indent=2))
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
