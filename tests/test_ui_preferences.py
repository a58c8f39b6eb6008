"""Preferences dialog: edits a copy, blocks invalid input, returns validated Settings."""

from __future__ import annotations

import pytest

from ollm_desktop.settings import Settings
from ollm_desktop.ui.preferences import PreferencesDialog, parse_context_size

MODELS = ["llama3.2:3b", "qwen2.5:14b"]


@pytest.fixture
def settings() -> Settings:
    return Settings(default_model="llama3.2:3b", context_size=8192, keep_alive="10m",
                    window_geometry="abc")


@pytest.fixture
def dialog(qtbot, settings):
    widget = PreferencesDialog(settings, MODELS, None)
    qtbot.addWidget(widget)
    return widget


def test_names_and_initial_values(dialog, settings):
    assert dialog.objectName() == "preferencesDialog" and dialog.accessibleName()
    assert dialog.ok_button.isEnabled()
    assert dialog.error_label.isHidden()
    assert dialog.result_settings() == settings
    assert dialog.model_combo.currentText() == "llama3.2:3b"
    assert "Tier 2 · 8K" in dialog.context_combo.currentText()
    labels = [dialog.context_combo.itemText(i) for i in range(dialog.context_combo.count())]
    assert any("Tier 1 · 2K" in label for label in labels)
    assert any("Tier 4 · 32K" in label for label in labels)
    assert any("Tier 5" in label and "128K" in label for label in labels)


def test_result_has_changes_without_mutating_input(dialog, settings):
    before = settings.model_dump()
    dialog.host_edit.setText("http://10.0.0.5:11434")
    dialog.context_combo.setCurrentIndex(dialog.context_combo.findData(16384))
    dialog.trigger_spin.setValue(70)
    dialog.preserve_spin.setValue(4096)
    dialog.preserve_user_check.setChecked(False)
    dialog.summary_combo.setCurrentText("qwen2.5:14b")
    dialog.keep_alive_edit.setText("1h30m")
    dialog.retention_spin.setValue(50)
    dialog.theme_combo.setCurrentIndex(dialog.theme_combo.findData("dark"))
    dialog.start_combo.setCurrentIndex(dialog.start_combo.findData("never"))
    dialog.timeout_spin.setValue(30)
    dialog.prompt_edit.setPlainText("Answer in French.\nBe brief.")
    result = dialog.result_settings()
    assert settings.model_dump() == before
    assert result.ollama_host == "http://10.0.0.5:11434"
    assert result.context_size == 16384
    assert result.trigger_ratio == pytest.approx(0.70)
    assert result.preserve_recent_tokens == 4096
    assert result.preserve_user_messages is False
    assert result.summarization_model == "qwen2.5:14b"
    assert result.keep_alive == "1h30m"
    assert result.snapshot_retention == 50
    assert result.theme == "dark"
    assert result.start_ollama == "never"
    assert result.request_timeout == 30.0
    assert result.system_prompt == "Answer in French.\nBe brief."
    assert result.window_geometry == "abc"  # fields the dialog does not show are kept
    # The returned copy is independent of the dialog's later edits.
    dialog.trigger_spin.setValue(90)
    assert result.trigger_ratio == pytest.approx(0.70)


def test_blank_optional_fields_become_none(dialog):
    dialog.model_combo.setCurrentText("  ")
    dialog.summary_combo.setCurrentText("")
    result = dialog.result_settings()
    assert result.default_model is None and result.summarization_model is None


def test_custom_context_size_typed(dialog):
    dialog.context_combo.setCurrentText("12000")
    assert dialog.result_settings().context_size == 12000
    dialog.context_combo.setCurrentText("24K")
    assert dialog.result_settings().context_size == 24576


@pytest.mark.parametrize(("setter", "fragment"), [
    (lambda d: d.context_combo.setCurrentText("500"), "Context size"),
    (lambda d: d.context_combo.setCurrentText("lots"), "Context size"),
    (lambda d: d.keep_alive_edit.setText("soon"), "Keep model loaded"),
    (lambda d: d.host_edit.setText("ftp://x y"), "Host"),
])
def test_invalid_input_blocks_ok_with_inline_message(dialog, settings, setter, fragment):
    before = settings.model_dump()
    setter(dialog)
    assert not dialog.ok_button.isEnabled()
    assert not dialog.error_label.isHidden()
    assert fragment in dialog.error_label.text()
    with pytest.raises(ValueError):
        dialog.result_settings()
    dialog.accept()  # pressing Enter must not accept either
    assert dialog.result() == 0
    assert settings.model_dump() == before


def test_fixing_input_reenables_ok(dialog):
    dialog.context_combo.setCurrentText("500")
    assert not dialog.ok_button.isEnabled()
    dialog.context_combo.setCurrentText("4096")
    assert dialog.ok_button.isEnabled() and dialog.error_label.isHidden()
    assert dialog.result_settings().context_size == 4096


def test_accept_with_valid_input(dialog, qtbot):
    with qtbot.waitSignal(dialog.accepted, timeout=1000):
        dialog.ok_button.click()
    assert dialog.result() == 1


@pytest.mark.parametrize(("text", "expected"), [
    ("8,192 — Tier 2 · 8K", 8192), ("16K", 16384), (" 12000 ", 12000), ("1M", 1_048_576),
    ("", None), ("abc", None),
])
def test_parse_context_size(text, expected):
    assert parse_context_size(text) == expected
