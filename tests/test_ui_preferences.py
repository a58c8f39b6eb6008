"""Preferences dialog: edits a copy, blocks invalid input, returns validated Settings."""

from __future__ import annotations

import json

import pytest

from ollm_desktop.session import Settings, load_settings, save_settings
from ollm_desktop.ui.preferences.dialog import PreferencesDialog, parse_context_size

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
    assert dialog.context_combo.currentText() == "8K — 8,192 tokens"
    labels = [dialog.context_combo.itemText(i) for i in range(dialog.context_combo.count())]
    assert labels[0] == "2K — 2,048 tokens" and "32K — 32,768 tokens" in labels
    assert labels[-1] == "128K — 131,072 tokens"
    # The engine's tier is named only in the Advanced section, with what it means.
    assert "tier 2 of 5" in dialog.advanced_label.text()
    assert "num_ctx" in dialog.advanced_label.text()


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
    ("8K — 8,192 tokens", 8192), ("8,192 tokens", 8192), ("16K", 16384), (" 12000 ", 12000),
    ("1M", 1_048_576),
    ("", None), ("abc", None),
])
def test_parse_context_size(text, expected):
    assert parse_context_size(text) == expected


def test_time_limits_and_verbatim_turns_are_shown_and_edited(dialog, settings):
    assert dialog.summary_timeout_spin.value() == 180
    assert dialog.compaction_timeout_spin.value() == 480
    assert dialog.keep_turns_spin.value() == 0
    assert dialog.keep_turns_spin.text() == "Automatic"
    assert dialog.preserve_spin.text() == "Automatic"  # 0: scaled with the context size
    labels = dialog._labels
    assert labels["summary_timeout_s"] == "Summary time limit"
    assert labels["compaction_timeout_s"] == "Compaction time limit"
    assert labels["keep_recent_turns"] == "Keep the last N turns verbatim"
    dialog.summary_timeout_spin.setValue(60)
    dialog.compaction_timeout_spin.setValue(300)
    dialog.keep_turns_spin.setValue(4)
    result = dialog.result_settings()
    assert (result.summary_timeout_s, result.compaction_timeout_s) == (60.0, 300.0)
    assert result.keep_recent_turns == 4
    assert settings.summary_timeout_s == 180.0  # the input is never changed


def test_a_compaction_limit_below_the_summary_limit_is_refused(dialog):
    dialog.summary_timeout_spin.setValue(600)
    dialog.compaction_timeout_spin.setValue(300)
    assert not dialog.ok_button.isEnabled()
    assert "Compaction time limit" in dialog.error_label.text()
    dialog.compaction_timeout_spin.setValue(900)
    assert dialog.ok_button.isEnabled()
    assert dialog.result_settings().compaction_timeout_s == 900.0


def test_new_preferences_persist(tmp_path, dialog):
    dialog.summary_timeout_spin.setValue(90)
    dialog.compaction_timeout_spin.setValue(240)
    dialog.keep_turns_spin.setValue(3)
    dialog.preserve_spin.setValue(1024)
    path = tmp_path / "settings.json"
    save_settings(path, dialog.result_settings())
    loaded, notices = load_settings(path)
    assert notices == []
    assert (loaded.summary_timeout_s, loaded.compaction_timeout_s) == (90.0, 240.0)
    assert (loaded.keep_recent_turns, loaded.preserve_recent_tokens) == (3, 1024)


def test_recent_tokens_default_to_automatic_and_old_files_drop_the_forced_2048(tmp_path):
    assert Settings().preserve_recent_tokens == 0
    path = tmp_path / "settings.json"
    # A file written before the automatic default held 2048 whether or not it was chosen.
    path.write_text(json.dumps({"preserve_recent_tokens": 2048, "context_size": 32768}))
    loaded, notices = load_settings(path)
    assert notices == []
    assert loaded.preserve_recent_tokens == 0 and loaded.context_size == 32768
    # Any other value was a choice and is kept; so is 2048 once saved by this version.
    path.write_text(json.dumps({"preserve_recent_tokens": 3000}))
    assert load_settings(path)[0].preserve_recent_tokens == 3000
    save_settings(path, Settings(preserve_recent_tokens=2048))
    assert load_settings(path)[0].preserve_recent_tokens == 2048


def test_the_summarisation_model_says_what_another_model_costs(dialog):
    """Issue 21: another summary model replaces the chat model in the server's memory and
    its cache; Preferences says so where it is picked."""
    tip = dialog.summary_combo.toolTip()
    assert "replaces the chat model" in tip and "reads the whole chat again" in tip


def test_preferences_come_in_pages(dialog):
    """Issue 32: General, Models and servers, Memory, Advanced; one page at a time."""
    pages = dialog.pages
    titles = [pages.list.item(i).text() for i in range(pages.list.count())]
    assert titles == ["General", "Models and servers", "Memory", "Advanced"]
    assert pages.page_of(dialog.theme_combo) == "general"
    assert pages.page_of(dialog.host_edit) == "models"
    assert pages.page_of(dialog.context_combo) == "memory"
    assert pages.page_of(dialog.preserve_spin) == "advanced"
    dialog.show()
    assert dialog.theme_combo.isVisible() and not dialog.context_combo.isVisible()
    pages.show_page("memory")
    assert dialog.context_combo.isVisible() and not dialog.theme_combo.isVisible()
