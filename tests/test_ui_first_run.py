"""The first-run screen over the real window, controller and the loopback Ollama: the server
and its models, the context sentence, suggested prompts, and the recommended model's pull
(progress, Cancel, a failed pull)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel, QWidget

from ollm_desktop.ui.first_run.screen import CONTEXT_SENTENCE, RECOMMENDED_MODEL, SUGGESTED_PROMPTS
from tests.controller_harness import run, scripted_model, settle, until
from tests.ollama_server import FakeModel
from tests.test_ui_main_window import App


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=20)
    return ollama_server


def screen_of(app: App):
    screen = app.window.findChild(QWidget, "firstRunScreen")
    assert screen is not None
    return screen


def texts(widget: QWidget) -> str:
    return " ".join(label.text() for label in widget.findChildren(QLabel) if label.isVisible())


@pytest.fixture
def empty_server(server):
    """A reachable Ollama with no model installed; the recommended one can be pulled."""
    server.models = []
    server.pullable[RECOMMENDED_MODEL] = FakeModel(RECOMMENDED_MODEL, "gemma3", "1.0B", 32768,
                                                   size=815_000_000)
    return server


def test_a_new_user_sees_the_server_the_models_the_context_and_first_prompts(app, server):
    screen = screen_of(app)
    assert screen.isVisible() and not app.window.conversation_view.isVisible()
    assert "is running at" in screen.server_label.text()
    rows = [screen.models_list.item(i).text() for i in range(screen.models_list.count())]
    assert [row.split()[0] for row in rows] == ["llama3.2:3b", "gemma3:270m"]
    assert not screen.pull_box.isVisible()  # models exist: no download offered
    assert CONTEXT_SENTENCE in texts(screen)
    screen.prompt_buttons[1].click()
    assert app.window.message_input.toPlainText() == SUGGESTED_PROMPTS[1]
    run(app.loop, app.type_and_send(SUGGESTED_PROMPTS[1]))
    assert not screen.isVisible() and app.window.conversation_view.isVisible()


def test_no_model_offers_the_recommended_one_and_shows_its_download(qloop, qtbot, tmp_path,
                                                                     empty_server):
    a = App(qloop, qtbot, tmp_path / "data", empty_server)
    try:
        screen = screen_of(a)
        assert screen.pull_box.isVisible() and screen.pull_button.isEnabled()
        assert RECOMMENDED_MODEL in screen.offer_label.text()
        values: list[int] = []
        screen.progress.valueChanged.connect(values.append)
        screen.pull_button.click()
        assert screen.cancel_button.isVisible()
        run(qloop, settle(a.controller))
        assert values == sorted(values) and 500 in values and values[-1] == 1000
        assert "is ready" in screen.pull_status.text()
        assert RECOMMENDED_MODEL in screen.models_list.item(0).text()
        assert not screen.pull_box.isVisible()
        assert a.controller.model == RECOMMENDED_MODEL
    finally:
        a.close()


def test_cancel_stops_the_download_and_installs_nothing(qloop, qtbot, tmp_path, empty_server):
    empty_server.pull_delay = 0.3
    a = App(qloop, qtbot, tmp_path / "data", empty_server)
    try:
        screen = screen_of(a)
        screen.pull_button.click()

        async def cancel_mid_download() -> None:
            await until(lambda: screen.progress.maximum() == 1000)  # sizes have arrived
            screen.cancel_button.click()
            await settle(a.controller)

        run(qloop, cancel_mid_download())
        assert "cancelled" in screen.pull_status.text()
        assert screen.pull_button.isVisible() and not screen.cancel_button.isVisible()
        assert RECOMMENDED_MODEL not in [m.name for m in empty_server.models]
        assert screen.models_list.count() == 0
    finally:
        a.close()


def test_a_failed_download_says_why_and_offers_to_try_again(qloop, qtbot, tmp_path,
                                                            empty_server):
    empty_server.pullable.clear()  # the registry has no such model
    a = App(qloop, qtbot, tmp_path / "data", empty_server)
    try:
        screen = screen_of(a)
        screen.pull_button.click()
        run(qloop, settle(a.controller))
        assert "download failed" in screen.pull_status.text()
        assert "library has no model named" in screen.pull_status.text()
        assert screen.pull_button.isVisible() and screen.pull_button.text() == "Try again"
        assert not screen.progress.isVisible()
    finally:
        a.close()


def test_an_unreachable_server_is_named_with_a_retry_button(qloop, qtbot, tmp_path, server):
    a = App(qloop, qtbot, tmp_path / "data", server)
    try:
        screen = screen_of(a)
        assert not screen.retry_button.isVisible()
        server.stop()
        run(qloop, a.controller.refresh_ollama())
        run(qloop, settle(a.controller))
        assert "not reachable" in screen.server_label.text()
        assert screen.retry_button.isVisible()
        assert not screen.pull_button.isEnabled()
    finally:
        a.close()
