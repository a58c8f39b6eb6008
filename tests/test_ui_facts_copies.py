"""The user's fact changes follow the chat into its copies (issue 22), through the real window
over the loopback fake Ollama: a branch (edit and resend), a fork, and a JSON export imported
again each show the added, edited, forgotten and pinned facts in the facts panel and send them
(or, forgotten, do not) in their next request."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt

from ollm_desktop.ui.side_panel.facts.panel import STATE, WHO, FactsPanel
from tests.controller_harness import run, settle, until
from tests.test_ui_facts import ADDED, ASK, app, item, ledger, newest, send, server, talked
from tests.test_ui_main_window import App

__all__ = ["app", "server"]  # the facts tests' fixtures: the same model, the same window


def change_facts(app: App) -> str:
    """Add, edit, forget and pin as the panel does; returns the pinned value."""
    c = app.controller
    view = c.facts_view()
    assert view is not None
    by_value = {f.value: f for f in view.facts}
    left_out = next(f for f in view.facts if not f.users and ".py" in f.value)  # suggested
    assert c.add_fact(ADDED) and c.edit_fact(by_value["02:30 UTC"].id, "03:15 UTC")
    assert c.forget_fact(by_value["180 ms per request"].id)
    assert c.set_fact_pinned(left_out.id, True)
    return left_out.value


def kept(app: App, panel: FactsPanel, server, pinned: str) -> None:
    """The panel lists the changes and the next request carries them."""
    assert item(panel, ADDED).text(WHO) == "Typed by you"
    assert "edited" in item(panel, "03:15 UTC").text(STATE)
    assert item(panel, "180 ms per request").text(STATE).startswith("forgotten")
    assert "pinned" in item(panel, pinned).text(STATE)
    send(app, "Carry on from here.")
    sent = ledger(server)
    assert f"- {ADDED}" in sent and "nightly export: 03:15 UTC" in sent and f"- {pinned}" in sent
    assert "180 ms" not in newest(server)


def test_a_branch_and_a_fork_keep_the_users_fact_changes(app, qloop, qtbot, server):
    panel = talked(app, qtbot)
    pinned = change_facts(app)
    root = app.controller.chat
    assert root is not None
    question = [m for m in app.controller.display_messages() if m.role == "user"][-1]
    assert app.controller.begin_edit(question.id) is not None  # edit and resend: a branch
    app.window.message_input.setPlainText("What about the last step, again?" + ASK)
    qtbot.mouseClick(app.window.send_button, Qt.MouseButton.LeftButton)

    async def replied() -> None:
        await until(lambda: app.controller._reply_task is not None or not app.controller.busy)
        task = app.controller._reply_task
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)
        await settle(app.controller)

    run(qloop, replied())
    branch = app.controller.chat
    assert branch is not None and branch.id != root.id and branch.is_branch
    assert "03:15 UTC" in ledger(server)  # the edited question's request already had it
    kept(app, panel, server, pinned)

    app.controller.open_chat(root.id)
    last = app.controller.display_messages()[-1]
    fork = app.controller.fork_chat(last.id)
    assert fork is not None and app.controller.chat is not None
    assert app.controller.chat.id == fork.id
    kept(app, panel, server, pinned)


def test_an_export_imported_again_keeps_the_users_fact_changes(app, qtbot, tmp_path, server):
    panel = talked(app, qtbot)
    pinned = change_facts(app)
    original = app.controller.chat
    assert original is not None
    path = tmp_path / "chat.json"
    app.controller.export_json(path)
    imported = app.controller.import_json(path)
    chat = app.controller.chat
    assert imported is not None and chat is not None
    assert chat.id == imported.id != original.id
    kept(app, panel, server, pinned)
