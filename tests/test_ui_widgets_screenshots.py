"""Renders the widgets with realistic data and saves screenshots for the docs.

Images go to $OLLM_SCREENSHOT_DIR when set (docs/screenshots for the docs), else to a temp
folder; either way each must be a non-trivial image.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QStatusBar, QVBoxLayout, QWidget

from ollm_desktop.engine.models import GoalArtifact, GoalCheckpoint, GoalDecision, GoalState
from ollm_desktop.session import Settings
from ollm_desktop.ui import theme
from ollm_desktop.ui.composer.context_meter import ContextMeter
from ollm_desktop.ui.preferences.dialog import PreferencesDialog
from ollm_desktop.ui.side_panel.goal_panel import GoalPanel
from ollm_desktop.ui.side_panel.snapshot_browser import SnapshotBrowser
from ollm_desktop.ui.status.compaction_progress import CompactionProgress
from ollm_desktop.ui.status.ollama_banner import OllamaBanner
from ollm_desktop.ui.status.reliability import ReliabilityIndicator
from tests.test_ui_snapshot_browser import FakeController, make_snapshot
from tests.test_ui_widgets import make_reliability, make_usage


@pytest.fixture(params=["light", "dark"])
def shots(request, qapp, screenshot_dir):
    style, palette = qapp.style().name(), qapp.palette()
    theme.apply_theme(qapp, request.param)
    folder = screenshot_dir
    suffix = "" if request.param == "light" else "-dark"
    yield lambda name: folder / f"{name}{suffix}.png"
    theme.apply_theme(qapp, "system")
    qapp.setStyle(style)
    qapp.setPalette(palette)


def save(qtbot, widget: QWidget, path: Path) -> None:
    widget.show()
    qtbot.waitExposed(widget)
    assert widget.grab().save(str(path))
    image = QImage(str(path))
    assert image.width() > 200 and image.height() > 20
    # Not blank: many distinct colours over a sample grid (text, borders, fills).
    colours = {image.pixel(x, y) for x in range(0, image.width(), 3)
               for y in range(0, image.height(), 3)}
    assert len(colours) > 10


def test_screenshot_status_widgets(qtbot, shots):
    host = QWidget()
    qtbot.addWidget(host)
    layout = QVBoxLayout(host)
    progress = CompactionProgress()
    progress.start()
    progress.set_progress("summarization", 45)
    layout.addWidget(progress)
    for usage, reliability in (
        (make_usage(3100, compaction_count=0),  # a fresh chat: neutral, not "Critical"
         make_reliability("high", 1.0)),
        (make_usage(5234), make_reliability("medium", 0.66)),
        (make_usage(6900, dropped_messages=3, compaction_count=4,
                    note="3 older messages are left out of the context to fit."),
         make_reliability("critical", 0.21)),
    ):
        bar = QStatusBar()
        meter, indicator = ContextMeter(), ReliabilityIndicator()
        meter.set_usage(usage)
        indicator.set_reliability(reliability, usage.compaction_count)
        bar.addPermanentWidget(indicator)
        bar.addPermanentWidget(meter)
        layout.addWidget(bar)
    host.resize(900, host.sizeHint().height())
    save(qtbot, host, shots("status"))


def test_screenshot_banner(qtbot, shots):
    host = QWidget()
    qtbot.addWidget(host)
    layout = QVBoxLayout(host)
    unreachable = OllamaBanner()
    unreachable.show_unreachable("http://127.0.0.1:11434", can_start=True)
    missing = OllamaBanner()
    missing.show_model_missing("llama3.2:3b")
    missing.set_pull_progress("pulling dde5aa3fc5ff", 700_000_000, 2_019_393_189)
    layout.addWidget(unreachable)
    layout.addWidget(missing)
    layout.addStretch(1)
    height = host.heightForWidth(760) if host.hasHeightForWidth() else -1
    host.resize(760, height if height > 0 else host.sizeHint().height())
    save(qtbot, host, shots("banner"))


def test_screenshot_goal_panel(qtbot, shots):
    panel = GoalPanel(None)
    qtbot.addWidget(panel)
    panel.set_goal(GoalState(
        description="Build a CSV importer with validation and a progress report",
        priority="high",
        checkpoints=[GoalCheckpoint(description="Parse the header row", status="completed"),
                     GoalCheckpoint(description="Map columns to fields", status="in-progress"),
                     GoalCheckpoint(description="Write tests for quoting")],
        decisions=[GoalDecision(description="Use the stdlib csv module", locked=True),
                   GoalDecision(description="Reject files over 50 MB")],
        artifacts=[GoalArtifact(action="Created", path="src/importer.py"),
                   GoalArtifact(action="Modified", path="tests/test_importer.py")],
        next_steps=["Handle quoted newlines", "Report skipped rows"],
    ))
    panel.resize(320, 520)
    save(qtbot, panel, shots("goal-panel"))


def test_screenshot_snapshot_browser(qtbot, shots):
    controller = FakeController([
        make_snapshot(1, reason="before-compaction", messages=14),
        make_snapshot(2, reason="auto-threshold", messages=22),
        make_snapshot(3, reason="manual", label="before refactor", messages=30),
        make_snapshot(4, reason="before-restore", messages=30),
    ])
    browser = SnapshotBrowser(controller, None)
    qtbot.addWidget(browser)
    browser.refresh()
    browser.select("snap3")
    browser.resize(browser.sizeHint())
    save(qtbot, browser, shots("snapshot-browser"))


def test_screenshot_preferences(qtbot, shots):
    settings = Settings(default_model="llama3.2:3b",
                        system_prompt="You are a careful assistant. Answer concisely.")
    dialog = PreferencesDialog(settings, ["llama3.2:3b", "qwen2.5:14b", "mistral:7b"], None)
    qtbot.addWidget(dialog)
    dialog.keep_alive_edit.setText("10 minutes")  # show the inline validation message
    dialog.resize(dialog.sizeHint())
    save(qtbot, dialog, shots("preferences"))
    assert not dialog.ok_button.isEnabled()
