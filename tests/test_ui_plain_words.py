"""Plain words (issue 32 point 6): no internal term (tier, num_ctx, ledger, level N, set-aside,
T1, marker syntax, ...) in any visible string of the main window, its menus, Preferences, the
chat settings, the snapshot browser and the panels, except inside an "Advanced" section."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel

from ollm_desktop.ui.dialogs.chat_settings_dialog import ChatSettingsDialog
from ollm_desktop.ui.preferences.dialog import PreferencesDialog
from tests.controller_harness import run, scripted_model
from tests.test_ui_main_window import LONG
from tests.visible_strings import internal_terms, visible_strings

FACTS_PANEL = "factsPanel"  # rewritten on another branch at the same time: checked there


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=120)
    return ollama_server


def test_the_checker_finds_each_term_and_skips_the_advanced_section(qtbot):
    from PySide6.QtWidgets import QVBoxLayout, QWidget
    root = QWidget()
    qtbot.addWidget(root)
    layout = QVBoxLayout(root)
    for text in ("Tier 2 · 8K", "Context size (num_ctx)", "kept in the ledger", "level 1",
                 "Open set-aside database", "qwen · T1", "[GOAL] markers", "Aging history"):
        layout.addWidget(QLabel(text))
    advanced = QWidget(root)
    advanced.setObjectName("advancedSection")
    QVBoxLayout(advanced).addWidget(QLabel("Tier 2: how large checkpoints may be"))
    layout.addWidget(advanced)
    assert len(internal_terms(visible_strings(root))) == 8
    assert not internal_terms([("x", "Tiered pricing, 8K context, T-shirt")])


def test_no_internal_terms_in_the_window_menus_and_panels(app, server):
    async def chat_until_compacted():
        for i in range(30):
            await app.type_and_send(f"Step {i}: {LONG}")
            if app.controller.session.engine.groups:
                break

    run(app.loop, chat_until_compacted())
    window = app.window
    window.conversation_view.groupActivated.emit(app.controller.snapshot.groups[-1].id)
    assert window.group_panel.isVisible()  # the checkpoint's own words are walked too
    window.goal_panel.show()
    browser = window.open_snapshot_browser()
    c = app.controller
    chat_settings = ChatSettingsDialog(c.chat, c.settings, c.snapshot, lambda *a: True, window,
                                       servers=c.server_choices(),
                                       recall_status=c.recall_status())
    strings = [*visible_strings(window, skip=(FACTS_PANEL,)), *visible_strings(browser),
               *visible_strings(chat_settings)]
    found = internal_terms(strings)
    assert not found, "\n".join(found)


def test_no_internal_terms_in_preferences_outside_advanced(qtbot):
    from ollm_desktop.session import Settings
    dialog = PreferencesDialog(Settings(context_size=8192), ["llama3.2:3b"], None)
    qtbot.addWidget(dialog)
    found = internal_terms(visible_strings(dialog))
    assert not found, "\n".join(found)
    advanced = dialog.findChild(QLabel, "advancedExplanation")
    assert advanced is not None and "num_ctx" in advanced.text()  # explained where it shows


def test_report_the_facts_panel_s_terms(app, capsys):
    """Not a check: lists what the facts panel (another branch's) still says, for the report."""
    from PySide6.QtWidgets import QWidget
    panel = app.window.findChild(QWidget, FACTS_PANEL)
    strings = visible_strings(panel) if panel is not None else []
    print("\n".join(internal_terms(strings)))
    assert panel is not None


def test_checkpoints_read_rendered_and_with_the_marker_s_figures(app, server):
    """A snapshot shows a checkpoint's text rendered (no '## Key Information'), with the same
    figures as its marker; the marker and the panel say no 'level N'."""
    async def chat_until_compacted():
        for i in range(30):
            await app.type_and_send(f"Step {i}: {LONG}")
            if app.controller.session.engine.groups:
                break

    run(app.loop, chat_until_compacted())
    group = app.controller.snapshot.groups[-1]
    marker = app.window.conversation_model.marker_text(group)
    assert "level" not in marker.lower()
    app.controller.create_snapshot("after the first checkpoint")
    browser = app.window.open_snapshot_browser()
    browser.list.setCurrentItem(browser.list.topLevelItem(0))
    preview = browser.preview.toPlainText()
    figures = f"{group.original_tokens:,} → {group.current_tokens:,} tokens"
    assert figures in marker and figures in preview
    assert "#" not in preview.split("Checkpoints", 1)[1].split("Messages", 1)[0]
    app.window.conversation_view.groupActivated.emit(group.id)
    assert "level" not in app.window.group_panel.subtitle.text().lower()
