"""The documentation's picture of the facts panel (``docs/screenshots/facts-panel.png``): the
real window over the loopback fake Ollama, fed the memory benchmark's seeded coding
conversation (tests/realistic_chat.py) and one correction by the user; the user pins a fact,
forgets one and types one in the panel. The test checks what the picture must show."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction

from ollm_desktop.ui.side_panel.facts.panel import STATE, VALUE, WHO
from tests.controller_harness import run
from tests.test_ui_docs_screenshots import chat, server
from tests.test_ui_facts import item, open_panel, select, type_fact
from tests.test_ui_main_window import App, save_shot

__all__ = ["chat", "server"]  # the other screenshots' realistic conversation

CORRECTION = "Correction: the latency requirement is now 650 ms, not 722 ms."
TYPED = "Release notes go to docs/releases/2.4.md"


def test_screenshot_the_facts_panel(qloop, qtbot, tmp_path, server, chat, screenshot_dir):
    app = App(qloop, qtbot, tmp_path / "data", server, context_size=4096)
    try:
        run(qloop, app.say([*(turn.user for turn in chat.turns[:40]), CORRECTION]))
        app.window.resize(1480, 860)
        app.window.findChild(QAction, "actionGoal").trigger()  # the Facts tab beside it
        panel = open_panel(app, qtbot)
        app.window.resizeDocks([panel], [600], Qt.Orientation.Horizontal)
        select(panel, "RES-5021")  # the user pins a ticket they will need
        qtbot.mouseClick(panel.pin_button, Qt.MouseButton.LeftButton)
        panel.suggested.setChecked(True)  # the assistant's suggestions, behind their filter
        select(panel, "https://beacon-439.corp.example.net/shard-maps")  # and forgets a link
        qtbot.mouseClick(panel.forget_button, Qt.MouseButton.LeftButton)
        assert item(panel, "https://beacon-439.corp.example.net/shard-maps").text(
            STATE) == "forgotten"
        panel.suggested.setChecked(False)
        qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
        type_fact(panel, qtbot, TYPED)
        replaced = item(panel, "722 ms")
        assert replaced.text(STATE).startswith("replaced by 650 ms (turn ")
        assert replaced.text(WHO) == "You"
        assert select(panel, "650 ms").text(STATE) == "sent with every message"
        assert "pinned" in item(panel, "RES-5021").text(STATE)
        assert item(panel, TYPED).text(WHO) == "Typed by you"
        whos = [item.text(WHO) for item in panel.list.findItems(
            "", Qt.MatchFlag.MatchContains, VALUE)]
        assert {"You", "Typed by you"} <= set(whos)
        assert "Assistant" not in whos  # by default: what the user would write down
        panel.list.expandAll()  # each key's history beneath its current value
        app.window.content.undo_bar.finish()  # the picture shows the panel, not the offer
        save_shot(screenshot_dir, app.window, "facts-panel.png")
    finally:
        app.close()
