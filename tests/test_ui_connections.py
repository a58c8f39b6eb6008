"""Preferences ▸ Other servers: connections are edited there, their kind found by Test, the
API key handed to the keyring (never to the settings), bad input refused with a reason."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtCore import Qt

from ollm_desktop.backend import Connection
from ollm_desktop.backend.probe import probe
from ollm_desktop.session import Settings
from ollm_desktop.ui.preferences.dialog import PreferencesDialog
from tests.openai_server import FakeOpenAI, ServedModel

LAB = Connection(id="lab", name="Lab vLLM", url="https://gpu.lab.example/v1", kind="vllm",
                 has_key=True)


def dialog_for(qtbot, settings: Settings, tester=None) -> PreferencesDialog:
    widget = PreferencesDialog(settings, ["m"], None, tester=tester)
    qtbot.addWidget(widget)
    return widget


def test_add_a_server_with_a_key_and_use_it_for_new_chats(qtbot):
    dialog = dialog_for(qtbot, Settings(connections=[LAB]))
    editor = dialog.connections_editor
    assert editor.list.count() == 1 and "vLLM" in editor.list.item(0).text()
    qtbot.mouseClick(editor.add_button, Qt.MouseButton.LeftButton)
    assert not dialog.ok_button.isEnabled()  # a server without a URL cannot be kept
    assert "enter the server's URL" in dialog.error_label.text()
    editor.name_edit.clear()
    qtbot.keyClicks(editor.name_edit, "Desk llama.cpp")
    qtbot.keyClicks(editor.url_edit, "http://127.0.0.1:8080/v1")
    qtbot.keyClicks(editor.key_edit, "s3cret")
    editor.default_combo.setCurrentIndex(editor.default_combo.findText("Desk llama.cpp"))
    assert dialog.ok_button.isEnabled(), dialog.error_label.text()
    result = dialog.result_settings()
    added = result.connections[-1]
    assert (added.name, added.url, added.kind, added.has_key) == (
        "Desk llama.cpp", "http://127.0.0.1:8080/v1", None, True)
    assert result.default_connection == added.id
    assert dialog.api_keys() == {added.id: "s3cret"}
    assert "s3cret" not in result.model_dump_json()  # the key goes to the keyring only


def test_a_generic_server_needs_its_context_size(qtbot):
    generic = Connection(id="gen", name="Gateway", url="http://127.0.0.1:9000/v1",
                         kind="generic")
    dialog = dialog_for(qtbot, Settings(connections=[generic]))
    assert not dialog.ok_button.isEnabled()
    assert "cannot say its context size" in dialog.error_label.text()
    dialog.connections_editor.window_spin.setValue(8192)
    assert dialog.ok_button.isEnabled()
    assert dialog.result_settings().connections[0].window == 8192


def test_remove_and_a_bad_url(qtbot):
    dialog = dialog_for(qtbot, Settings(connections=[LAB], default_connection="lab"))
    editor = dialog.connections_editor
    editor.url_edit.setText("ftp://nowhere")
    editor._edited()
    assert not dialog.ok_button.isEnabled() and "http://" in dialog.error_label.text()
    qtbot.mouseClick(editor.remove_button, Qt.MouseButton.LeftButton)
    assert dialog.ok_button.isEnabled()
    result = dialog.result_settings()
    assert result.connections == [] and result.default_connection is None


def test_test_button_shows_the_kind(qtbot, qloop):
    fake = FakeOpenAI("vllm", [ServedModel("Qwen/Qwen3-8B")]).start()

    def tester(url, key, ca_file):
        return asyncio.ensure_future(probe(url, api_key=key, ca_file=ca_file, timeout=5))

    unknown = Connection(id="x", name="X", url=fake.url + "/v1")
    dialog = dialog_for(qtbot, Settings(connections=[unknown]), tester)
    editor = dialog.connections_editor
    try:
        task = editor.test()
        assert task is not None
        qloop.run_until_complete(asyncio.wait([task]))
        qloop.run_until_complete(asyncio.sleep(0))  # the done callback
        assert "vLLM" in editor.kind_label.text()
        assert dialog.result_settings().connections[0].kind == "vllm"
    finally:
        fake.stop()


@pytest.mark.parametrize("shown", ["found when first used"])
def test_an_untested_server_says_when_its_kind_is_found(qtbot, shown):
    dialog = dialog_for(qtbot, Settings(connections=[Connection(id="y", name="Y",
                                                                url="http://127.0.0.1:1/v1")]))
    assert shown in dialog.connections_editor.kind_label.text()


def test_chat_settings_reach_at_most_the_servers_window(qtbot):
    from datetime import UTC, datetime

    from ollm_desktop.controller import ContextSnapshot
    from ollm_desktop.storage.models import ChatRecord
    from ollm_desktop.ui.dialogs.chat_settings_dialog import ChatSettingsDialog

    now = datetime.now(UTC)
    chat = ChatRecord(id="c", title="On llama.cpp", context_size=2048, created_at=now,
                      updated_at=now)
    snapshot = ContextSnapshot(chat=chat, model="smollm2", trained_context=8192,
                               server_window=2048)
    dialog = ChatSettingsDialog(chat, Settings(context_size=8192), snapshot,
                                lambda settings, size: True)
    qtbot.addWidget(dialog)
    assert dialog.context_spin.maximum() == 2048
    assert "2,048, the context the server serves smollm2 with" in \
        dialog.origins["contextSize"].text()
    assert "Default (2,048)" in dialog.context_spin.specialValueText()


def test_chat_settings_choose_the_chats_server(qtbot):
    from datetime import UTC, datetime

    from ollm_desktop.controller import ContextSnapshot
    from ollm_desktop.storage.models import ChatRecord
    from ollm_desktop.ui.dialogs.chat_settings_dialog import ChatSettingsDialog

    now = datetime.now(UTC)
    chat = ChatRecord(id="c", title="t", created_at=now, updated_at=now)
    applied = []
    dialog = ChatSettingsDialog(chat, Settings(), ContextSnapshot(chat=chat),
                                lambda settings, size: applied.append(settings) or True,
                                servers=[(None, "Local Ollama"), ("lab", "Lab vLLM")])
    qtbot.addWidget(dialog)
    assert dialog.server_combo is not None and dialog.server_combo.currentData() is None
    dialog.server_combo.setCurrentIndex(1)
    dialog.accept()
    assert applied[-1].connection == "lab" and "connection" in applied[-1].model_fields_set
