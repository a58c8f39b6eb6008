"""Plain words (issue 32 point 6): no internal term (tier, num_ctx, ledger, level N, set-aside,
T1, marker syntax, ...) in any visible string of the main window, its menus, Preferences, the
chat settings, the side panel's tabs (goal, facts with a fact in every state, checkpoint,
snapshots), the Help pages and the recovery dialog, except inside an "Advanced" section."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel

from ollm_desktop.ui.dialogs.chat_settings_dialog import ChatSettingsDialog
from ollm_desktop.ui.preferences.dialog import PreferencesDialog
from tests.controller_harness import run, scripted_model
from tests.test_ui_main_window import LONG
from tests.visible_strings import internal_terms, visible_strings


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
    window.content.side_panel.action.trigger()  # the side panel, on each of its tabs
    for tab in ("goal", "facts", "checkpoint", "snapshots"):
        window.content.side_panel.panel.show_tab(tab)
    help_pages = window.content.help_pages
    strings = [*visible_strings(window), *visible_strings(browser),
               *visible_strings(chat_settings), *visible_strings(help_pages.show_shortcuts()),
               *visible_strings(help_pages.show_compaction())]
    assert any(where == "factsPanel" or "fact" in text.lower() for where, text in strings)
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


def test_the_facts_panel_says_each_state_in_plain_words(qtbot):
    """A fact in every state the panel can show (sent, left out, in the recent turns, in its
    message, replaced, suggested, an open question, pinned), the summary line and the
    warning about pins: no "ledger" or other internal term, in the rows or their tooltips."""
    from ollm_desktop.engine import facts
    from ollm_desktop.engine.facts_front import FactsView
    from ollm_desktop.engine.models import Message
    from ollm_desktop.ui.side_panel.facts.panel import FactActions, FactsPanel

    ledger: list = []
    for turn, (role, text) in enumerate((
            ("user", "The gateway listens on port 7443."),
            ("user", "The database runs on port 5432."),
            ("user", "The cache listens on port 6379."),
            ("user", "The queue listens on port 5672."),
            ("assistant", "The metrics exporter runs on port 9187."),
            ("user", "Should we move the gateway to port 7444?"),
            ("user", "Correction: the database runs on port 5433.")), start=1):
        facts.absorb(ledger, Message(role=role, content=text), turn)
    current = [f for f in ledger if f.status == "current" and f.users]
    assert len(current) >= 4, [f.value for f in ledger]
    current[0].pinned = True
    view = FactsView(ledger, frozenset({current[0].id}), frozenset({current[1].id}),
                     frozenset({current[2].id}), (current[0].id,))
    refuse = FactActions(*(lambda *a: False for _ in range(5)))
    panel = FactsPanel(refuse)
    qtbot.addWidget(panel)
    panel.set_view(view)
    panel.suggested.setChecked(True)  # every row, the assistant's and the questions too
    strings = visible_strings(panel)
    said = " ".join(text for _where, text in strings)
    for state in ("sent with every message", "left out", "in the recent turns",
                  "in its message", "replaced", "question", "pinned"):
        assert state in said, state  # each state was shown, so each was checked
    assert panel.blocking.text() and "unpin" in panel.blocking.text()
    found = internal_terms(strings)
    assert not found, "\n".join(found)


def test_the_recovery_dialog_and_the_restore_question_say_no_set_aside(qtbot, tmp_path):
    from ollm_desktop.ui.dialogs.set_aside_dialog import SetAsideDialog
    damaged = tmp_path / "chats.db.damaged"
    damaged.write_bytes(b"not a database")
    dialog = SetAsideDialog(damaged, [], set(), "file is not a database")
    qtbot.addWidget(dialog)
    found = internal_terms(visible_strings(dialog))
    assert not found, "\n".join(found)


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
