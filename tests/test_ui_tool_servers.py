"""Preferences ▸ Tools (``toolServersEditor``): the server list, a stdio and a Streamable HTTP
server edited in the form, an import from a Claude Desktop file whose secrets never reach the
settings, and the test button listing a real (loopback) server's tools in a task while the
window keeps running."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QListWidget, QPushButton

from ollm_desktop.backend.mcp_config import McpServer
from ollm_desktop.controller import Settings
from ollm_desktop.ui.preferences.dialog import PreferencesDialog
from tests.ollama_server import FakeModel, FakeOllama

ROOT = Path(__file__).resolve().parents[1]
TOOLS = McpServer(name="project", command=sys.executable,
                  args=["-m", "tests.mcp_server", "stdio"], cwd=str(ROOT),
                  env={"PYTHONPATH": str(ROOT)})


@pytest.fixture
def server():
    with FakeOllama([FakeModel("llama3.2:3b", capabilities=("completion", "tools"))]).running() \
            as fake:
        yield fake


def test_servers_are_listed_edited_imported_and_tested(qloop, qtbot, tmp_path, controller,
                                                       screenshot_dir) -> None:
    settings = Settings(context_size=8192, mcp_servers=[TOOLS, McpServer(
        name="docs", transport="http", url="http://127.0.0.1:8000/mcp", read_only=True,
        secret_headers=["Authorization"])])
    dialog = PreferencesDialog(settings, ["llama3.2:3b"], None,
                               tool_tester=controller.test_tool_server)
    qtbot.addWidget(dialog)
    dialog.pages.show_page("tools")
    box = dialog.tool_servers_box
    listed = box.findChild(QListWidget, "toolServerList")
    assert listed.count() == 2 and listed.item(1).text().startswith("docs")
    box.list.setCurrentRow(1)  # the remote one: its address, its header kept in the keyring
    assert box.url_edit.text() == "http://127.0.0.1:8000/mcp"
    assert "Authorization: (kept in the keyring)" in box.headers_edit.toPlainText()
    assert not box.command_edit.isVisibleTo(dialog) and box.url_edit.isVisibleTo(dialog)
    # Import a Claude Desktop file: its key is typed for the keyring, never in the settings.
    claude = tmp_path / "claude_desktop_config.json"
    claude.write_text(json.dumps({"mcpServers": {
        "project": {"command": "npx", "args": ["-y", "server-fs", "/srv"],
                    "env": {"API_TOKEN": "s3cret-token", "HOME_DIR": "${HOME}"}}}}))
    assert box.import_file(claude) == 1
    assert listed.count() == 3 and box.servers()[2].name == "project (2)"  # a name taken
    assert box.args_edit.text() == "-y server-fs /srv"
    shown = box.env_edit.toPlainText()  # the secret is never displayed, the reference is
    assert "s3cret-token" not in shown and "API_TOKEN=(to the keyring on OK)" in shown
    assert "HOME_DIR=${HOME}" in shown
    dialog.grab().save(str(screenshot_dir / "preferences-tool-servers.png"))
    assert dialog.validate(), dialog.errors
    saved = dialog.result_settings()
    assert "s3cret-token" not in saved.model_dump_json()
    assert saved.mcp_servers[2].env == {"HOME_DIR": "${HOME}"}
    assert saved.mcp_servers[2].secret_env == ["API_TOKEN"]
    typed, _kept = dialog.tool_servers_box.secrets()["project (2)"]
    assert typed["env"] == {"API_TOKEN": "s3cret-token"}
    # A stdio server without a command is refused with a sentence.
    box.list.setCurrentRow(2)
    box.command_edit.setText("")
    box.command_edit.textEdited.emit("")
    assert not dialog.validate() and any("give the command" in e for e in dialog.errors)
    # The test button: the loopback server started in a task, its tools listed.
    box.list.setCurrentRow(0)
    box.findChild(QPushButton, "testToolServerButton").click()
    assert "Starting project" in box.result.text()

    async def tested() -> None:
        import asyncio
        for _ in range(2000):
            if "offers" in box.result.text() or "did not start" in box.result.text():
                return
            await asyncio.sleep(0.02)

    qloop.run_until_complete(tested())
    assert "offers 11 tool(s)" in box.result.text(), box.result.text()
    assert "read_file (read-only)" in box.result.text()
