"""MCP servers from the configuration users already have: the ``mcpServers`` JSON of Claude
Desktop, Cursor, LM Studio (``mcp.json``) and oterm.

Every one of them is ``{"mcpServers": {name: {...}}}``:

- stdio: ``command``, ``args``, ``env``, ``cwd``;
- remote: ``url`` and ``headers``; Streamable HTTP, or SSE where the URL ends in ``/sse`` (as
  oterm decides) or the entry says ``"type": "sse"`` (Cursor, LM Studio);
- oterm writes ``${VAR}`` and ``${VAR:-default}`` in any string: expanded from the app's own
  environment when the server starts, never when it is saved.

A server as we keep it (:class:`McpServer`) is plain data for settings.json with no secret in
it: every value of ``env`` and ``headers`` goes to the keyring (``mcp_secrets``), except a value
that is only a ``${VAR}`` reference (no secret: a name). Bad entries are reported one by one
and the good ones kept.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Transport = Literal["stdio", "http", "sse"]
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
_REFERENCE_ONLY = re.compile(r"^\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}$")


class McpServer(BaseModel):
    """One MCP server. ``env`` and ``headers`` hold only ``${VAR}`` references; their other
    values are in the keyring under the server's name (``secret_env``/``secret_headers`` list
    which names are there)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    name: str = Field(min_length=1, max_length=80)
    transport: Transport = "stdio"
    command: str = ""
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    cwd: str | None = None
    url: str = ""
    headers: dict[str, str] = Field(default_factory=dict)
    secret_env: list[str] = Field(default_factory=list)
    secret_headers: list[str] = Field(default_factory=list)
    enabled: bool = True
    read_only: bool = False  # offer only the tools the server marks read-only
    source: str = ""  # the file it was imported from, shown in Preferences

    @property
    def where(self) -> str:
        """What the user recognises it by: its command line or its address."""
        if self.transport == "stdio":
            return " ".join([self.command, *self.args]).strip()
        return self.url


@dataclass(frozen=True, slots=True)
class Parsed:
    """The servers of one file, their secrets (name -> {"env": ..., "headers": ...}) and one
    line per entry that could not be read."""

    servers: list[McpServer]
    secrets: dict[str, dict[str, dict[str, str]]]
    problems: list[str]


def expand(text: str, environ: Mapping[str, str] | None = None) -> str:
    """oterm's ``${VAR}`` and ``${VAR:-default}`` (unset or empty: the default, else "")."""
    source = os.environ if environ is None else environ

    def value(match: re.Match[str]) -> str:
        found = source.get(match.group(1), "")
        return found if found else (match.group(2) or "")

    return _VARIABLE.sub(value, text)


def transport_of(entry: Mapping[str, Any]) -> Transport:
    kind = str(entry.get("type") or entry.get("transport") or "").lower()
    if "command" in entry and kind in ("", "stdio"):
        return "stdio"
    if kind == "sse":
        return "sse"
    url = str(entry.get("url") or entry.get("serverUrl") or "")
    return "sse" if url.split("?")[0].rstrip("/").endswith("/sse") else "http"


def _strings(value: Any, what: str, name: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"{name}: \"{what}\" must be an object of names and values")
    return {str(k): str(v) for k, v in value.items()}


