"""``ollm-desktop --mcp-config FILE`` (a contract): read before any window opens, its servers
offered to new chats for this run only, never saved, its secrets in no file; and the chat's
tool choice (new chats: none; "Always" for one chat only)."""

from __future__ import annotations

import json
from pathlib import Path

from ollm_desktop.backend.mcp_config import parse
from ollm_desktop.session.tool_loop import ChatTools
from tests.test_app_cli import _app, _env

SECRET = "ghp_do_not_save_me_123"
CONFIG = {"mcpServers": {"github": {"command": "/nonexistent/github-mcp",
                                    "env": {"GITHUB_TOKEN": SECRET}}}}


def test_a_bad_file_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    data = tmp_path / "data"
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = _app(_env(tmp_path), "--data-dir", str(data), "--mcp-config", str(bad))
    assert result.returncode == 2 and "--mcp-config" in result.stderr
    assert "not valid JSON" in result.stderr
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"mcpServers": {"x": {"args": []}}}))
    result = _app(_env(tmp_path), "--data-dir", str(data), "--mcp-config", str(empty))
    assert result.returncode == 2 and "no server could be read" in result.stderr
    assert not data.exists()


def test_the_file_lasts_one_run_and_its_secrets_reach_no_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps(CONFIG))
    result = _app(_env(tmp_path), "--self-test", "--data-dir", str(data),
                  "--mcp-config", str(config))
    assert result.returncode == 0, result.stderr
    settings = json.loads((data / "config" / "settings.json").read_text(encoding="utf-8"))
    assert settings["mcp_servers"] == []  # this run only
    for path in data.rglob("*"):
        if path.is_file() and path.suffix in (".json", ".log", ""):
            assert SECRET not in path.read_text(encoding="utf-8", errors="replace"), path


def test_new_chats_use_no_tools_and_a_runs_servers_are_offered(store) -> None:
    from ollm_desktop.session import ChatSession
    from ollm_desktop.session.settings import Settings

    session = ChatSession(store, Settings(), mcp_config=parse(json.dumps(CONFIG)))
    assert session.tools.new_chat_choice().servers == ["github"]
    first, second = store.create_chat("a"), store.create_chat("b")
    session.tools.set_choice(first.id, ChatTools(servers=["github"], always=["github/x"]))
    assert session.tools.choice(first.id).always == ["github/x"]
    assert session.tools.choice(second.id).always == []  # "Always" stays in its chat
    plain = ChatSession(store, Settings())
    assert plain.tools.new_chat_choice() == ChatTools()  # without the flag: none


def test_a_restart_and_a_failure_are_said_in_the_window(store) -> None:
    from ollm_desktop.session import ChatSession
    from ollm_desktop.session.settings import Settings

    session = ChatSession(store, Settings())
    said: list[object] = []
    session.publish = said.append
    session.tools._changed("git", "restarting", "The tool server git stopped and was started "
                                                "again.")
    session.tools._changed("git", "failed", "The tool server git stopped again.")
    session.tools._changed("git", "ready", "")
    assert said[0].notices == (
        "The tool server git stopped and was started again.",)
    assert [p.text for p in said[1].problems] == ["The tool server git stopped again."]
    assert len(said) == 2
