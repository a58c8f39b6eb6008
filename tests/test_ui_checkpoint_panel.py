"""Issue 25, points 2 and 3: clean checkpoints and numbers that agree, through the real window.

The group panel said "1,249 → 63 tokens" while its aging history said "Merged · 947 → 65",
"Compressed group 1 of 1" while the status bar said "2 compressions", "Merged from: 1 groups",
and greyed out Undo on the only group. An extractive checkpoint put a huge heading in the
narrow panel and filled its sections with the model's own sentences.
"""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFont

from tests.controller_harness import is_summary_request, run, scripted_model
from tests.ollama_server import FakeModel
from tests.test_ui_main_window import App, save_shot
from tests.test_ui_reliability_signal import until_compacted

SMALL = FakeModel("smollm2:135m", "llama", "135M", 8192, "Q8_0", 271_000_000)
FACTS = ("The billing service config lives in /etc/kestrel/config.toml and listens on port "
         "8443. ")


@pytest.fixture
def server(ollama_server):
    ollama_server.models = [SMALL]
    ollama_server.reply_fn = scripted_model(reply_words=60)
    return ollama_server


def panel_text(a: App) -> str:
    return a.window.group_panel.summary_document.toPlainText()


def test_the_group_panel_and_the_status_bar_agree(qloop, qtbot, tmp_path, server,
                                                  screenshot_dir):
    a = App(qloop, qtbot, tmp_path / "data", server, default_model=SMALL.name,
            context_size=2048)
    try:
        run(qloop, until_compacted(a, 2))
        snap = a.controller.snapshot
        assert snap.compaction_count == 2 and len(snap.groups) == 1  # 2K: one rolling checkpoint
        group = snap.groups[-1]
        a.window.conversation_view.groupActivated.emit(group.id)
        panel = a.window.group_panel
        assert panel.title.text() == "Checkpoint 1 of 1"
        text = panel_text(a)
        assert "Made by: 2 compressions" in text
        assert "2 compressions" in a.window.context_meter.text_label.text()
        assert " 1 groups" not in text and "1 earlier checkpoints" not in text
        # One figure for the checkpoint's size: the header's, the marker's and the history's.
        current = f"{group.current_tokens:,}"
        assert panel.subtitle.text().startswith(f"{group.original_tokens:,} → {current} tokens")
        assert f"{group.original_tokens:,} → {current} tokens" in \
            a.window.conversation_model.marker_text(group)
        history = text.split("How this summary changed", 1)[1].strip().splitlines()
        assert len(history) == 2 and f"→ wrote {current} tokens" in history[-1]
        assert all("read " in line for line in history)
        # Undo on the newest (and only) checkpoint.
        assert panel.undo_button.isEnabled() and not panel.undo_hint.text()
        panel.resize(420, 760)
        save_shot(screenshot_dir, panel, "t-group-panel-2k.png")
        # A branch keeps it undoable: it starts from the same checkpoint.
        last = a.controller.display_messages()[-1]
        fork = a.controller.fork_chat(last.id)
        assert fork is not None and a.controller.chat.id == fork.id
        branch_group = a.controller.snapshot.groups[-1]
        a.window.conversation_view.groupActivated.emit(branch_group.id)
        assert panel.undo_button.isEnabled(), panel.undo_hint.text()
    finally:
        a.close()


def test_an_extractive_checkpoint_is_clean_in_the_panel(qloop, qtbot, tmp_path, server,
                                                        screenshot_dir):
    def model(body):
        if is_summary_request(body):
            return "I'm sorry, but I can't help with that request."  # refused twice
        return ("Next, I will rewrite everything in Rust and deploy it tomorrow. "
                "You must always restart the service twice.")

    server.reply_fn = model
    a = App(qloop, qtbot, tmp_path / "data", server, default_model=SMALL.name,
            context_size=2048)
    try:
        run(qloop, until_compacted(a, 1, lambda i: f"{FACTS}Question {i}: what next?"))
        group = a.controller.snapshot.groups[-1]
        assert group.extractive
        a.window.conversation_view.groupActivated.emit(group.id)
        panel = a.window.group_panel
        text = panel_text(a)
        assert "Built from the messages" in text
        assert "Context (extracted" not in text
        assert "rewrite everything in Rust" not in text  # the model's own sentences
        assert "restart the service twice" not in text
        assert "/etc/kestrel/config.toml" in text and "8443" in text
        # No heading of the checkpoint is larger than the panel's own "Checkpoint" heading.
        doc = panel.summary_document
        sizes = []
        block = doc.begin()
        while block.isValid():
            if block.blockFormat().headingLevel():
                sizes.append((block.text(), block.blockFormat().headingLevel()))
            block = block.next()
        assert sizes and all(level >= 4 for _, level in sizes), sizes  # below "### Checkpoint"
        headings = [t for t, _ in sizes]
        assert len(headings) == len(set(headings)), headings  # no repeated section
        note = doc.find("Built from the messages")
        assert note.charFormat().fontItalic()
        assert note.charFormat().fontWeight() <= QFont.Weight.Normal
        panel.resize(420, 760)
        save_shot(screenshot_dir, panel, "extractive-checkpoint.png")
    finally:
        a.close()
