"""The facts panel through the real window (issue 22), over the loopback fake Ollama: an add,
an edit, a forget and a pin made in the panel each reach the next request on the wire, each
is undone from the window's undo bar (and the undo reaches the wire too), and all of them
survive a restart; an entry jumps to its message; pins that alone exceed the ledger's budget
are named."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFrame,
    QLabel,
    QPushButton,
    QTreeWidgetItem,
    QWidget,
)

from ollm_desktop.engine.facts import HEADER
from ollm_desktop.engine.tokens import truncate_to_tokens
from ollm_desktop.ui.side_panel.facts.panel import STATE, VALUE, WHO, FactsPanel
from tests.controller_harness import Reply, chat_turns, is_summary_request, run, settle, until
from tests.engine_fakes import prompt_target
from tests.test_ui_main_window import App

# A small window whose user messages are not quoted word for word: facts live in the ledger.
SETTINGS = {"context_size": 2048, "preserve_recent_tokens": 0, "keep_recent_turns": 2,
            "preserve_user_messages": False}
SAID = ["The gateway listens on port 7443.", "Set LOG_LEVEL=debug for the worker.",
        "The nightly export runs at 02:30 UTC.", "The budget is 180 ms per request.",
        "Correction: the gateway moved to port 9443."]
ASK = " How should the service handle that, and what should we check first?"
TALK = (" The logs look clean after the restart and the tests cover the edge cases, so the "
        "remaining work is mostly review and a short note for the team.")
ADDED = "The deploy key lives in vault/kv/deploy-7"


def model() -> Any:
    """Replies that name the assistant's own identifiers (ranked below the user's facts, so
    the oldest are left out of a full ledger); summaries without any of them."""
    count = {"n": 0}

    def answer(body: dict[str, Any]) -> str:
        count["n"] += 1
        n = count["n"]
        if is_summary_request(body):
            target = prompt_target(body["messages"])
            return truncate_to_tokens("## Context\nTuning the service.\n## Key Information\n"
                                      "- The team reviews the changes next." + TALK * 4,
                                      max(16, target // 3))
        return (f"Look at src/pkg/mod_{n}_a.py and src/pkg/mod_{n}_b.py; `handler_{n}()` is "
                f"the entry point.{TALK * 3}")

    return answer


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = model()
    return ollama_server


@pytest.fixture
def app(qloop, qtbot, tmp_path, server) -> Iterator[App]:
    """The real window in the small SETTINGS window; closed afterwards."""
    window = App(qloop, qtbot, tmp_path / "data", server, **SETTINGS)
    yield window
    window.close()


async def talk(app: App, turns: int = 18) -> None:
    for i in range(turns):
        await app.type_and_send((SAID[i] if i < len(SAID) else f"What about step {i}?") + ASK)


def talked(app: App, qtbot, turns: int = 18) -> FactsPanel:
    """The facts panel, opened after ``turns`` turns of talk."""
    run(app.loop, talk(app, turns))
    return open_panel(app, qtbot)


def newest(server) -> str:
    return "\n".join(m["content"] for m in chat_turns(server)[-1]["messages"])


def ledger(server) -> str:
    """The facts ledger of the newest chat request (the end of its system message)."""
    system = chat_turns(server)[-1]["messages"][0]["content"]
    assert HEADER in system
    return system[system.index(HEADER):]


def send(app: App, text: str = "And the next step?") -> None:
    run(app.loop, app.type_and_send(text + ASK))


def open_panel(app: App, qtbot) -> FactsPanel:
    panel = app.find(QDockWidget, "factsPanel")
    assert isinstance(panel, FactsPanel) and not panel.isVisible()
    app.window.findChild(QAction, "actionFacts").trigger()
    qtbot.waitUntil(panel.isVisible)
    return panel


def item(panel: FactsPanel, value: str) -> QTreeWidgetItem:
    """The row of ``value``: a key's current value, or one of its history beneath it."""
    found = [i for i in panel.all_items()
             if i.text(VALUE) == value or i.text(VALUE).startswith(value + " (")]
    assert len(found) == 1, f"{value} among {found}"
    return found[0]


