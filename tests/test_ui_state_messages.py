"""Messages and actions that follow the state (issue 32 points 3, 4 and 6), each shown to go
when its problem does, or to be disabled, with its reason, when it has nothing to act on."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from ollm_desktop.controller import ChatController
from ollm_desktop.paths import app_paths
from ollm_desktop.storage import ChatStore
from ollm_desktop.ui.main_window import MainWindow
from tests.controller_harness import make_settings, run, scripted_model, settle, shutdown
from tests.ollama_server import Reply
from tests.test_ui_main_window import LONG, App


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=30)
    return ollama_server


def test_a_cut_reply_s_banner_has_a_retry_button_and_goes_when_a_reply_arrives(app, server):
    server.reply_fn = None
    server.replies.append(Reply(text="one two three four five six seven", cut_after=2))
    run(app.loop, app.type_and_send("Tell me a story"))
    banner = app.window.banner
    assert banner.isVisible() and banner.mode == "error"
    assert banner.retry_button.isVisible()  # a button, not "Retry?" in the text
    assert "Retry?" not in banner.message_label.text()
    status = app.window.statusBar().currentMessage()
    assert "broke before the reply was complete" in status and "Retry?" not in status
    server.reply_fn = scripted_model(reply_words=10)
    banner.retry_button.click()  # continues the cut reply
    run(app.loop, settle(app.controller))
    assert not banner.isVisible()


def test_the_unreachable_note_above_the_input_goes_after_reconnecting(qloop, qtbot, tmp_path,
                                                                      server):
    port = server.port
    a = App(qloop, qtbot, tmp_path / "data", server)
    try:
        a.window.content.first_run.dismiss()
        server.stop()
        run(qloop, a.controller.refresh_ollama())
        run(qloop, a.type_and_send("Hello?"))
        note = a.window.input_error
        assert note.isVisible()
        assert "`" not in note.text() and "<code>" in note.text()  # backticks rendered
        assert "Retry" in note.text()  # ... and the button it names is there, in the banner
        assert a.window.banner.isVisible() and a.window.banner.retry_button.isVisible()
        assert "`" not in a.window.banner.message_label.text()  # the banner renders them too
        server.start(port=port)
        run(qloop, a.controller.refresh_ollama())
        run(qloop, settle(a.controller))
        assert not note.isVisible() and not a.window.banner.isVisible()
    finally:
        a.close()


def test_an_address_given_with_host_is_named_as_such(qloop, qtbot, tmp_path, server):
    url, settings, port = server.url, make_settings(server), server.port
    server.stop()
    paths = app_paths(tmp_path / "data")
    paths.ensure()
    store, _ = ChatStore.open(paths)
    controller = ChatController(store, settings, host=url)
    window = MainWindow(controller, paths)
    qtbot.addWidget(window)
    window.show()
    window.open_initial_chat()
    try:
        run(qloop, controller.refresh_ollama())
        run(qloop, settle(controller))
        text = window.banner.message_label.text()
        assert window.banner.isVisible() and "--host" in text
        assert "Preferences" not in text
        server.start(port=port)  # the server comes back: the banner goes
        run(qloop, controller.refresh_ollama())
        run(qloop, settle(controller))
        assert not window.banner.isVisible()
    finally:
        window.close()
        shutdown(qloop, controller)


def test_undo_restore_is_disabled_until_a_restore_with_its_reason(app, server):
    run(app.loop, app.type_and_send("First message"))
    action = app.window.action_undo_restore
    assert not action.isEnabled() and "no snapshot has been restored" in action.toolTip()
    info = app.controller.create_snapshot("kept")
    run(app.loop, app.type_and_send("Second message"))
    app.controller.restore_snapshot(info.id)
    run(app.loop, settle(app.controller))
    assert action.isEnabled() and "before the last restore" in action.toolTip()


def test_compact_and_undo_are_enabled_right_after_the_first_compaction(app, server):
    compact, undo = app.window.action_compact, app.window.action_undo_compaction
    assert not undo.isEnabled() and "Open a chat first" in undo.toolTip()
    run(app.loop, app.type_and_send("The first message"))
    assert not undo.isEnabled() and "has not been compacted" in undo.toolTip()

    async def until_compacted():
        for i in range(30):
            await app.type_and_send(f"Step {i}: {LONG}")
            if app.controller.session.engine.groups:
                break
        await settle(app.controller)

    run(app.loop, until_compacted())
    assert not app.controller.compacting
    assert compact.isEnabled() and undo.isEnabled(), (compact.toolTip(), undo.toolTip())


def test_ctrl_f_focuses_the_chat_search(app):
    app.window.message_input.setFocus()
    app.window.activateWindow()
    QTest.keyClick(app.window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert app.window.chat_search.hasFocus()


def test_a_long_status_message_is_not_cut_off(app, server, qtbot):
    """At the narrowest window (1024 px) the restore message shows whole: the figures' parts
    that are also in their tooltips make room while it shows, and come back after."""
    run(app.loop, app.type_and_send("Some words to have figures in the status bar"))
    app.window.resize(1024, 768)
    bar = app.window.statusBar()
    note = app.window.reliability_indicator.model_label
    assert note.isVisible()
    message = "Snapshot restored. Undo it with Conversation ▸ Undo restore."

    def room() -> int:
        return bar.width() - sum(w.width() for w in (app.window.reliability_indicator,
                                                     app.window.context_meter))

    needed = bar.fontMetrics().horizontalAdvance(message)
    assert needed > room()  # it would be cut off as the bar stands
    bar.showMessage(message)
    qtbot.waitUntil(lambda: needed < room())
    bar.clearMessage()
    qtbot.waitUntil(note.isVisible)


def test_the_compaction_result_says_the_marker_s_figure_after_a_recount(app, server):
    async def until_compacted():
        for i in range(30):
            await app.type_and_send(f"Step {i}: {LONG}")
            if app.controller.session.engine.groups:
                break

    run(app.loop, until_compacted())
    strip = app.window.content.compaction_progress
    snapshot = app.controller.snapshot
    group = snapshot.groups[-1]
    assert strip.isVisible()
    assert f"{group.original_tokens:,} → {group.current_tokens:,} tokens" in strip.label.text()
    # The server's count arrives and the checkpoint's size moves (as "140" became "133").
    import dataclasses
    recounted = group.model_copy(update={"current_tokens": group.current_tokens + 7})
    app.controller.contextChanged.emit(dataclasses.replace(
        snapshot, groups=(*snapshot.groups[:-1], recounted)))
    marker_figure = f"{group.original_tokens:,} → {group.current_tokens + 7:,} tokens"
    assert marker_figure in strip.label.text()


def menu_actions(window) -> list:
    return [a for bar in window.menuBar().actions() for a in bar.menu().actions()
            if not a.isSeparator()]


def unexplained(window) -> list[str]:
    """Disabled menu actions whose tooltip is only their own name (Qt's default)."""
    return [a.objectName() for a in menu_actions(window) if not a.isEnabled()
            and a.toolTip().replace("…", "") == a.text().replace("&", "").replace("…", "")]


def test_with_nothing_open_the_actions_that_need_a_chat_are_off_and_say_why(app):
    window = app.window
    assert app.controller.chat is None
    c = window.content
    for action in (c.action_regenerate, c.action_continue, c.action_export_md,
                   c.action_export_json, c.action_snapshots, c.action_create_snapshot,
                   c.action_branch_before):
        assert not action.isEnabled(), action.objectName()
    assert "Open a chat first" in window.content.action_export_md.toolTip()
    assert "damaged database" in window.content.action_set_aside.toolTip()
    assert unexplained(window) == []


def test_regenerate_and_continue_follow_the_newest_reply(app, server):
    regenerate, cont = app.window.content.action_regenerate, app.window.content.action_continue
    run(app.loop, app.type_and_send("Tell me about rivers"))
    assert regenerate.isEnabled() and regenerate.toolTip() == regenerate.statusTip()
    assert not cont.isEnabled() and "stopped or cut-off reply" in cont.toolTip()
    assert unexplained(app.window) == []
    server.reply_fn = None
    server.replies.append(Reply(text="one two three four five six seven", cut_after=2))
    run(app.loop, app.type_and_send("And about lakes?"))
    assert cont.isEnabled() and cont.toolTip() == cont.statusTip()


def test_the_broken_connection_banner_goes_when_continue_succeeds(app, server):
    """Continue from the menu (not the banner's own button) ends the banner too."""
    server.reply_fn = None
    server.replies.append(Reply(text="one two three four five six seven", cut_after=2))
    run(app.loop, app.type_and_send("Tell me a story"))
    banner = app.window.banner
    assert banner.isVisible() and banner.retry_button.isVisible()
    server.reply_fn = scripted_model(reply_words=10)
    app.window.content.action_continue.trigger()
    run(app.loop, settle(app.controller))
    assert not banner.isVisible()
    assert not app.window.content.action_continue.isEnabled()  # nothing left to continue
