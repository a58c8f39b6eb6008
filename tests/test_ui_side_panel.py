"""The one right-hand side panel (issue 32): Goal, Facts, Checkpoint and Snapshots as its tabs,
hidden and shown; the window's minimum width with it open, the chat list's room, the overlay
in a narrow window."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDockWidget, QWidget

from tests.controller_harness import run, scripted_model
from tests.test_ui_main_window import LONG

TABS = ("goal", "facts", "checkpoint", "snapshots")


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=120)
    return ollama_server


def panel_of(app):
    panel = app.window.findChild(QWidget, "sidePanel")
    assert panel is not None
    return panel


def test_the_panels_are_tabs_of_one_side_panel_that_can_be_hidden(app):
    panel = panel_of(app)
    assert list(panel.pages) == list(TABS)
    for name in ("goalPanel", "factsPanel"):  # contract names kept, no longer docks
        dock = app.window.findChild(QDockWidget, name)
        assert dock is not None and panel.isAncestorOf(dock)
        assert app.window.dockWidgetArea(dock).name == "NoDockWidgetArea"
    assert not panel.isVisible()
    app.window.action_goal.trigger()
    assert panel.isVisible() and panel.current() == "goal" and app.window.goal_panel.isVisible()
    app.window.findChild(type(app.window.action_goal), "actionFacts").trigger()
    assert panel.current() == "facts"
    app.window.content.side_panel.action.trigger()  # hide it
    assert not panel.isVisible()


@pytest.mark.parametrize("tab", TABS)
def test_with_the_panel_open_the_window_fits_1024_and_the_list_keeps_200(app, tab):
    panel = panel_of(app)
    panel.show_tab(tab)
    hint = app.window.minimumSizeHint()
    assert hint.width() <= 1024, (tab, hint.width())
    app.window.resize(1366, 768)
    assert app.window.chat_panel.width() >= 200


def test_opening_a_checkpoint_shows_its_tab(app, server):
    async def until_compacted():
        for i in range(30):
            await app.type_and_send(f"Step {i}: {LONG}")
            if app.controller.session.engine.groups:
                break

    run(app.loop, until_compacted())
    group = app.controller.snapshot.groups[-1]
    app.window.conversation_view.groupActivated.emit(group.id)
    panel = panel_of(app)
    assert panel.isVisible() and panel.current() == "checkpoint"
    assert app.window.group_panel.isVisible()
    panel.tabs.setCurrentWidget(panel.pages["snapshots"])
    snapshots = app.window.content.side_panel.snapshots
    assert snapshots.isVisible() and snapshots.list.topLevelItemCount() >= 1


def test_below_a_width_the_panel_lies_over_the_conversation(app):
    panel = panel_of(app)
    panel.show_tab("goal")
    app.window.resize(1000, 700)
    centre = app.window.conversation_view.parentWidget()
    assert panel.parentWidget() is centre and panel.isVisible()
    assert panel.geometry().right() <= centre.width()
    app.window.resize(1366, 768)
    assert panel.parentWidget() is app.window.splitter and panel.isVisible()


def test_a_restored_window_state_keeps_the_panels_in_their_tabs(app):
    """QMainWindow.restoreState (run at every start) would dock them again: it is undone."""
    window = app.window
    window.action_goal.trigger()
    window.restoreState(window.saveState())
    panel = panel_of(app)
    for name in ("goalPanel", "factsPanel"):
        dock = window.findChild(QDockWidget, name)
        assert panel.isAncestorOf(dock), name
        assert window.dockWidgetArea(dock).name == "NoDockWidgetArea"
    assert list(panel.pages) == list(TABS)
    assert [panel.tabs.tabText(i) for i in range(panel.tabs.count())] == [
        "Goal", "Facts", "Checkpoint", "Snapshots"]