def select(panel: FactsPanel, value: str) -> QTreeWidgetItem:
    chosen = item(panel, value)
    panel.list.setCurrentItem(chosen)
    return chosen


def type_fact(panel: FactsPanel, qtbot, text: str) -> None:
    """Type into the panel's line (opened by Add… or Edit…) and press Enter."""
    assert panel.editor_row.isVisible()
    panel.editor.clear()
    qtbot.keyClicks(panel.editor, text)
    qtbot.keyClick(panel.editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not panel.editor_row.isVisible())


def undo(app: App, qtbot, said: str) -> None:
    bar = app.find(QFrame, "undoBar")
    assert bar.isVisible() and said in app.find(QLabel, "undoText").text()
    qtbot.mouseClick(app.find(QPushButton, "undoButton"), Qt.MouseButton.LeftButton)
    assert not bar.isVisible()


def left_out_identifier(panel: FactsPanel) -> str:
    """An assistant's identifier, not sent until the user adopts it (issue 28): listed only
    with the "Suggested by the assistant" filter, which is off by default."""
    def suggested() -> list[QTreeWidgetItem]:
        return [row for row in panel.all_items() if row.text(STATE).startswith("suggested")
                and ".py" in row.text(VALUE)]

    assert not panel.suggested.isChecked() and not suggested()
    panel.suggested.setChecked(True)
    for row in suggested():
        return row.text(VALUE).split(" (")[0]
    raise AssertionError("no suggested entry")


# ----------------------------------------------------------------------------- the tests
def test_add_edit_forget_and_pin_each_reach_the_request_and_undo_takes_them_back(
        app, qtbot, server):
    panel = talked(app, qtbot)
    assert item(panel, "9443").text(WHO) == "You"
    assert "replaced by 9443" in item(panel, "7443").text(STATE)
    assert "7443" not in ledger(server).replace("(replaced 7443)", "")

    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)  # add
    type_fact(panel, qtbot, ADDED)
    assert item(panel, ADDED).text(WHO) == "Typed by you"
    assert panel.selected_id() == item(panel, ADDED).data(VALUE, Qt.ItemDataRole.UserRole)
    send(app)
    assert f"- {ADDED}" in ledger(server)
    undo(app, qtbot, "Fact added")
    assert not [r for r in range(panel.list.topLevelItemCount())
                if panel.list.topLevelItem(r).text(VALUE) == ADDED]  # type: ignore[union-attr]
    send(app)
    assert ADDED not in newest(server)

    select(panel, "02:30 UTC")  # edit
    qtbot.mouseClick(panel.edit_button, Qt.MouseButton.LeftButton)
    assert panel.editor.text() == "02:30 UTC"
    type_fact(panel, qtbot, "03:15 UTC")
    assert "edited" in item(panel, "03:15 UTC").text(STATE)
    send(app)
    assert "nightly export: 03:15 UTC" in ledger(server)
    undo(app, qtbot, "Fact changed")
    send(app)
    assert "03:15" not in newest(server) and "nightly export: 02:30 UTC" in ledger(server)

    select(panel, "180 ms per request")  # forget
    qtbot.mouseClick(panel.forget_button, Qt.MouseButton.LeftButton)
    assert item(panel, "180 ms per request").text(STATE).startswith("forgotten")
    assert not panel.forget_button.isEnabled()
    send(app)
    assert "180 ms" not in newest(server)
    undo(app, qtbot, "Fact forgotten")
    send(app)
    assert "budget: 180 ms per request" in ledger(server)

    left_out = left_out_identifier(panel)  # pin
    assert left_out not in newest(server)
    select(panel, left_out)
    assert panel.pin_button.text() == "Pin"
    qtbot.mouseClick(panel.pin_button, Qt.MouseButton.LeftButton)
    assert "pinned" in item(panel, left_out).text(STATE)
    assert panel.pin_button.text() == "Unpin"
    send(app)
    assert f"- {left_out}" in ledger(server)
    undo(app, qtbot, "Fact pinned")
    send(app)
    assert left_out not in newest(server)


