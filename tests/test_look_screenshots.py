"""Screenshots of issue 32's look for docs/look.md, in both schemes and at 1366×768 and
1920×1080: the first run with no model and during a download, an empty chat with its first
prompts, a chat with text in the composer, the model picker's list, an unreachable server, a
long chat with a compaction marker, the side panel on each tab, Preferences on each page with
the installed models (OLLM_SCREENSHOT_DIR=docs/screenshots to refresh them).

Each shot is also checked for the thing it shows, so the test can fail."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QAbstractItemView, QLabel

from ollm_desktop.ui import theme
from ollm_desktop.ui.conversation.roles import KIND_MARKER, KindRole
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
            for size in SIZES:
                shot(a, screenshot_dir, f"look-first-run-pull-{scheme}-{size}.png", size)
            await settle(a.controller)

        run(qloop, mid_download())
        run(qloop, settle(a.controller))  # the status after the model was chosen
        assert "is ready" in screen.pull_status.text()
        assert not a.window.banner.isVisible()  # no "not installed" about the old model
        shot(a, screenshot_dir, f"look-first-run-ready-{scheme}-1366.png", "1366")
    finally:
        a.close()


def test_chat_and_error_state(qloop, qtbot, tmp_path, server, scheme, screenshot_dir):
    server.models = [FakeModel("llama3.2:3b", "llama", "3.2B", 131072, size=2_019_000_000,
                               capabilities=("completion", "tools")),
                     FakeModel("gemma3:4b", "gemma3", "4.3B", 131072, size=3_338_000_000,
                               capabilities=("completion", "vision")),
                     FakeModel("qwen3:4b", "qwen3", "4.0B", 40960, size=2_497_000_000,
                               capabilities=("completion", "tools", "thinking"))]
    a = App(qloop, qtbot, tmp_path / "data", server)
    try:
        a.window.content.first_run.dismiss()
        for size in SIZES:
            shot(a, screenshot_dir, f"look-empty-chat-{scheme}-{size}.png", size)
        run(qloop, a.say(["How do I keep a long conversation with a small model useful?",
                          "And what happens to the facts I told it early on?"]))
        a.window.message_input.setPlainText("Summarise what we decided so far, in three bullets.")
        for size in SIZES:
            shot(a, screenshot_dir, f"look-chat-{scheme}-{size}.png", size)
        picker_shot(a, screenshot_dir / f"look-model-picker-{scheme}.png")
        preferences_shots(a, screenshot_dir, scheme)
        server.stop()
        run(qloop, a.controller.refresh_ollama())
        run(qloop, settle(a.controller))
        assert a.window.banner.isVisible()
        assert "is not reachable" in " ".join(label.text() for label in
                                              a.window.banner.findChildren(QLabel))
        for size in SIZES:
            shot(a, screenshot_dir, f"look-error-{scheme}-{size}.png", size)
    finally:
        a.close()


def picker_shot(a: App, path) -> None:
    """The model picker's list: each model's size, context and capability tags."""
    from PySide6.QtWidgets import QComboBox

    selector = a.window.findChild(QComboBox, "modelSelector")
    a.window.resize(*SIZES["1366"])
    selector.showPopup()
    popup = selector.view().window()
    assert popup.isVisible()
    image = popup.grab()
    selector.hidePopup()
    assert image.height() > 3 * selector.height()  # three two-line rows
    assert image.save(str(path))


def preferences_shots(a: App, folder, scheme: str) -> None:
    """Preferences on each page, built as the window builds it (with Installed models)."""
    from ollm_desktop.ui.preferences import installed_models
    from ollm_desktop.ui.preferences.dialog import PreferencesDialog

    c = a.controller
    dialog = PreferencesDialog(c.settings, [m.name for m in c.models], a.window, c.snapshot)
    box = installed_models.add_to(dialog, c)
    run(a.loop, settle(c))  # the server asked again as Preferences opens, in one loop pass
    assert box is not None and box.list.count() == 3
    box.list.setCurrentRow(1)
    box.ask_delete()  # the inline confirmation, shown
    dialog.show()
    try:
        for name in dialog.pages.names:
            dialog.pages.show_page(name)
            assert dialog.pages.stack.currentIndex() == dialog.pages.names.index(name)
            assert dialog.grab().save(str(folder / f"look-preferences-{name}-{scheme}.png"))
    finally:
        dialog.close()


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
        view, model = a.window.conversation_view, a.window.conversation_model
        markers = [r for r in range(model.rowCount())
                   if model.index(r).data(KindRole) == KIND_MARKER]
        assert markers  # the long chat was compacted: its marker is a row
        for size in SIZES:
            a.window.resize(*SIZES[size])
            view.scrollTo(model.index(markers[-1]), QAbstractItemView.ScrollHint.PositionAtCenter)
            shot(a, screenshot_dir, f"look-long-chat-{scheme}-{size}.png", size)
        view.groupActivated.emit(a.controller.snapshot.groups[-1].id)
        panel = a.window.content.side_panel.panel
        for tab in ("goal", "facts", "checkpoint", "snapshots"):
            panel.show_tab(tab)
            assert panel.isVisible() and panel.current() == tab
            for size in SIZES:
                shot(a, screenshot_dir, f"look-side-panel-{tab}-{scheme}-{size}.png", size)
    finally:
        a.close()
