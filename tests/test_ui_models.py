"""The model picker at the top of the chat and Preferences ▸ Models (issue 32): each model's
size, context and capabilities; downloading with progress and Cancel; deleting with an inline
confirmation (never a modal box), and a delete or download that fails said beside it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QDialog, QLabel, QMessageBox

from ollm_desktop.backend.models import ModelInfo
from ollm_desktop.ui.preferences.installed_models import InstalledModelsBox
from ollm_desktop.ui.text.model_details import capability_tags, context_text, size_text, tooltip
from ollm_desktop.ui.text.model_rows import MODEL_ROLE
from tests.controller_harness import MODEL, run, scripted_model, settle, until
from tests.ollama_server import FakeModel

SHOTS = Path(os.environ.get("OLLM_UI_SHOTS", "/tmp"))
SEEING = FakeModel("gemma3:4b", "gemma3", "4.3B", 131072, size=3_300_000_000,
                   capabilities=("completion", "vision"))
EMBEDDING = FakeModel("nomic-embed-text", "nomic-bert", "137M", 2048, size=274_000_000,
                      capabilities=("embedding",))
THINKING = FakeModel("qwen3:4b", "qwen3", "4.0B", 40960, size=2_600_000_000,
                     capabilities=("completion", "tools", "thinking"))


@pytest.fixture
def server(ollama_server):
    ollama_server.models = [FakeModel(MODEL, "llama", "3.2B", 131072, size=2_000_000_000,
                                      capabilities=("completion", "tools")), SEEING, THINKING,
                            EMBEDDING]
    ollama_server.reply_fn = scripted_model(reply_words=40)
    return ollama_server



# ------------------------------------------------------------------ words
def test_sizes_contexts_and_tags_read_as_people_write_them() -> None:
    assert (size_text(4_920_000_000), size_text(291_000_000), size_text(None)) == (
        "4.9 GB", "291 MB", "")
    assert (context_text(131072), context_text(40960), context_text(2000)) == (
        "128K context", "40K context", "2,000 context")
    known = ModelInfo(name="m", vision=True, tools=False, thinking=True, described=True)
    assert capability_tags(known) == ["Vision", "Thinking"]
    assert "cannot use tools" in tooltip(known) and "sees images" in tooltip(known)
    silent = ModelInfo(name="m", described=True)
    assert "does not say what it can do" in tooltip(silent)
    assert "Asking the server" in tooltip(ModelInfo(name="m"))
    assert capability_tags(ModelInfo(name="e", embedding_only=True, described=True)) == [
        "Embeddings only"]


# ------------------------------------------------------------------ picker
def test_the_picker_shows_each_models_size_context_and_capabilities(app, qtbot) -> None:
    selector = app.find(QComboBox, "modelSelector")
    names = [selector.itemText(i) for i in range(selector.count())]
    assert names == [MODEL, "gemma3:4b", "qwen3:4b", "nomic-embed-text"]  # still the names
    items = selector.model()
    assert [items.item(i).isEnabled() for i in range(4)] == [True, True, True, False]
    assert "cannot chat" in selector.itemData(3, Qt.ItemDataRole.ToolTipRole)
    assert all(selector.itemData(i) is None for i in range(selector.count()))
    rows = {selector.itemText(i): selector.itemData(i, MODEL_ROLE)
            for i in range(selector.count())}
    assert rows["qwen3:4b"].context_length == 40960 and rows["qwen3:4b"].thinking
    assert "sees images" in selector.itemData(1, Qt.ItemDataRole.ToolTipRole)
    facts = app.find(QLabel, "modelFacts")
    assert selector.currentText() == MODEL
    assert facts.text() == "2.0 GB · 3.2B · 128K context  ·  Tools"
    selector.setCurrentIndex(2)
    assert "40K context" in facts.text() and "Thinking" in facts.text()
    # The popup's rows are two lines high: the facts line under the name.
    delegate = selector.itemDelegate()
    option = selector.view().viewOptions() if hasattr(selector.view(), "viewOptions") else None
    from PySide6.QtWidgets import QStyleOptionViewItem

    option = option or QStyleOptionViewItem()
    option.font = selector.font()
    tall = delegate.sizeHint(option, selector.model().index(2, 0)).height()
    assert tall > 1.6 * selector.fontMetrics().height()
    selector.showPopup()
    qtbot.waitUntil(lambda: selector.view().isVisible())
    popup = selector.view().window()
    assert popup.grab().save(str(SHOTS / "model-picker-popup.png"))
    selector.hidePopup()


# ------------------------------------------------------------- Models page
def box_for(app, qtbot) -> InstalledModelsBox:
    box = InstalledModelsBox(app.controller)
    qtbot.addWidget(box)
    box.show()
    app.controller.refresh_ollama()
    run(app.loop, settle(app.controller))
    return box


def test_delete_asks_inline_then_deletes(app, qtbot, server) -> None:
    box = box_for(app, qtbot)
    assert not box.delete_button.isEnabled()  # nothing chosen
    assert "Choose a model" in box.delete_button.toolTip()
    box.list.setCurrentRow(1)
    assert box.delete_button.isEnabled()
    box.delete_button.click()
    assert box.confirm_row.isVisible() and "gemma3:4b (3.3 GB)" in box.confirm_text.text()
    assert not [w for w in box.window().findChildren(QMessageBox)]
    assert not any(isinstance(w, QDialog) and w.isModal() and w.isVisible()
                   for w in box.window().findChildren(QDialog))
    assert "This chat uses it" not in box.confirm_text.text()
    box.keep_button.click()
    assert box.confirm_row.isHidden()
    box.list.setCurrentRow(0)  # the chat's own model: the question says so
    box.delete_button.click()
    assert "This chat uses it" in box.confirm_text.text()
    box.keep_button.click()
    box.list.setCurrentRow(1)
    box.list.setFocus()
    QTest.keyClick(box.list, Qt.Key.Key_Delete)  # from the keyboard: the same question
    assert box.confirm_row.isVisible() and "gemma3:4b" in box.confirm_text.text()
    box.keep_button.click()
    assert "gemma3:4b" in [m.name for m in server.models]
    box.delete_button.click()
    box.confirm_button.click()
    run(app.loop, settle(app.controller))
    assert "gemma3:4b" not in [m.name for m in server.models]
    assert [box.list.item(i).text() for i in range(box.list.count())] == [
        MODEL, "qwen3:4b", "nomic-embed-text"]
    assert "gemma3:4b was deleted" in box.note.text()
    selector = app.find(QComboBox, "modelSelector")
    assert selector.findText("gemma3:4b") < 0


def test_a_failed_delete_is_said_beside_it_and_the_model_stays(app, qtbot, server) -> None:
    box = box_for(app, qtbot)
    server.fail("/api/delete", 500, "permission denied")
    box.list.setCurrentRow(1)
    box.delete_button.click()
    box.confirm_button.click()
    run(app.loop, settle(app.controller))
    assert "permission denied" in box.note.text()
    assert box.list.count() == 4 and box.delete_button.isEnabled()


def test_download_shows_progress_and_can_be_cancelled(app, qtbot, server) -> None:
    box = box_for(app, qtbot)
    assert not box.pull_button.isEnabled() and "Type the name" in box.pull_button.toolTip()
    server.pullable["big:70b"] = FakeModel("big:70b", size=40_000_000_000)
    server.pull_delay = 0.15
    box.name_edit.setText("big:70b")
    box.pull_button.click()
    assert box.progress.isVisible() and box.cancel_button.isVisible()
    assert not box.pull_button.isEnabled() and "is downloading" in box.pull_button.toolTip()

    async def halfway() -> None:
        await until(lambda: box.progress.value() > 0)

    run(app.loop, halfway())
    assert "big:70b:" in box.progress_text.text() and "of 40.0 GB" in box.progress_text.text()
    box.grab().save(str(SHOTS / "models-box-pulling.png"))
    box.cancel_button.click()
    run(app.loop, settle(app.controller))
    assert "cancelled" in box.note.text() and box.progress.isHidden()
    assert "big:70b" not in [m.name for m in server.models]
    assert box.pull_button.isEnabled()  # the name is still there: Download again


def test_a_download_that_fails_is_said_and_one_that_works_is_listed(app, qtbot, server) -> None:
    box = box_for(app, qtbot)
    box.name_edit.setText("no-such-model:1b")
    box.pull_button.click()
    run(app.loop, settle(app.controller))
    assert "no model named no-such-model:1b" in box.note.text()
    assert box.progress.isHidden()
    server.pullable["tinyllama:1b"] = FakeModel("tinyllama:1b", size=640_000_000,
                                                capabilities=("completion",))
    box.name_edit.setText("tinyllama:1b")
    box.pull_button.click()
    run(app.loop, settle(app.controller))
    assert "tinyllama:1b is ready" in box.note.text() and not box.name_edit.text()
    assert "tinyllama:1b" in [box.list.item(i).text() for i in range(box.list.count())]


def test_a_server_that_cannot_delete_or_download_says_so(app, qtbot) -> None:
    from ollm_desktop.controller import OllamaStatus

    box = box_for(app, qtbot)
    box.set_status(OllamaStatus(reachable=True, host="http://gpu:8000", server="vLLM",
                                can_pull=False, can_delete=False))
    box.list.setCurrentRow(0)
    box.name_edit.setText("x")
    assert not box.delete_button.isEnabled() and "vLLM cannot delete" in \
        box.delete_button.toolTip()
    assert not box.pull_button.isEnabled() and "vLLM cannot download" in \
        box.pull_button.toolTip()


def test_preferences_has_the_box_on_its_models_page(app, qtbot, server) -> None:
    from ollm_desktop.session import Settings
    from ollm_desktop.ui.preferences import installed_models
    from ollm_desktop.ui.preferences.dialog import PreferencesDialog

    dialog = PreferencesDialog(Settings(), [MODEL], None)
    qtbot.addWidget(dialog)
    box = installed_models.add_to(dialog, app.controller)
    assert box is not None and dialog.pages.page_of(box) == "models"
    dialog.show()
    dialog.pages.show_page("models")
    server.pullable["tinyllama:1b"] = FakeModel("tinyllama:1b", size=640_000_000)
    box.name_edit.setFocus()
    box.name_edit.setText("tinyllama:1b")
    QTest.keyClick(box.name_edit, Qt.Key.Key_Return)  # downloads; Preferences stays open
    assert dialog.isVisible() and dialog.result() == 0
    assert box.pulling == "tinyllama:1b"
    run(app.loop, settle(app.controller))
    assert "tinyllama:1b is ready" in box.note.text()


def test_the_models_box_and_picker_speak_plainly(app, qtbot) -> None:
    from tests.visible_strings import internal_terms, visible_strings

    box = box_for(app, qtbot)
    box.list.setCurrentRow(0)
    box.ask_delete()
    selector = app.find(QComboBox, "modelSelector")
    strings = [*visible_strings(box), *[("tooltip", box.list.item(i).toolTip())
                                        for i in range(box.list.count())],
               ("picker", selector.toolTip()), ("facts", app.find(QLabel, "modelFacts").text())]
    found = internal_terms(strings)
    assert not found, "\n".join(found)


def test_the_box_knows_what_the_server_can_do_as_soon_as_it_opens(app, qtbot) -> None:
    box = InstalledModelsBox(app.controller)  # no new status yet: the last one is used
    qtbot.addWidget(box)
    box.list.setCurrentRow(1)
    assert box.delete_button.isEnabled(), box.delete_button.toolTip()
    box.name_edit.setText("tinyllama:1b")
    assert box.pull_button.isEnabled(), box.pull_button.toolTip()