def test_the_panels_changes_survive_a_restart(qloop, qtbot, tmp_path, server):
    app = App(qloop, qtbot, tmp_path / "data", server, **SETTINGS)
    try:
        panel = talked(app, qtbot)
        qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
        type_fact(panel, qtbot, ADDED)
        select(panel, "02:30 UTC")
        qtbot.mouseClick(panel.edit_button, Qt.MouseButton.LeftButton)
        type_fact(panel, qtbot, "03:15 UTC")
        select(panel, "180 ms per request")
        qtbot.mouseClick(panel.forget_button, Qt.MouseButton.LeftButton)
        pinned = left_out_identifier(panel)
        select(panel, pinned)
        qtbot.mouseClick(panel.pin_button, Qt.MouseButton.LeftButton)
    finally:
        app.close()  # no send in between: the changes were saved as they were made
    again = App(qloop, qtbot, tmp_path / "data", server, **SETTINGS)
    try:
        panel = open_panel(again, qtbot)
        assert item(panel, ADDED).text(WHO) == "Typed by you"
        assert "edited" in item(panel, "03:15 UTC").text(STATE)
        assert item(panel, "180 ms per request").text(STATE).startswith("forgotten")
        assert "pinned" in item(panel, pinned).text(STATE)
        send(again)
        sent = ledger(server)
        assert f"- {ADDED}" in sent and "nightly export: 03:15 UTC" in sent
        assert f"- {pinned}" in sent
        assert "180 ms" not in newest(server)
    finally:
        again.close()


def test_an_entry_jumps_to_its_message_and_blocking_pins_are_named(app, qtbot):
    panel = talked(app, qtbot)
    stated = select(panel, "LOG_LEVEL=debug")
    fact_id = stated.data(VALUE, Qt.ItemDataRole.UserRole)
    source = next(f.message_id for f in app.controller.facts_view().facts if f.id == fact_id)
    assert "LOG_LEVEL=debug" in app.controller.message(source).content
    where = panel.list.visualItemRect(stated).center()
    qtbot.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton, pos=where)
    qtbot.mouseDClick(panel.list.viewport(), Qt.MouseButton.LeftButton, pos=where)
    assert app.window.conversation_view.current_message_id() == source
    assert not panel.blocking.isVisible()

    view = app.controller.facts_view()  # pin everything current: more than its budget
    for fact in view.facts:
        if fact.status == "current":
            app.controller.set_fact_pinned(fact.id, True)
    qtbot.waitUntil(panel.blocking.isVisible)
    assert "unpin some" in panel.blocking.text()
    blocking = app.controller.facts_view().blocking_pins
    first = next(f for f in app.controller.facts_view().facts if f.id == blocking[0])
    assert first.value[:20] in panel.blocking.text()
    assert item(panel, first.value).font(VALUE).bold()


def test_the_facts_tab_sits_beside_the_goal_and_neither_closes_the_other(app, qtbot):
    goal, facts = app.find(QDockWidget, "goalPanel"), app.find(QDockWidget, "factsPanel")
    goal_action = app.window.findChild(QAction, "actionGoal")
    goal_action.trigger()
    qtbot.waitUntil(goal.isVisible)
    open_panel(app, qtbot)  # brought forward over the goal's tab
    # Issue 32: both are tabs of the one side panel (no longer docks).
    side = app.window.findChild(QWidget, "sidePanel")
    assert side.isAncestorOf(facts) and side.isAncestorOf(goal) and side.current() == "facts"
    assert not goal_action.isChecked()  # behind, still a tab
    goal_action.trigger()
    qtbot.waitUntil(goal.isVisible)
    assert side.current() == "goal" and "facts" in side.pages and goal_action.isChecked()
    goal_action.trigger()  # its own action hides it, with the panel it was in front of
    qtbot.waitUntil(goal.isHidden)
    app.window.findChild(QAction, "actionFacts").trigger()
    qtbot.waitUntil(facts.isVisible)  # the other tab is still there


