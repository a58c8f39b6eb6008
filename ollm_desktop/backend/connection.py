"""A connection (name, URL, kind, optional API key) and where its key is kept.

Connections are plain data saved in the Preferences' settings.json; the API key never is: it
lives in the system keyring (``keyring``) under the connection's id, or, where no keyring
exists (a headless session), comes from ``--api-key-env NAME`` for one run.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ollm_desktop.backend.protocol import ServerKind

KEYRING_SERVICE = "ollm-desktop"
LOCAL_OLLAMA_ID = "local-ollama"
LOCAL_OLLAMA_NAME = "Local Ollama"
NO_KEYRING = ("No system keyring is available here (a headless session?), so API keys cannot "
              "be stored. Start the app with --api-key-env NAME to take the key from the "
              "environment variable NAME for this run.")


class Connection(BaseModel):
    """One server the user talks to. ``kind`` None: not probed yet (found on first use)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    id: str = Field(min_length=1, max_length=80)
    name: str = Field(min_length=1, max_length=80)
    url: str = ""  # empty: Ollama's default address ($OLLAMA_HOST, then 127.0.0.1:11434)
    kind: ServerKind | None = None
    has_key: bool = False  # a key for it is in the keyring (the key itself never is here)
    ca_file: str | None = None  # a private certificate authority's file, for HTTPS
    window: int | None = Field(None, ge=256, le=4_194_304)  # generic servers: user-entered

    @field_validator("name", "url")
    @classmethod
    def _strip(cls, value: str) -> str:
        return value.strip()

    @field_validator("ca_file")
    @classmethod
    def _blank_is_none(cls, value: str | None) -> str | None:
        return value.strip() or None if value else None


def local_ollama(host: str | None) -> Connection:
    """Today's host setting as the connection every existing chat belongs to. A base URL
    ending in ``/v1`` there is an OpenAI-compatible server: its kind is found by asking."""
    url = (host or "").strip()
    openai_style = url.rstrip("/").endswith("/v1")
    return Connection(id=LOCAL_OLLAMA_ID, name=LOCAL_OLLAMA_NAME, url=url,
                      kind=None if openai_style else "ollama")


def command_line(url: str) -> Connection:
    """``--host URL`` for this run: never saved; its id is stable for the same URL, so what is
    learned about the server (calibration) is found again next time."""
    digest = hashlib.sha256(url.strip().encode()).hexdigest()[:12]
    return Connection(id=f"host-{digest}", name=url.strip(), url=url.strip(), kind=None)


def new_id(name: str, taken: set[str]) -> str:
    """A readable, unique id for a new connection ("lab-vllm", "lab-vllm-2")."""
    base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "server"
    candidate, n = base, 2
    while candidate in taken or candidate == LOCAL_OLLAMA_ID:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


class KeyringMissing(Exception):
    """No usable keyring: the message says what to do instead."""


def _keyring() -> Any:
    """The keyring module, imported on first use (it loads backends and D-Bus bindings)."""
    try:
        import keyring
    except ImportError as exc:  # pragma: no cover - a dependency; a broken install only
        raise KeyringMissing(NO_KEYRING) from exc
    return keyring


def read_key(connection_id: str) -> str | None:
    """The connection's key from the keyring (None: none stored)."""
    keyring = _keyring()
    try:
        return keyring.get_password(KEYRING_SERVICE, connection_id) or None
    except keyring.errors.KeyringError as exc:
        raise KeyringMissing(NO_KEYRING) from exc


def store_key(connection_id: str, key: str | None) -> None:
    """Keep ``key`` for the connection (None or blank: forget it)."""
    keyring = _keyring()
    try:
        if key and key.strip():
            keyring.set_password(KEYRING_SERVICE, connection_id, key.strip())
        else:
            with contextlib.suppress(keyring.errors.PasswordDeleteError):
                keyring.delete_password(KEYRING_SERVICE, connection_id)
    except keyring.errors.KeyringError as exc:
        raise KeyringMissing(NO_KEYRING) from exc
