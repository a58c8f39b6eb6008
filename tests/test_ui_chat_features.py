"""Per-chat settings and reply information, through the real window (issue 15).

The real window, controller, store and backend over the loopback fake Ollama. The settings
dialog is opened by clicking its button (the user's own action, so a modal dialog is right);
the test fills it from inside its event loop, then reads what the next request really sent.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt, QTimer
from PySide6.QtGui import QHelpEvent, QPainter, QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QToolTip,
    QWidget,
)

from ollm_desktop.ui.conversation.roles import ReplyModelRole, ReplyStatsRole
from tests.controller_harness import (
    MODEL,
    chat_turns,
    is_turn,
    run,
    scripted_model,
)
from tests.realistic_chat import conversation, realistic_model
from tests.test_ui_main_window import App

Act = Callable[[QDialog, dict[str, Any]], None]


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=60)
    return ollama_server


def _dialog() -> QDialog | None:
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, QDialog) and widget.objectName() == "chatSettingsDialog" \
                and widget.isVisible():
            return widget
    return None


def with_settings_dialog(app: App, act: Act) -> dict[str, Any]:
    """Click the window's settings button; ``act`` runs inside the dialog's own loop (it must
    press OK or Cancel; the dialog is cancelled if it raised or left it open)."""
    seen: dict[str, Any] = {}
    tries = iter(range(250))

    def handle() -> None:
        dialog = _dialog()
        if dialog is None:
            if next(tries, None) is not None:  # give up after ~5 s: never poll forever
                QTimer.singleShot(20, handle)
            return
        try:
            act(dialog, seen)
        except BaseException as exc:  # reported after the dialog has closed
            seen["_raised"] = exc
        finally:
            if dialog.isVisible():
                dialog.reject()

    button = app.find(QPushButton, "chatSettingsButton")
    assert button.isEnabled()
    QTimer.singleShot(0, handle)
    button.click()
    if "_raised" in seen:
        raise seen.pop("_raised")
    return seen


def child(dialog: QDialog, cls: type, name: str) -> Any:
    widget = dialog.findChild(cls, name)
    assert widget is not None, name
    return widget


def press_ok(dialog: QDialog) -> None:
    buttons = dialog.findChild(QDialogButtonBox)
    buttons.button(QDialogButtonBox.StandardButton.Ok).click()




def composite(window: QWidget, dialog: QWidget, path: Path) -> None:
    """The dialog over the window, as the user sees it (each is its own top-level window)."""
    picture = window.grab()
    over = dialog.grab()
    painter = QPainter(picture)
    x = max(0, (picture.width() - over.width()) // 2)
    y = max(0, (picture.height() - over.height()) // 2)
    painter.drawPixmap(x, y, over)
    painter.setPen(window.palette().color(window.palette().ColorRole.Mid))
    painter.drawRect(x, y, over.width() - 1, over.height() - 1)
    painter.end()
    assert picture.save(str(path))


def test_settings_dialog_shows_defaults_and_applies_to_the_next_request(
        qloop, qtbot, tmp_path, server):
    a = App(qloop, qtbot, tmp_path / "data", server, system_prompt="Be helpful.",
            keep_alive="10m")
    try:
        assert not a.find(QPushButton, "chatSettingsButton").isEnabled()  # no chat yet
        run(qloop, a.type_and_send("What changed in the importer?"))
        first = chat_turns(server)[-1]
        assert "temperature" not in first["options"]

        def fill(dialog: QDialog, seen: dict[str, Any]) -> None:
            prompt = child(dialog, QPlainTextEdit, "systemPromptEdit")
            temperature = child(dialog, QDoubleSpinBox, "temperatureSpin")
            size = child(dialog, QSpinBox, "contextSizeSpin")
            keep = child(dialog, QLineEdit, "keepAliveEdit")
            # Unset fields say they are defaults, and whose.
            assert prompt.toPlainText() == "" and "Be helpful." in prompt.placeholderText()
            assert "Preferences" in child(dialog, QLabel, "systemPromptOrigin").text()
            assert temperature.text() == "Default"
            assert "Ollama" in child(dialog, QLabel, "temperatureOrigin").text()
            assert size.value() == 4096
            assert "10m" in keep.placeholderText()
            prompt.setPlainText("You are a careful release manager. Answer in short lists.")
            temperature.setValue(0.3)
            child(dialog, QDoubleSpinBox, "topPSpin").setValue(0.8)
            child(dialog, QSpinBox, "seedSpin").setValue(1234)
            child(dialog, QSpinBox, "numPredictSpin").setValue(256)
            size.setValue(8192)
            keep.setText("20m")
            assert child(dialog, QLabel, "temperatureOrigin").text() == "Set for this chat."
            press_ok(dialog)
            seen["closed"] = not dialog.isVisible()

        assert with_settings_dialog(a, fill)["closed"]
        usage = a.controller.snapshot.usage
        assert usage is not None and usage.context_size == 8192  # re-budgeted at once
        run(qloop, a.type_and_send("And what is left to do?"))
        sent = chat_turns(server)[-1]
        assert sent["options"] == {"num_ctx": 8192, "temperature": 0.3, "top_p": 0.8,
                                   "seed": 1234, "num_predict": 256}
        assert sent["keep_alive"] == "20m"
        system = sent["messages"][0]
        assert system["role"] == "system"
        assert system["content"].startswith("You are a careful release manager.")

        def check(dialog: QDialog, seen: dict[str, Any]) -> None:
            seen["temperature"] = child(dialog, QDoubleSpinBox, "temperatureSpin").value()
            seen["origin"] = child(dialog, QLabel, "temperatureOrigin").text()
            seen["keep"] = child(dialog, QLineEdit, "keepAliveEdit").text()

        seen = with_settings_dialog(a, check)
        assert seen == {"temperature": 0.3, "origin": "Set for this chat.", "keep": "20m"}
    finally:
        a.close()

    again = App(qloop, qtbot, tmp_path / "data", server, system_prompt="Be helpful.")
    try:  # stored with the chat: the same settings after a restart
        before = len(server.chat_requests())
        run(qloop, again.type_and_send("One more after the restart"))
        sent = next(b for b in server.chat_requests()[before:] if is_turn(b))
        assert sent["options"]["temperature"] == 0.3 and sent["options"]["num_ctx"] == 8192
        assert sent["messages"][0]["content"].startswith("You are a careful release manager.")
    finally:
        again.close()


def test_the_dialog_keeps_the_trained_limit_and_refuses_a_bad_keep_alive(
        qloop, qtbot, tmp_path, server):
    from tests.ollama_server import FakeModel

    tiny = FakeModel("tiny:1b", "llama", "1.0B", 2048)
    server.models = [tiny]
    a = App(qloop, qtbot, tmp_path / "data", server, default_model=tiny.name,
            context_size=2048)
    try:
        run(qloop, a.type_and_send("Hello"))

        def try_it(dialog: QDialog, seen: dict[str, Any]) -> None:
            size = child(dialog, QSpinBox, "contextSizeSpin")
            size.setValue(32768)
            seen["size"] = size.value()  # the spin stops at what the model was trained for
            seen["note"] = child(dialog, QLabel, "contextSizeOrigin").text()
            child(dialog, QLineEdit, "keepAliveEdit").setText("ten minutes")
            press_ok(dialog)
            seen["still_open"] = dialog.isVisible()
            seen["error"] = child(dialog, QLabel, "chatSettingsError").text()
            child(dialog, QLineEdit, "keepAliveEdit").setText("15m")
            a.controller.session.streaming = True  # a reply streams: not applied, kept open
            press_ok(dialog)
            seen["busy_open"] = dialog.isVisible()
            seen["busy"] = child(dialog, QLabel, "chatSettingsError").text()
            a.controller.session.streaming = False
            press_ok(dialog)
            seen["closed"] = not dialog.isVisible()

        seen = with_settings_dialog(a, try_it)
        assert seen["size"] == 2048 and "trained for" in seen["note"]
        assert seen["still_open"] and "Keep model loaded" in seen["error"]
        assert seen["busy_open"] and "Wait for the reply" in seen["busy"]
        assert seen["closed"]
        assert a.controller.chat is not None and a.controller.chat.settings.keep_alive == "15m"
    finally:
        a.close()


def _tooltip_at(view, row: int) -> str:
    rect = view.visualRect(view.model().index(row, 0))
    point = QPoint(rect.left() + 60, rect.top() + rect.height() // 2)
    QToolTip.hideText()
    event = QHelpEvent(QEvent.Type.ToolTip, point, view.viewport().mapToGlobal(point))
    QApplication.sendEvent(view.viewport(), event)
    return QToolTip.text()


def test_a_reply_row_names_its_model_and_shows_its_figures_on_hover(
        qloop, qtbot, tmp_path, server):
    a = App(qloop, qtbot, tmp_path / "data", server)
    try:
        run(qloop, a.type_and_send("How fast was that?"))
        model, view = a.window.conversation_model, a.window.conversation_view
        row = model.rowCount() - 1
        index = model.index(row)
        stream = server.streams[-1]
        assert index.data(ReplyModelRole) == MODEL
        stats = index.data(ReplyStatsRole)
        assert stats is not None and stats.reply_tokens == stream.sent
        tip = index.data(Qt.ItemDataRole.ToolTipRole)
        assert f"Written by {MODEL}" in tip
        assert "Speed: 25.0 tokens/s" in tip
        assert f"Prompt: {stream.prompt_eval_count:,} tokens" in tip
        assert f"Reply: {stream.sent:,} tokens" in tip
        assert "Total time:" in tip
        assert MODEL in index.data(Qt.ItemDataRole.AccessibleTextRole)
        view.scrollToBottom()
        assert "25.0 tokens/s" in _tooltip_at(view, row)  # what hovering really shows
        assert model.index(row - 1).data(Qt.ItemDataRole.ToolTipRole) is None  # the user's
    finally:
        a.close()

    again = App(qloop, qtbot, tmp_path / "data", server)
    try:  # stored with the message: the same figures after a restart
        model = again.window.conversation_model
        tip = model.index(model.rowCount() - 1).data(Qt.ItemDataRole.ToolTipRole)
        assert "Speed: 25.0 tokens/s" in tip and f"Written by {MODEL}" in tip
    finally:
        again.close()


def test_screenshots_of_chat_settings_and_reply_information(qloop, qtbot, tmp_path,
                                                             ollama_server, screenshot_dir):
    chat = conversation(10)
    ollama_server.reply_fn = realistic_model(chat)
    a = App(qloop, qtbot, tmp_path / "data", ollama_server, context_size=8192,
            system_prompt="You are a senior engineer helping with a Python project.")
    try:
        run(qloop, a.say(turn.user for turn in chat.turns[:2]))

        def pose(dialog: QDialog, seen: dict[str, Any]) -> None:
            child(dialog, QPlainTextEdit, "systemPromptEdit").setPlainText(
                "You review the importer's code. Quote file paths exactly; say when unsure.")
            child(dialog, QDoubleSpinBox, "temperatureSpin").setValue(0.3)
            child(dialog, QSpinBox, "seedSpin").setValue(42)
            child(dialog, QSpinBox, "contextSizeSpin").setValue(16384)
            QApplication.processEvents()  # the origin lines' new text laid out
            composite(a.window, dialog, screenshot_dir / "chat-settings.png")
            dialog.reject()

        with_settings_dialog(a, pose)
        view, model = a.window.conversation_view, a.window.conversation_model
        view.scrollToBottom()
        row = model.rowCount() - 1
        tip = _tooltip_at(view, row)
        assert "tokens/s" in tip and MODEL in tip
        picture = view.grab()
        label = next((w for w in QApplication.topLevelWidgets()
                      if w.metaObject().className() == "QTipLabel" and w.isVisible()), None)
        assert label is not None
        rect = view.visualRect(model.index(row, 0))
        painter = QPainter(picture)
        over: QPixmap = label.grab()
        painter.drawPixmap(min(rect.left() + 80, picture.width() - over.width() - 8),
                           min(max(8, rect.top() + 40), picture.height() - over.height() - 8),
                           over)
        painter.end()
        assert picture.save(str(screenshot_dir / "reply-info.png"))
    finally:
        QToolTip.hideText()
        a.close()