def test_a_change_while_a_reply_streams_waits_with_its_text_and_no_dialog(
        app, qloop, qtbot, server):
    panel = talked(app, qtbot, 3)
    errors: list[str] = []
    app.controller.error.connect(lambda _kind, text: errors.append(text))
    server.script(Reply(text="A slow answer about the gateway. " * 6, delay_per_chunk=0.01))

    async def during_the_reply() -> None:
        app.window.message_input.setPlainText("One more question?")
        app.find(QPushButton, "sendButton").click()
        await until(lambda: app.controller.busy)
        qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
        qtbot.keyClicks(panel.editor, ADDED)
        qtbot.keyClick(panel.editor, Qt.Key.Key_Return)  # refused: the chat is busy
        assert app.controller.busy and errors and "reply" in errors[-1].lower()
        assert panel.editor_row.isVisible() and panel.editor.text() == ADDED
        assert not QApplication.activeModalWidget()
        await until(lambda: not app.controller.busy)
        await settle(app.controller)

    run(qloop, during_the_reply())
    qtbot.mouseClick(panel.save_button, Qt.MouseButton.LeftButton)  # now it goes
    assert not panel.editor_row.isVisible() and item(panel, ADDED)
    send(app)
    assert f"- {ADDED}" in ledger(server)


def test_a_value_a_reply_disputes_says_so_in_its_tooltip() -> None:
    """The user's value a reply's correction may not replace: the panel says what is sent."""
    from ollm_desktop.engine import facts
    from ollm_desktop.engine.facts_front import FactsView
    from ollm_desktop.engine.models import Message
    from ollm_desktop.ui.side_panel.facts.entries import entries

    ledger: list = []
    for turn, (role, text) in enumerate((("user", "The gateway listens on port 7443."),
                                         ("assistant", "Correction: the gateway moved to "
                                                       "port 9443.")), start=1):
        facts.absorb(ledger, Message(role=role, content=text), turn)
    view = FactsView(ledger, frozenset(), frozenset(), frozenset(), ())
    tips = {e.fact.value: e.tooltip for e in entries(view)}
    assert "Sent with a note: a reply said replaced by 9443; unconfirmed." in tips["7443"]
    assert "Sent with a note" not in tips["9443"]


def test_the_panel_lists_by_default_exactly_the_rows_the_engine_marks_shown(qtbot) -> None:
    """``FactsView.rows[].shown_by_default`` is the panel's own decision: with the filter off
    it lists those rows and no other; with it on, every row."""
    from ollm_desktop.engine import facts
    from ollm_desktop.engine.facts_front import FactsView
    from ollm_desktop.engine.models import Message
    from ollm_desktop.ui.side_panel.facts.panel import FactActions

    ledger: list = []
    for turn, (role, text) in enumerate((
            ("user", "The gateway listens on port 7443."),
            ("assistant", "The metrics exporter runs on port 9187."),
            ("user", "Should we move the gateway to port 7444?")), start=1):
        facts.absorb(ledger, Message(role=role, content=text), turn)
    view = FactsView(ledger, frozenset(), frozenset(), frozenset(), ())
    refuse = FactActions(lambda *a: False, lambda *a: False, lambda *a: False,
                         lambda *a: False, lambda *a: False)
    panel = FactsPanel(refuse)
    qtbot.addWidget(panel)
    panel.set_view(view)
    listed = [panel.list.topLevelItem(i).data(VALUE, Qt.ItemDataRole.DisplayRole)
              for i in range(panel.list.topLevelItemCount())]
    assert len(listed) == sum(r.shown_by_default for r in view.rows) == 1, listed
    assert "7443" in listed[0]
    panel.suggested.setChecked(True)
    assert panel.list.topLevelItemCount() == len(view.rows) == 3