def _split(values: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """(kept in settings: ``${VAR}`` references only, secret: every other value)."""
    kept = {k: v for k, v in values.items() if _REFERENCE_ONLY.match(v.strip())}
    return kept, {k: v for k, v in values.items() if k not in kept}


def server_of(name: str, entry: Any, source: str = "") -> tuple[McpServer, dict[str, Any]]:
    """One ``mcpServers`` entry; raises ``ValueError`` with a sentence for the user."""
    if not isinstance(entry, dict):
        raise ValueError(f"{name}: not an object")
    if not any(entry.get(key) for key in ("command", "url", "serverUrl")):
        raise ValueError(f"{name}: needs a \"command\" (a local server) or a \"url\" "
                         "(a remote one)")
    transport = transport_of(entry)
    env, secret_env = _split(_strings(entry.get("env"), "env", name))
    headers, secret_headers = _split(_strings(entry.get("headers"), "headers", name))
    args = entry.get("args") or []
    if not isinstance(args, list):
        raise ValueError(f"{name}: \"args\" must be a list")
    if transport == "stdio":
        command = str(entry.get("command") or "").strip()
        if not command:
            raise ValueError(f"{name}: no \"command\" to start")
        server = McpServer(name=name, transport="stdio", command=command,
                           args=[str(a) for a in args], env=env,
                           cwd=str(entry["cwd"]) if entry.get("cwd") else None,
                           secret_env=sorted(secret_env), source=source,
                           enabled=not entry.get("disabled", False))
    else:
        url = str(entry.get("url") or entry.get("serverUrl") or "").strip()
        if not re.match(r"^(https?://|\$\{)", url):
            raise ValueError(f"{name}: \"url\" must start with http:// or https://")
        server = McpServer(name=name, transport=transport, url=url, headers=headers,
                           secret_headers=sorted(secret_headers), source=source,
                           enabled=not entry.get("disabled", False))
    return server, {"env": secret_env, "headers": secret_headers}


def parse(text: str, source: str = "") -> Parsed:
    """An ``mcpServers`` file's servers; a file that is not one raises ``ValueError``."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{source or 'The file'} is not valid JSON: {exc}") from exc
    entries = data.get("mcpServers") if isinstance(data, dict) else None
    if not isinstance(entries, dict):
        raise ValueError(f"{source or 'The file'} has no \"mcpServers\" object.")
    servers, secrets, problems = [], {}, []
    for name, entry in entries.items():
        try:
            server, secret = server_of(str(name).strip() or "server", entry, source)
        except ValueError as exc:
            problems.append(str(exc))
            continue
        servers.append(server)
        if secret["env"] or secret["headers"]:
            secrets[server.name] = secret
    return Parsed(servers, secrets, problems)


def load(path: Path) -> Parsed:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"{path} could not be read: {exc.strerror or exc}") from exc
    return parse(text, str(path))


# ------------------------------------------------------------------ import
def known_files(home: Path | None = None, environ: Mapping[str, str] | None = None,
                platform: str | None = None) -> list[tuple[str, Path]]:
    """(app, file) where Claude Desktop, Cursor, LM Studio and oterm keep their servers on
    this system, existing or not (the caller offers those that exist)."""
    home = home or Path.home()
    env = os.environ if environ is None else environ
    platform = platform or sys.platform
    if platform == "win32":
        roaming = Path(env.get("APPDATA") or home / "AppData" / "Roaming")
        claude, oterm = roaming / "Claude", roaming / "oterm"
    elif platform == "darwin":
        support = home / "Library" / "Application Support"
        claude, oterm = support / "Claude", support / "oterm"
    else:  # Linux and the BSDs: Claude Desktop has no official build; community builds use
        config = Path(env.get("XDG_CONFIG_HOME") or home / ".config")  # ~/.config/Claude
        data = Path(env.get("XDG_DATA_HOME") or home / ".local" / "share")
        claude, oterm = config / "Claude", data / "oterm"
    if env.get("OTERM_DATA_DIR"):
        oterm = Path(env["OTERM_DATA_DIR"])
    return [("Claude Desktop", claude / "claude_desktop_config.json"),
            ("Cursor", home / ".cursor" / "mcp.json"),
            ("LM Studio", home / ".lmstudio" / "mcp.json"),
            ("oterm", oterm / "config.json")]


def found_files(home: Path | None = None, environ: Mapping[str, str] | None = None,
                platform: str | None = None) -> list[tuple[str, Path]]:
    """The known files that exist and name at least one server."""
    found = []
    for app, path in known_files(home, environ, platform):
        try:
            if path.is_file() and load(path).servers:
                found.append((app, path))
        except ValueError:
            continue
    return found
