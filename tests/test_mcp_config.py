"""MCP servers from the files of Claude Desktop, Cursor, LM Studio and oterm: transports,
oterm's variables, where each app keeps its file, and secrets that never reach settings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ollm_desktop.backend import mcp_secrets
from ollm_desktop.backend.mcp_config import expand, found_files, known_files, load, parse
from ollm_desktop.backend.mcp_secrets import launch_of

CLAUDE = {"mcpServers": {
    "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem",
                                              "/home/me/projects"]},
    "github": {"command": "docker", "args": ["run", "-i", "ghcr.io/github/github-mcp-server"],
               "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_secret123"}},
}}
CURSOR = {"mcpServers": {
    "remote": {"url": "https://mcp.example.com/mcp",
               "headers": {"Authorization": "Bearer sk-live-abc"}},
    "events": {"url": "http://127.0.0.1:8931/sse"},
    "typed": {"type": "sse", "url": "http://127.0.0.1:9000/stream"},
    "broken": {"args": ["x"]},
    "off": {"command": "uvx", "args": ["mcp-server-time"], "disabled": True},
}}
OTERM = {"theme": "textual-dark", "mcpServers": {
    "git": {"command": "${HOME}/bin/git-mcp", "args": ["--repo", "${REPO:-/srv/repo}"],
            "env": {"TOKEN": "${GIT_TOKEN}", "MODE": "fast"}, "cwd": "${HOME}/work"},
}}


def test_transports_and_problems() -> None:
    parsed = parse(json.dumps(CURSOR), "mcp.json")
    by_name = {s.name: s for s in parsed.servers}
    assert by_name["remote"].transport == "http"
    assert by_name["events"].transport == "sse"  # the URL ends in /sse (oterm's rule)
    assert by_name["typed"].transport == "sse"  # Cursor's "type"
    assert by_name["off"].enabled is False and by_name["off"].transport == "stdio"
    assert parsed.problems == ['broken: needs a "command" (a local server) or a "url" (a '
                               'remote one)']
    with pytest.raises(ValueError, match="mcpServers"):
        parse(json.dumps({"servers": {}}), "settings.json")
    with pytest.raises(ValueError, match="not valid JSON"):
        parse("{oops", "x.json")


def test_secrets_never_stay_in_the_server_only_references_do() -> None:
    parsed = parse(json.dumps(CLAUDE) , "claude")
    github = next(s for s in parsed.servers if s.name == "github")
    dumped = github.model_dump_json()
    assert "ghp_secret123" not in dumped and github.secret_env == [
        "GITHUB_PERSONAL_ACCESS_TOKEN"]
    assert parsed.secrets["github"]["env"] == {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_secret123"}
    remote = next(s for s in parse(json.dumps(CURSOR)).servers if s.name == "remote")
    assert "sk-live-abc" not in remote.model_dump_json()
    git = parse(json.dumps(OTERM)).servers[0]
    assert git.env == {"TOKEN": "${GIT_TOKEN}"}  # a reference is a name, not a secret
    assert git.secret_env == ["MODE"]


def test_otermvariables_expand_at_start_with_defaults() -> None:
    assert expand("${A}-${B:-two}-${C:-}", {"A": "one"}) == "one-two-"
    assert expand("${A:-x}", {"A": ""}) == "x"
    parsed = parse(json.dumps(OTERM))
    launch = launch_of(parsed.servers[0], parsed.secrets["git"],
                       {"HOME": "/home/me", "GIT_TOKEN": "t0k"})
    assert (launch.command, launch.args, launch.cwd) == (
        "/home/me/bin/git-mcp", ("--repo", "/srv/repo"), "/home/me/work")
    assert launch.env == {"TOKEN": "t0k", "MODE": "fast"}
    assert "t0k" not in repr(launch) and "fast" not in repr(launch)


@pytest.mark.parametrize(("platform", "claude"), [
    ("linux", ".config/Claude/claude_desktop_config.json"),
    ("darwin", "Library/Application Support/Claude/claude_desktop_config.json"),
    ("win32", "AppData/Roaming/Claude/claude_desktop_config.json"),
])
def test_where_each_app_keeps_its_file(tmp_path: Path, platform: str, claude: str) -> None:
    files = dict(known_files(tmp_path, {}, platform))
    assert files["Claude Desktop"] == tmp_path / claude
    assert files["Cursor"] == tmp_path / ".cursor" / "mcp.json"
    assert files["LM Studio"] == tmp_path / ".lmstudio" / "mcp.json"
    oterm = {"linux": ".local/share/oterm", "darwin": "Library/Application Support/oterm",
             "win32": "AppData/Roaming/oterm"}[platform]
    assert files["oterm"] == tmp_path / oterm / "config.json"


def test_found_files_are_those_with_servers(tmp_path: Path) -> None:
    (tmp_path / ".cursor").mkdir()
    (tmp_path / ".cursor" / "mcp.json").write_text(json.dumps(CURSOR))
    (tmp_path / ".lmstudio").mkdir()
    (tmp_path / ".lmstudio" / "mcp.json").write_text(json.dumps({"mcpServers": {}}))
    oterm = tmp_path / "oterm-data"
    oterm.mkdir()
    (oterm / "config.json").write_text(json.dumps(OTERM))
    found = found_files(tmp_path, {"OTERM_DATA_DIR": str(oterm)}, "linux")
    assert [app for app, _ in found] == ["Cursor", "oterm"]
    assert load(found[0][1]).servers[0].source.endswith("mcp.json")


class MemoryKeyring:
    """A stand-in keyring backend for the test (the real one may be absent here)."""

    def __init__(self) -> None:
        self.values: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, user: str) -> str | None:
        return self.values.get((service, user))

    def set_password(self, service: str, user: str, value: str) -> None:
        self.values[(service, user)] = value

    def delete_password(self, service: str, user: str) -> None:
        self.values.pop((service, user), None)


def test_secrets_go_to_the_keyring_and_come_back(monkeypatch: pytest.MonkeyPatch) -> None:
    import keyring

    memory = MemoryKeyring()
    monkeypatch.setattr(keyring, "get_password", memory.get_password)
    monkeypatch.setattr(keyring, "set_password", memory.set_password)
    monkeypatch.setattr(keyring, "delete_password", memory.delete_password)
    parsed = parse(json.dumps(CLAUDE))
    mcp_secrets.store_secrets("github", parsed.secrets["github"])
    assert mcp_secrets.read_secrets("github")["env"] == {
        "GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_secret123"}
    mcp_secrets.store_secrets("github", None)
    assert mcp_secrets.read_secrets("github") == {}
