"""The compressed-group side panel (Summary / History tabs)."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtWidgets import QTabWidget

from ollm_desktop.engine.models import AgingStep, CompressedGroup, Message
from ollm_desktop.ui.conversation.roles import MessageIdRole, PinnedRole, VisibilityRole
from ollm_desktop.ui.side_panel.checkpoint_panel import GroupPanel
from ollm_desktop.ui.text.markdown import SafeTextDocument


def sample() -> tuple[CompressedGroup, list[Message]]:
    at = datetime(2025, 3, 4, 9, 0, tzinfo=UTC)
    originals = [
        Message(role="user", content="How do I read a file line by line?", created_at=at),
        Message(role="assistant", content="Iterate over `open(path)`.", created_at=at),
        Message(role="user", content="Target is Python 3.12, files are UTF-8.", pinned=True,
                created_at=at),
    ]
    group = CompressedGroup(
        summary="## Goal\nRead big UTF-8 files.\n\n```python\nwith open(p) as fh:\n    ...",
        level=2, message_ids=[m.id for m in originals[:2]],
        span_ids=[m.id for m in originals], original_tokens=3120, current_tokens=410,
        key_decisions=["Target Python 3.12"], files=["src/reader_v2.py"],
        next_steps=["Benchmark a 2 GB file"], focus="file I/O", sequence=4,
        merged_from=["g1", "g2"],
        history=[AgingStep(kind="created", to_level=3, tokens_before=3120, tokens_after=620),
                 AgingStep(kind="aged", from_level=3, to_level=2, tokens_before=620,
                           tokens_after=410)])
    return group, originals


def test_tabs_and_summary_content(qtbot, screenshot_dir):
    panel = GroupPanel()
    qtbot.addWidget(panel)
    group, originals = sample()
    SafeTextDocument.load_attempts = 0
    panel.show_group(group, originals, is_newest=True)
    tabs = panel.findChild(QTabWidget, "groupTabs")
    assert tabs is not None
    assert tabs.accessibleName()
    assert [tabs.tabText(i) for i in range(tabs.count())] == ["Summary", "History"]
    # Numbered as the conversation's markers show it, not by the compaction (4) that made it.
    assert panel.title.text() == "Checkpoint"
    panel.numbering = lambda group_id: (2, 3) if group_id == group.id else None
    panel.show_group(group, originals, is_newest=True)
    assert panel.title.text() == "Checkpoint 2 of 3"
    text = panel.summary_document.toPlainText()
    for expected in ("Read big UTF-8 files.", "with open(p) as fh:", "src/reader_v2.py",
                     "file I/O", "2 earlier checkpoints", "3,120 → 410", "13%", "moderate",
                     "How this summary changed", "Aged", "read 620 tokens → wrote 410 tokens",
                     "2 summarised, 1 kept verbatim"):
        assert expected in text, expected
    # What the checkpoint's text says is not listed again after it (issue 25).
    assert "Key decisions" not in text and "Next steps" not in text
    # The unclosed code fence of the summary does not swallow the sections after it.
    files_block = panel.summary_document.find("src/reader_v2.py").block()
    assert not files_block.blockFormat().hasProperty(
        files_block.blockFormat().Property.BlockCodeFence)

    history = panel.history_model
    assert [history.index(r).data(MessageIdRole) for r in range(history.rowCount())] == [
        m.id for m in originals]
    assert history.index(2).data(PinnedRole) is True
    assert [history.index(r).data(VisibilityRole) for r in range(3)] == [
        "summarized", "summarized", "preserved"]
    assert panel.history_view.build_context_menu(history.index(0)).actions()[0].text() \
        == "Copy message"  # read-only: no Pin action

    panel.resize(420, 760)
    panel.show()
    qtbot.waitExposed(panel)
    image = panel.grab()
    assert image.save(str(screenshot_dir / "t-group-panel.png"))
    assert SafeTextDocument.load_attempts == 0


def test_undo_only_for_the_newest_and_signals(qtbot):
    panel = GroupPanel()
    qtbot.addWidget(panel)
    group, originals = sample()
    panel.show_group(group, originals, is_newest=False)
    assert not panel.undo_button.isEnabled()
    assert panel.undo_hint.text()
    panel.show_group(group, originals, is_newest=True)
    assert panel.undo_button.isEnabled()
    assert panel.undo_button.text() == "Undo this compaction"
    with qtbot.waitSignal(panel.undoRequested):
        panel.undo_button.click()
    with qtbot.waitSignal(panel.closed):
        panel.close_button.click()
