"""Screenshots of issue 32's look for docs/look.md, in both schemes: the first run with no
model and during a download, an empty chat with its first prompts, a chat, an unreachable
server, at 1366×768 and 1920×1080 (OLLM_SCREENSHOT_DIR=docs/screenshots to refresh them).

Each shot is also checked for the thing it shows, so the test can fail."""

from __future__ import annotations

import pytest

from ollm_desktop.ui import theme
from ollm_desktop.ui.first_run.screen import RECOMMENDED_MODEL
from tests.controller_harness import run, scripted_model, settle, until
from tests.ollama_server import FakeModel
from tests.test_ui_main_window import App

SIZES = {"1366": (1366, 768), "1920": (1920, 1080)}


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=60)
    return ollama_server


@pytest.fixture(params=["light", "dark"])
def scheme(request, qapp):
    palette, sheet = qapp.palette(), qapp.styleSheet()
    theme.apply_theme(qapp, request.param)
    yield request.param
    theme.apply_theme(qapp, "system")
    qapp.setPalette(palette)
    qapp.setStyleSheet(sheet)


def shot(a: App, folder, name: str, size: str) -> None:
    a.window.resize(*SIZES[size])
    a.window.repaint()
    image = a.window.grab()
    assert image.width() >= SIZES[size][0] - 1  # the window took the size: nothing overflows
    assert image.save(str(folder / name))


def test_first_run_and_download(qloop, qtbot, tmp_path, server, scheme, screenshot_dir):
    server.models = []
    server.pullable[RECOMMENDED_MODEL] = FakeModel(RECOMMENDED_MODEL, "gemma3", "1.0B", 32768,
                                                   size=815_000_000)
    server.pull_delay = 0.2
    a = App(qloop, qtbot, tmp_path / "data", server)
    try:
        screen = a.window.content.first_run.screen
        for size in SIZES:
            shot(a, screenshot_dir, f"look-first-run-no-model-{scheme}-{size}.png", size)
        screen.pull_button.click()

        async def mid_download() -> None:
            await until(lambda: 0 < screen.progress.value() < 1000)
            shot(a, screenshot_dir, f"look-first-run-pull-{scheme}-1366.png", "1366")
            await settle(a.controller)

        run(qloop, mid_download())
        assert "is ready" in screen.pull_status.text()
        shot(a, screenshot_dir, f"look-first-run-ready-{scheme}-1366.png", "1366")
    finally:
        a.close()


def test_chat_and_error_state(qloop, qtbot, tmp_path, server, scheme, screenshot_dir):
    a = App(qloop, qtbot, tmp_path / "data", server)
    try:
        a.window.content.first_run.dismiss()
        shot(a, screenshot_dir, f"look-empty-chat-{scheme}-1366.png", "1366")
        run(qloop, a.say(["How do I keep a long conversation with a small model useful?",
                          "And what happens to the facts I told it early on?"]))
        a.window.message_input.setPlainText("Summarise what we decided so far, in three bullets.")
        for size in SIZES:
            shot(a, screenshot_dir, f"look-chat-{scheme}-{size}.png", size)
        server.stop()
        run(qloop, a.controller.refresh_ollama())
        run(qloop, settle(a.controller))
        assert a.window.banner.isVisible()
        shot(a, screenshot_dir, f"look-error-{scheme}-1366.png", "1366")
    finally:
        a.close()


def test_preferences(qtbot, scheme, screenshot_dir):
    from ollm_desktop.session import Settings
    from ollm_desktop.ui.preferences.dialog import PreferencesDialog

    dialog = PreferencesDialog(Settings(context_size=8192), ["llama3.2:3b", "gemma3:1b"], None)
    qtbot.addWidget(dialog)
    dialog.show()
    for name in dialog.pages.names:
        dialog.pages.show_page(name)
        assert dialog.pages.stack.currentIndex() == dialog.pages.names.index(name)
        assert dialog.grab().save(str(screenshot_dir / f"look-preferences-{name}-{scheme}.png"))


def test_side_panel_on_each_tab(qloop, qtbot, tmp_path, server, scheme, screenshot_dir):
    from tests.test_ui_main_window import LONG

    server.reply_fn = scripted_model(reply_words=120)
    a = App(qloop, qtbot, tmp_path / "data", server)
    try:
        async def until_compacted():
            for i in range(30):
                await a.type_and_send(f"Step {i}: {LONG}")
                if a.controller.session.engine.groups:
                    break

        run(qloop, until_compacted())
        a.window.conversation_view.groupActivated.emit(a.controller.snapshot.groups[-1].id)
        panel = a.window.content.side_panel.panel
        for tab in ("goal", "facts", "checkpoint", "snapshots"):
            panel.show_tab(tab)
            assert panel.isVisible() and panel.current() == tab
            shot(a, screenshot_dir, f"look-side-panel-{tab}-{scheme}-1366.png", "1366")
        shot(a, screenshot_dir, f"look-side-panel-snapshots-{scheme}-1920.png", "1920")
    finally:
        a.close()
