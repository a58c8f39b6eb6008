"""Status widgets, banner, goal panel and small dialogs: they show what they are given."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from ollm_desktop.engine.models import (
    ContextUsage,
    GoalArtifact,
    GoalCheckpoint,
    GoalDecision,
    GoalState,
    Reliability,
)
from ollm_desktop.ui import theme
from ollm_desktop.ui.composer.context_meter import ContextMeter, format_context_size
from ollm_desktop.ui.dialogs import short_dialogs as dialogs
from ollm_desktop.ui.side_panel.goal_panel import GoalPanel, lock_symbol
from ollm_desktop.ui.status.compaction_progress import CompactionProgress
from ollm_desktop.ui.status.ollama_banner import OllamaBanner
from ollm_desktop.ui.status.reliability import ReliabilityIndicator


def make_usage(total: int, usable: int = 6800, **extra) -> ContextUsage:
    fields = dict(context_size=8192, usable=usable, system=300, goal=80, checkpoints=900,
                  preserved=120, pinned=60, recent=total - 1400, total=total,
                  available=usable - 1400, trigger=int(0.8 * (usable - 1400)), tier=2,
                  tier_name="Basic", percent=round(total / usable, 4), compaction_count=2,
                  checkpoint_count=1, dropped_messages=0, over_budget=False)
    fields.update(extra)
    return ContextUsage(**fields)


def make_reliability(level: str, score: float, recs: list[str] | None = None) -> Reliability:
    """``score`` is the chat's own figure (the level's); the model factor 0.5 is beside it."""
    return Reliability(score=score * 0.5, level=level, model_factor=0.5,
                       compression_penalty=0.7, context_confidence=0.9,
                       warning=level == "critical", explanation=f"explained {level}",
                       recommendations=recs or [], chat_score=score, model_size="7B",
                       model_known=True, model_note="Mid-size models (7-13B) summarise fairly "
                       "reliably")


# ------------------------------------------------------------------ objectNames
@pytest.mark.parametrize(("factory", "name"), [
    (ContextMeter, "contextMeter"),
    (ReliabilityIndicator, "reliabilityIndicator"),
    (CompactionProgress, "compactionProgress"),
    (OllamaBanner, "ollamaBanner"),
    (lambda: GoalPanel(None), "goalPanel"),
])
def test_object_and_accessible_names(qtbot, factory, name):
    widget = factory()
    qtbot.addWidget(widget)
    assert widget.objectName() == name
    assert widget.accessibleName()


# ------------------------------------------------------------------ context meter
def test_meter_text_shows_total_usable_percent_and_compressions(qtbot):
    meter = ContextMeter()
    qtbot.addWidget(meter)
    meter.set_usage(make_usage(5234))
    text = meter.text_label.text()
    assert "5,234" in text and "6,800" in text
    assert f"{round(5234 / 6800 * 100)}%" in text
    assert "2 compressions" in text
    # Issue 25: plain words in the bar, the tier explained in the tooltip.
    assert meter.tier_label.text() == "Context: 8,192 tokens"
    assert "older messages are summarised into one summary" in meter.toolTip()
    assert "Tier" not in text and "Tier" not in meter.toolTip()
    assert meter.bar.value() == round(5234 / 6800 * 1000)


def test_meter_singular_and_no_compressions(qtbot):
    meter = ContextMeter()
    qtbot.addWidget(meter)
    meter.set_usage(make_usage(1000, compaction_count=1))
    assert "1 compression" in meter.text_label.text()
    assert "compressions" not in meter.text_label.text()
    meter.set_usage(make_usage(1000, compaction_count=0))
    assert "compression" not in meter.text_label.text()


def test_meter_colour_follows_level(qtbot):
    meter = ContextMeter()
    qtbot.addWidget(meter)
    colours = {}
    # Low fill, recent far below the trigger.
    meter.set_usage(make_usage(2000))
    colours[meter.level] = meter.bar.palette().color(QPalette.ColorRole.Highlight).name()
    # Recent tokens right at the trigger.
    usage = make_usage(4000)
    meter.set_usage(usage.model_copy(update={"recent": usage.trigger}))
    colours[meter.level] = meter.bar.palette().color(QPalette.ColorRole.Highlight).name()
    meter.set_usage(make_usage(7000))  # above the usable context
    colours[meter.level] = meter.bar.palette().color(QPalette.ColorRole.Highlight).name()
    assert list(colours) == ["ok", "warn", "over"]
    assert len(set(colours.values())) == 3
    assert meter.bar.value() == 1000  # clamped


def test_meter_tooltip_breaks_down_and_note_is_shown(qtbot):
    meter = ContextMeter()
    qtbot.addWidget(meter)
    meter.set_usage(make_usage(3000))
    assert meter.note_label.isHidden()
    tip = meter.toolTip()
    for word in ("System prompt", "Goal", "Checkpoints", "Preserved", "Pinned", "Recent",
                 "Available", "trigger"):
        assert word in tip
    assert "900" in tip  # checkpoint tokens
    note = "Pinned messages alone exceed the usable context: unpin some to continue."
    meter.set_usage(make_usage(3000, over_budget=True, note=note))
    assert not meter.note_label.isHidden()
    assert meter.note_label.text().startswith("⚠ Pinned")
    assert meter.level == "over"
    assert note in meter.toolTip()
    meter.set_usage(make_usage(3000))
    assert meter.note_label.isHidden()


def test_format_context_size():
    assert format_context_size(2048) == "2K"
    assert format_context_size(131072) == "128K"
    assert format_context_size(1_048_576) == "1M"
    assert format_context_size(12000) == "12,000"


# ------------------------------------------------------------------ reliability
def test_reliability_colours_text_and_tooltip(qtbot):
    indicator = ReliabilityIndicator()
    qtbot.addWidget(indicator)
    seen = {}
    for level, score in (("high", 0.9), ("medium", 0.7), ("low", 0.45), ("critical", 0.2)):
        indicator.set_reliability(make_reliability(level, score, ["Use a larger model"]))
        seen[level] = indicator.dot.color.name()
        assert level.capitalize() in indicator.label.text()
        assert f"{round(score * 100)}%" in indicator.label.text()
    assert len(set(seen.values())) == 4
    assert seen["high"] == theme.status_color("high").name()
    assert seen["critical"] == theme.status_color("critical").name()
    tip = indicator.toolTip()
    for fragment in ("20%", "×0.70", "×0.90", "Use a larger model", "Recommendations",
                     "Mid-size models"):
        assert fragment in tip
    # One figure: the tooltip's only percentage is the one beside the dot (issue 32).
    import re
    assert set(re.findall(r"\d+%", tip)) == set(re.findall(r"\d+%", indicator.label.text()))


def test_reliability_counts_the_facts_the_facts_panel_lists(qtbot):
    indicator = ReliabilityIndicator()
    qtbot.addWidget(indicator)
    indicator.set_reliability(make_reliability("high", 0.9))
    indicator.set_stated_facts(12, 9)
    assert "You stated 12 facts" in indicator.toolTip()
    assert "sends 9 of them" in indicator.toolTip()


def test_reliability_without_recommendations_has_no_list(qtbot):
    indicator = ReliabilityIndicator()
    qtbot.addWidget(indicator)
    indicator.set_reliability(make_reliability("high", 0.95))
    assert "Recommendations" not in indicator.toolTip()


# ------------------------------------------------------------ compaction progress
def test_progress_shows_stage_and_hides_on_finish(qtbot):
    progress = CompactionProgress()
    qtbot.addWidget(progress)
    assert progress.isHidden()
    progress.start()
    assert not progress.isHidden()
    progress.set_progress("summarization", 45.2)
    assert progress.label.text() == "Summarising older messages… 45%"
    assert progress.bar.value() == 45
    progress.set_progress("checkpoint", 75)
    assert "checkpoint" in progress.label.text().lower()
    progress.set_progress("checkpoint creation", 78)
    assert "checkpoint" in progress.label.text().lower()
    progress.set_progress("some new stage", 80)
    assert progress.label.text().startswith("Some new stage")
    progress.finish("")
    assert progress.isHidden()


def test_progress_finish_message_lingers_then_hides(qtbot):
    progress = CompactionProgress()
    qtbot.addWidget(progress)
    progress.linger_ms = 50
    progress.start()
    progress.finish("Compacted 12 messages")
    assert not progress.isHidden()
    assert progress.label.text() == "Compacted 12 messages"
    qtbot.waitUntil(progress.isHidden, timeout=2000)


def test_progress_restart_cancels_pending_hide(qtbot):
    progress = CompactionProgress()
    qtbot.addWidget(progress)
    progress.linger_ms = 30
    progress.finish("done")
    progress.set_progress("validation", 95)  # a new compaction already reports progress
    assert not progress.isHidden()
    qtbot.wait(100)  # longer than linger_ms: the old hide must not fire
    assert not progress.isHidden()
    assert progress.bar.value() == 95


# ------------------------------------------------------------------ banner
def test_banner_unreachable_mode_and_signals(qtbot):
    banner = OllamaBanner()
    qtbot.addWidget(banner)
    assert banner.isHidden()
    banner.show_unreachable("http://127.0.0.1:11434", can_start=False)
    assert banner.mode == "unreachable" and not banner.isHidden()
    text = banner.message_label.text()
    assert "http://127.0.0.1:11434" in text and "ollama serve" in text
    assert not banner.retry_button.isHidden()
    assert banner.start_button.isHidden()
    banner.show_unreachable("http://h:1", can_start=True)
    assert not banner.start_button.isHidden()
    with qtbot.waitSignal(banner.retryRequested, timeout=1000):
        banner.retry_button.click()
    with qtbot.waitSignal(banner.startOllamaRequested, timeout=1000):
        banner.start_button.click()
    banner.hide_banner()
    assert banner.isHidden() and banner.mode == "hidden"


def test_banner_model_missing_pull_and_progress(qtbot):
    banner = OllamaBanner()
    qtbot.addWidget(banner)
    banner.show_model_missing("llama3.2:3b")
    assert banner.mode == "model_missing"
    assert banner.pull_button.text() == "Pull llama3.2:3b"
    assert banner.retry_button.isHidden()
    with qtbot.waitSignal(banner.pullRequested, timeout=1000) as blocker:
        banner.pull_button.click()
    assert blocker.args == ["llama3.2:3b"]
    assert not banner.pull_button.isEnabled()
    assert not banner.pull_bar.isHidden()
    banner.set_pull_progress("pulling manifest", None, None)
    assert banner.pull_bar.maximum() == 0  # busy until sizes are known
    banner.set_pull_progress("pulling abc", 512 * 1024 * 1024, 2 * 1024 * 1024 * 1024)
    assert banner.pull_bar.value() == 250
    assert "512.0 MB" in banner.pull_status.text() and "2.0 GB" in banner.pull_status.text()
    banner.set_pull_progress("success", None, None)
    assert banner.pull_bar.value() == banner.pull_bar.maximum()
    assert "llama3.2:3b" in banner.pull_status.text()
    banner.show_model_missing("other")  # a new mode resets the download state
    assert banner.pull_button.isEnabled() and banner.pull_bar.isHidden()


def test_banner_error_is_escaped_and_dismissable(qtbot):
    banner = OllamaBanner()
    qtbot.addWidget(banner)
    banner.show_error("model <b>x</b> failed")
    assert banner.mode == "error"
    assert "&lt;b&gt;" in banner.message_label.text()
    banner.dismiss_button.click()
    assert banner.isHidden()


# ------------------------------------------------------------------ goal panel
def test_goal_panel_empty_state(qtbot):
    panel = GoalPanel(None)
    qtbot.addWidget(panel)
    assert panel.windowTitle() == "Goal"
    assert not panel.empty_label.isHidden()
    assert "No goal yet" in panel.empty_label.text()
    assert all(content.isHidden() for _, content in panel.sections.values())


def test_goal_panel_shows_items(qtbot):
    panel = GoalPanel(None)
    qtbot.addWidget(panel)
    goal = GoalState(
        description="Build a CSV importer",
        checkpoints=[GoalCheckpoint(description="Parse header", status="completed"),
                     GoalCheckpoint(description="Map columns", status="in-progress"),
                     GoalCheckpoint(description="Write tests")],
        decisions=[GoalDecision(description="Use <stdlib> csv", locked=True),
                   GoalDecision(description="UTF-8 only")],
        artifacts=[GoalArtifact(action="Created", path="src/importer.py")],
        next_steps=["Handle quoted newlines"],
    )
    panel.set_goal(goal)
    assert panel.empty_label.isHidden()
    assert panel.editor.toPlainText() == "Build a CSV importer"
    checkpoints = panel.sections["checkpoints"][1].text()
    assert "✓ Parse header" in checkpoints
    assert "◐ Map columns" in checkpoints
    assert "○ Write tests" in checkpoints
    decisions = panel.sections["decisions"][1].text()
    lock = lock_symbol()
    assert f"{lock} Use &lt;stdlib&gt; csv" in decisions
    assert f"{lock} UTF-8" not in decisions and "UTF-8 only" in decisions
    assert "Created" in panel.sections["artifacts"][1].text()
    assert "src/importer.py" in panel.sections["artifacts"][1].text()
    assert "Handle quoted newlines" in panel.sections["next_steps"][1].text()
    assert not panel.save_button.isEnabled()


def test_goal_panel_emits_edit_and_keeps_draft(qtbot):
    panel = GoalPanel(None)
    qtbot.addWidget(panel)
    panel.set_goal(GoalState(description="Old goal"))
    panel.editor.setPlainText("  New goal  ")
    assert panel.save_button.isEnabled()
    # A goal update arriving mid-edit must not wipe the user's draft.
    panel.set_goal(GoalState(description="Old goal", next_steps=["x"]))
    assert panel.editor.toPlainText() == "  New goal  "
    with qtbot.waitSignal(panel.goalEdited, timeout=1000) as blocker:
        panel.save_button.click()
    assert blocker.args == ["New goal"]
    panel.set_goal(GoalState(description="New goal"))  # the controller echoes it back
    assert not panel.save_button.isEnabled()


# ------------------------------------------------------------------ dialogs
def test_reliability_warning_bar_follows_seed(qtbot):
    from ollm_desktop.ui.status.warning_bar import ReliabilityWarningBar

    bar = ReliabilityWarningBar()
    qtbot.addWidget(bar)
    reliability = make_reliability("critical", 0.21, ["Continue if making good progress",
                                                      "Use a larger model for complex tasks"])
    bar.show_warning(reliability, "llama3.2:3b", 3)
    text = bar.text.text()
    assert bar.isVisible()
    assert "This conversation with llama3.2:3b has been compressed 3 times" in text
    assert "Reliability is critical (21%)" in text and "Mid-size models" in text
    assert "Use a larger model for complex tasks" in text
    bar.update_figures(make_reliability("critical", 0.3), "m", 1)
    assert "has been compressed once" in bar.text.text() and "30%" in bar.text.text()
    assert "Start a new conversation if you see hallucinations" in bar.text.text()
    with qtbot.waitSignal(bar.dismissed, timeout=1000):
        bar.close_button.click()
    assert not bar.isVisible()


def test_reliability_before_any_compression_is_neutral(qtbot):
    indicator = ReliabilityIndicator()
    qtbot.addWidget(indicator)
    fresh = make_reliability("high", 1.0)
    indicator.set_reliability(fresh, compressions=0)
    assert "Critical" not in indicator.label.text()
    assert indicator.dot.color.name() == theme.status_color("idle").name()
    assert "Nothing has been compressed yet" in indicator.toolTip()
    assert indicator.label.text() == "Not compressed"
    assert indicator.model_label.text() == "· Mid-size models (7-13B) summarise fairly reliably"
    indicator.set_reliability(fresh, compressions=1)
    assert indicator.label.text() == "Reliability: High (100%)"


def test_compact_dialog_focus_text(qtbot):
    dialog = dialogs.CompactDialog()
    qtbot.addWidget(dialog)
    assert dialog.objectName() == "compactDialog" and dialog.accessibleName()
    assert dialog.focus_text() == ""
    dialog.focus_edit.setText("  the schema  ")
    assert dialog.focus_text() == "the schema"


def _answer_modal(qtbot, action) -> None:
    """Acts on the next modal dialog once it is up (the only way to test a blocking exec)."""
    def poll() -> None:
        widget = QApplication.activeModalWidget()
        if widget is None:
            from PySide6.QtCore import QTimer
            QTimer.singleShot(10, poll)
        else:
            action(widget)
    from PySide6.QtCore import QTimer
    QTimer.singleShot(0, poll)


def test_ask_compact_focus_returns_text_empty_or_none(qtbot):
    def accept_with(text):
        def act(widget):
            widget.focus_edit.setText(text)
            widget.accept()
        return act

    _answer_modal(qtbot, accept_with("  decisions "))
    assert dialogs.ask_compact_focus(None) == "decisions"
    _answer_modal(qtbot, accept_with(""))
    assert dialogs.ask_compact_focus(None) == ""
    _answer_modal(qtbot, lambda w: w.reject())
    assert dialogs.ask_compact_focus(None) is None


def test_ask_snapshot_label(qtbot):
    def accept_with(widget):
        widget.setTextValue(" before refactor ")
        widget.done(QDialog.DialogCode.Accepted)

    _answer_modal(qtbot, accept_with)
    assert dialogs.ask_snapshot_label(None) == "before refactor"
    _answer_modal(qtbot, lambda w: w.reject())
    assert dialogs.ask_snapshot_label(None) is None


def test_about_lists_versions_and_paths(qtbot, tmp_path):
    box = dialogs.about_box(None, {"ollm-desktop": "0.1.0", "PySide6": "6.12.0"},
                            {"Data": str(tmp_path)})
    qtbot.addWidget(box)
    assert "0.1.0" in box.text()
    assert "6.12.0" in box.informativeText()
    assert str(tmp_path) in box.informativeText()
    assert box.icon() == QMessageBox.Icon.Information


# ------------------------------------------------------------------ theme
@pytest.fixture
def restore_theme(qapp):
    palette, sheet = qapp.palette(), qapp.styleSheet()
    yield
    theme.apply_theme(qapp, "system")
    qapp.setPalette(palette)
    qapp.setStyleSheet(sheet)


def test_apply_theme_dark_and_light(qapp, restore_theme):
    theme.apply_theme(qapp, "dark")
    assert theme.apply.base_style_name(qapp) == "fusion"
    assert theme.is_dark(qapp.palette())
    theme.apply_theme(qapp, "light")
    assert not theme.is_dark(qapp.palette())
    assert theme.current_theme() == "light"
    theme.apply_theme(qapp, "dark")
    theme.apply_theme(qapp, "system")  # the offscreen platform reports no dark scheme
    assert not theme.is_dark(qapp.palette())
