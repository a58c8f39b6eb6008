"""Where an MCP server's secrets live, and the server as it is started.

The values of a server's ``env`` and ``headers`` (API keys, tokens) go to the system keyring
under one entry per server, as connections' API keys do (``backend.connection``), never to
settings.json and never to a log. A server from ``--mcp-config`` keeps them in memory for the
run only. When the server starts, the kept references and the secrets are put together and
oterm's ``${VAR}`` / ``${VAR:-default}`` expanded (:func:`launch_of`).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from ollm_desktop.backend.connection import KEYRING_SERVICE, NO_KEYRING, KeyringMissing, _keyring
from ollm_desktop.backend.mcp_config import McpServer, Transport, expand

Secrets = dict[str, dict[str, str]]  # {"env": {...}, "headers": {...}}


def _account(name: str) -> str:
    return f"mcp-server:{name}"


def store_secrets(name: str, secrets: Secrets | None) -> None:
    """Keep a server's secret values (None or empty: forget them)."""
    keyring = _keyring()
    try:
        if secrets and (secrets.get("env") or secrets.get("headers")):
            keyring.set_password(KEYRING_SERVICE, _account(name), json.dumps(secrets))
        else:
            with contextlib.suppress(keyring.errors.PasswordDeleteError):
                keyring.delete_password(KEYRING_SERVICE, _account(name))
    except keyring.errors.KeyringError as exc:
        raise KeyringMissing(NO_KEYRING) from exc


def read_secrets(name: str) -> Secrets:
    keyring = _keyring()
    try:
        text = keyring.get_password(KEYRING_SERVICE, _account(name))
    except keyring.errors.KeyringError as exc:
        raise KeyringMissing(NO_KEYRING) from exc
    try:
        value = json.loads(text) if text else {}
    except ValueError:
        return {}
    if not value or not isinstance(value, dict):
        return {}
    return {part: {str(k): str(v) for k, v in (value.get(part) or {}).items()}
            for part in ("env", "headers")}


@dataclass(frozen=True, slots=True)
class Launch:
    """A server ready to start or connect to: every value final (never logged: ``repr``
    leaves out the environment and the headers)."""

    name: str
    transport: Transport
    command: str = ""
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict, repr=False)
    cwd: str | None = None
    url: str = ""
    headers: dict[str, str] = field(default_factory=dict, repr=False)


def launch_of(server: McpServer, secrets: Secrets | None = None,
              environ: Mapping[str, str] | None = None) -> Launch:
    """The server with its secrets and every ``${VAR}`` filled in from ``environ`` (the
    app's environment: only the names the configuration mentions reach the child)."""
    source = os.environ if environ is None else environ
    secrets = secrets or {}

    def filled(values: Mapping[str, str]) -> dict[str, str]:
        return {k: expand(v, source) for k, v in values.items()}

    return Launch(
        name=server.name, transport=server.transport, command=expand(server.command, source),
        args=tuple(expand(a, source) for a in server.args),
        env=filled({**server.env, **secrets.get("env", {})}),
        cwd=expand(server.cwd, source) if server.cwd else None,
        url=expand(server.url, source),
        headers=filled({**server.headers, **secrets.get("headers", {})}))
