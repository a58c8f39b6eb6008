"""Markdown and JSON export; JSON import round trip and its refusals."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from ollm_desktop.engine import ContextEngine, EngineConfig
from ollm_desktop.paths import app_paths
from ollm_desktop.storage import ChatStore
from ollm_desktop.storage.export import FORMAT, VERSION, export_json, export_markdown, import_json
from ollm_desktop.storage.models import ChatRecord
from tests.engine_fakes import GoodSummarizer, chat, compact, exchange


def _compacted() -> tuple[ChatRecord, ContextEngine]:
    engine, _ = chat(EngineConfig(context_size=4096, min_messages=2), system_prompt="Be terse.")
    for turn in range(30):
        exchange(engine, turn)
        if turn == 2:
            engine.set_pinned(engine.display_messages()[1].id, True)
        if engine.needs_compaction():
            compact(engine)
    engine.add("assistant", "[GOAL] Ship the importer")
    assert engine.compaction_count >= 2
    now = datetime.now(UTC)
    record = ChatRecord(id="c1", title="Port to Rust", model="llama3:8b", context_size=4096,
                        created_at=now, updated_at=now, message_count=61)
    return record, engine


def test_markdown_has_everything() -> None:
    record, engine = _compacted()
    text = export_markdown(record, engine.state(), engine.api_messages())
    assert text.startswith("# Port to Rust\n")
    for message in engine.display_messages():  # full history, not the compacted view
        assert message.content in text
    assert text.count("📌 pinned") == sum(m.pinned for m in engine.display_messages()) == 1
    for number, group in enumerate(engine.groups, 1):
        assert f"**Checkpoint {number}**" in text
        assert group.summary.splitlines()[1] in text
    # Each checkpoint sits right after the last message of its range.
    last = engine.message(engine.groups[0].span_ids[-1])
    assert last is not None
    assert text.index(last.content) < text.index("**Checkpoint 1**")
    assert "Ship the importer" in text and "Be terse." in text


def test_json_round_trip_gives_the_same_context(tmp_path: Path) -> None:
    record, engine = _compacted()
    document = export_json(record, engine.state(), engine.api_messages())
    parsed = json.loads(document)
    assert (parsed["format"], parsed["version"]) == (FORMAT, VERSION)
    assert parsed["compacted_view"] == engine.api_messages()
    title, state, model, size, settings, _images, _documents = import_json(document)
    assert (title, model, size) == ("Port to Rust", "llama3:8b", 4096)
    assert settings == record.settings
    rebuilt = ContextEngine.from_state(state, engine.config, GoodSummarizer())
    assert rebuilt.api_messages() == engine.api_messages()
    assert [m.content for m in rebuilt.display_messages()] == [
        m.content for m in engine.display_messages()]
    assert rebuilt.goal == engine.goal
    # Fresh ids: importing next to the original chat works, through the store.
    assert not {m.id for m in state.messages} & {m.id for m in engine.display_messages()}
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    original = store.create_chat("orig")
    store.replace_chat_state(original.id, engine.state())
    imported = store.create_chat(title, model=model, context_size=size)
    store.replace_chat_state(imported.id, state)
    loaded = store.load_engine_state(imported.id)
    assert loaded is not None
    assert ContextEngine.from_state(loaded, engine.config, GoodSummarizer()).api_messages() == \
        engine.api_messages()
    # Undo still works on the imported chat: its stack was remapped too.
    assert rebuilt.undo_last_compaction().ok and engine.undo_last_compaction().ok
    assert rebuilt.api_messages() == engine.api_messages()
    store.close()


def _document(**changes) -> str:
    record, engine = _compacted()
    data = json.loads(export_json(record, engine.state(), engine.api_messages()))
    for key, value in changes.items():
        if "." in key:
            outer, inner = key.split(".")
            data[outer][inner] = value
        else:
            data[key] = value
    return json.dumps(data)


@pytest.mark.parametrize(("text", "reason"), [
    ("not json at all", "not a JSON"),
    ("[1, 2]", "not an ollm-desktop"),
    (json.dumps({"format": "something-else", "version": 1}), "not an ollm-desktop"),
])
def test_import_refuses_foreign_input(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        import_json(text)


def test_import_refuses_newer_version() -> None:
    with pytest.raises(ValueError, match="newer"):
        import_json(_document(version=VERSION + 1))


@pytest.mark.parametrize(("key", "value", "reason"), [
    ("chat.context_size", 10, "context size"),
    ("chat.context_size", "big", "context size"),
    ("chat.model", 5, "model"),
    ("state.messages", [{"role": "robot", "content": "x"}], "invalid"),
    ("state.dropped_ids", "nope", "invalid"),
])
def test_import_refuses_invalid_fields(key: str, value, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        import_json(_document(**{key: value}))


def test_import_refuses_dangling_checkpoints() -> None:
    record, engine = _compacted()
    data = json.loads(export_json(record, engine.state(), engine.api_messages()))
    data["state"]["messages"] = data["state"]["messages"][5:]
    with pytest.raises(ValueError, match="checkpoint"):
        import_json(json.dumps(data))
