"""The controller against the loopback Ollama: turns, compaction, resumption, Stop, errors.

Each test runs its whole scenario in one pass of the qasync loop (see ``controller_harness.run``).
"""

from __future__ import annotations

import asyncio

import pytest

from ollm_desktop.backend import client as client_module
from ollm_desktop.engine import ContextEngine, count_message_tokens
from ollm_desktop.paths import app_paths
from ollm_desktop.storage import ChatStore
from tests.controller_harness import (
    MODEL,
    Reply,
    chat_turns,
    is_summary_request,
    is_turn,
    make_controller,
    run,
    scripted_model,
    settle,
    shutdown,
    turn,
    until,
)
from tests.ollama_server import FakeModel

LONG_QUESTION = "please explain the design again, with the trade-offs " * 4


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model()
    return ollama_server




def test_a_turn_saves_the_user_message_first_then_streams_and_saves_the_reply(
        qloop, controller, server):
    chunks: list[str] = []
    controller.replyChunk.connect(lambda _id, text: chunks.append(text))
    finished = []
    controller.replyFinished.connect(lambda m, info: finished.append((m, info)))
    server.script(Reply(text="Hello there, how can I help?", delay_per_chunk=0.005))
    run(qloop, turn(controller, "Hi, who are you?"))

    assert "".join(chunks) == "Hello there, how can I help?"
    message, info = finished[-1]
    assert message.content == "Hello there, how can I help?" and not message.partial
    assert info.prompt_tokens and info.reply_tokens and not info.stopped
    body = server.chat_requests()[-1]
    assert body["options"]["num_ctx"] == 4096
    assert body["messages"][-1] == {"role": "user", "content": "Hi, who are you?"}
    state = controller.session.store.load_engine_state(controller.chat.id)
    assert [(m.role, m.content, m.partial) for m in state.messages] == [
        ("user", "Hi, who are you?", False),
        ("assistant", "Hello there, how can I help?", False)]
    # Counted as a prompt part, like every message: with the learned factor and template.
    config = controller.session.engine.config
    assert message.tokens == count_message_tokens(message.content, config.estimate_scale,
                                                  config.message_overhead)
    assert not message.exact_tokens


def test_num_ctx_is_constant_and_no_request_exceeds_the_context_over_many_turns(
        qloop, controller, server):
    compactions = []
    controller.compactionFinished.connect(compactions.append)

    async def scenario():
        for i in range(30):
            await turn(controller, f"Question {i}: {LONG_QUESTION}")

    run(qloop, scenario())
    bodies = server.chat_requests()
    assert {b["options"]["num_ctx"] for b in bodies} == {4096}
    assert sum(1 for b in bodies if is_summary_request(b)) >= 2
    assert len([r for r in compactions if r.status == "compacted"]) >= 2
    engine = controller.session.engine
    for body in bodies:
        sent = sum(count_message_tokens(m["content"]) for m in body["messages"])
        assert sent <= engine.usable, (sent, engine.usable)
    # Every message ever written is still displayed and stored, in order.
    assert len(engine.display_messages()) == 60
    stored = controller.session.store.load_engine_state(controller.chat.id)
    assert [m.id for m in stored.messages] == [m.id for m in engine.display_messages()]


def test_compaction_runs_in_the_background_so_sending_rarely_waits(qloop, controller, server):
    async def scenario():
        for i in range(40):
            await turn(controller, f"Message {i}: {LONG_QUESTION}")

    run(qloop, scenario())
    waits = controller.turn_waits
    assert waits["turns"] == 40
    summaries = sum(1 for b in server.chat_requests() if is_summary_request(b))
    assert summaries >= 3
    assert waits["waited"] <= 1, waits


def test_a_new_controller_on_the_same_database_sends_the_identical_context(
        qloop, tmp_path, server):
    first = make_controller(tmp_path / "data", server)

    async def build():
        for i in range(22):
            await turn(first, f"Turn {i}: we keep discussing the database schema {LONG_QUESTION}")

    run(qloop, build())
    pinned = first.session.engine.display_messages()[3]
    first.set_pinned(pinned.id, True)
    chat_id = first.chat.id
    expected = first.session.engine.api_messages()
    groups = [g.id for g in first.session.engine.groups]
    assert groups
    shutdown(qloop, first)

    second = make_controller(tmp_path / "data", server)
    try:
        second.open_chat(chat_id)
        assert second.session.engine.api_messages() == expected
        assert [g.id for g in second.session.engine.groups] == groups
        assert second.session.engine.message(pinned.id).pinned
        assert not second.session.engine.needs_compaction()
        before = len(server.chat_requests())
        server.script("Resumed fine.")
        run(qloop, turn(second, "And now?"))
        sent = chat_turns_since(server, before)[0]
        assert sent["messages"][:-1] == expected
        assert sent["messages"][-1] == {"role": "user", "content": "And now?"}
    finally:
        shutdown(qloop, second)


def chat_turns_since(server, before: int) -> list[dict]:
    return [b for b in server.chat_requests()[before:] if is_turn(b)]


def test_stop_closes_the_connection_and_keeps_what_arrived(qloop, controller, server):
    server.script(Reply(text=" ".join(f"w{i}" for i in range(400)), delay_per_chunk=0.01))
    finished = []
    controller.replyFinished.connect(lambda m, info: finished.append((m, info)))
    received: list[str] = []
    controller.replyChunk.connect(lambda _id, text: received.append(text))

    async def scenario():
        task = controller.send("Write a long text")
        await until(lambda: len(received) >= 5)
        controller.stop()
        await asyncio.gather(task, return_exceptions=True)
        await settle(controller)

    run(qloop, scenario())
    assert server.streams[-1].finished.wait(5)
    assert server.streams[-1].outcome == "disconnected"
    assert server.streams[-1].sent < 400
    message, info = finished[-1]
    assert info.stopped and message.content.startswith("w0 w1")
    assert not controller.busy
    state = controller.session.store.load_engine_state(controller.chat.id)
    assert state.messages[-1].content == message.content


@pytest.mark.parametrize("reply", [
    Reply(http_status=500, error="boom"),
    Reply(error_after=0, error="model crashed"),
    Reply(cut_after=0),
], ids=["http-500", "error-line", "cut-stream"])
def test_a_failed_turn_gives_its_message_and_gives_the_text_back(
        qloop, controller, server, reply):
    failed = []
    controller.sendFailed.connect(lambda text, reason: failed.append((text, reason)))

    async def scenario():
        await turn(controller, "First question")
        server.script(reply)
        await turn(controller, "The question that fails")

    run(qloop, scenario())
    assert failed and failed[-1][0] == "The question that fails"
    assert failed[-1][1].strip()
    # The failed message is not left behind: a retry does not duplicate it.
    assert "The question that fails" not in [m.content for m in
                                             controller.session.engine.display_messages()]
    stored = controller.session.store.load_engine_state(controller.chat.id)
    assert "The question that fails" not in [m.content for m in stored.messages]
    server.script("Now it works.")
    run(qloop, turn(controller, "The question that fails"))
    contents = [m.content for m in controller.session.engine.display_messages()]
    assert contents.count("The question that fails") == 1
    assert contents[-1] == "Now it works."


def test_an_error_after_some_text_keeps_the_partial_reply_and_says_so(
        qloop, controller, server):
    errors = []
    controller.error.connect(lambda kind, text: errors.append(kind))
    server.script(Reply(text="one two three four five six", error_after=3))
    run(qloop, turn(controller, "Go"))
    last = controller.session.engine.display_messages()[-1]
    assert last.role == "assistant" and last.content.startswith("one two")
    assert "stream_error" in errors


def test_unreachable_ollama_says_so_and_keeps_the_text(qloop, tmp_path, server):
    c = make_controller(tmp_path / "data", server)
    failed = []
    c.sendFailed.connect(lambda text, reason: failed.append((text, reason)))
    host = server.url
    server.stop()

    async def scenario():
        status = await c.refresh_ollama()
        await turn(c, "Are you there?")
        return status

    try:
        status = run(qloop, scenario())
        assert not status.reachable and status.host == host
        assert status.error and "ollama" in status.error.lower()
        assert failed and failed[-1][0] == "Are you there?"
        assert "reach" in failed[-1][1].lower()
        assert c.session.engine is None or not c.session.engine.display_messages()
    finally:
        shutdown(qloop, c)


def test_a_missing_model_is_reported_and_can_be_pulled(qloop, controller, server):
    server.pullable["qwen3:4b"] = FakeModel("qwen3:4b", "qwen3", "4.0B", 40960)
    errors = []
    controller.error.connect(lambda kind, text: errors.append(kind))
    progress = []
    controller.pullProgress.connect(lambda p: progress.append((p.status, p.completed, p.total)))

    async def scenario():
        controller.set_model("qwen3:4b")
        await settle(controller)
        missing = await controller.refresh_ollama()
        await controller.pull_model("qwen3:4b")
        await settle(controller)
        return missing, await controller.refresh_ollama()

    missing, after = run(qloop, scenario())
    assert "model_not_found" in errors
    assert missing.model_missing
    assert progress and progress[-1][0] == "success"
    assert any(total for _s, _c, total in progress)
    assert not after.model_missing and "qwen3:4b" in after.models


def test_truncation_by_ollama_is_detected_and_recalibrates(qloop, tmp_path, server,
                                                           monkeypatch):
    # An older Ollama ignores "truncate": false and still cuts silently: as if never sent.
    monkeypatch.setattr(client_module, "NO_SILENT_CUTS", {})
    c = make_controller(tmp_path / "data", server, context_size=2048,
                        preserve_recent_tokens=300)
    server.reply_fn = scripted_model(reply_words=25)
    server.truncate_to_num_ctx = True
    infos = []
    c.replyFinished.connect(lambda m, info: infos.append(info))
    notices = []
    c.notice.connect(notices.append)

    async def scenario():
        # Calibrate on a model whose tokenizer counts like ours, filling about 60% of the window.
        while c.session.engine is None or c.session.engine.api_tokens() < 0.6 * 2048:
            await turn(c, f"Item {len(infos)}: a few words about the plan and its details")
        calibrated = c.session.store.get_calibration(MODEL)
        # Now the model counts twice as much (another model under the same name): the next
        # prompt overflows num_ctx and Ollama silently keeps only what fits.
        server.prompt_scale = 2.0
        for i in range(8):
            await turn(c, f"More {i}: words to fill up the context window, again and again")
        return calibrated

    try:
        calibrated = run(qloop, scenario())
        assert calibrated is not None and 0.5 <= calibrated[0] <= 1.6
        assert any(info.truncated for info in infos)
        assert any("dropped" in n for n in notices)
        factor, _samples = c.session.store.get_calibration(MODEL)
        assert factor > 1.6 * calibrated[0]
        assert c.session.engine.config.estimate_scale == pytest.approx(factor, abs=0.05)
        # Once recalibrated, the requests fit again: the last turns were not truncated.
        truncated_turns = sum(1 for info in infos if info.truncated)
        assert truncated_turns <= 4, truncated_turns
        assert not any(s.truncated for s in server.streams[-3:])
        assert not server.rejected  # nothing was refused: the server cut silently instead
    finally:
        shutdown(qloop, c)


def test_pins_change_the_next_request(qloop, controller, server):
    async def build():
        for i in range(18):
            await turn(controller, f"Point {i}: some detail about the migration {LONG_QUESTION}")

    run(qloop, build())
    assert controller.session.engine.groups
    engine = controller.session.engine
    summarized = [mid for mid, v in engine.visibility().items() if v == "summarized"]
    target = engine.message(summarized[0])
    assert not any(target.content in m["content"] for m in engine.api_messages())
    controller.set_pinned(target.id, True)
    run(qloop, turn(controller, "Next"))
    assert any(target.content in m["content"] for m in chat_turns(server)[-1]["messages"])
    controller.set_pinned(target.id, False)
    run(qloop, turn(controller, "Again"))
    assert not any(target.content in m["content"] for m in chat_turns(server)[-1]["messages"])


def test_the_store_rebuilds_the_engine_the_controller_has(qloop, controller, server, tmp_path):
    async def build():
        for i in range(14):
            await turn(controller, f"Q{i} explain more {LONG_QUESTION}")

    run(qloop, build())
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    try:
        state = store.load_engine_state(controller.chat.id)
    finally:
        store.close()
    rebuilt = ContextEngine.from_state(state, controller.session.engine.config.model_copy(),
                                       controller.session.ollama.summarize)
    assert rebuilt.api_messages() == controller.session.engine.api_messages()


def test_sending_to_a_missing_model_offers_the_pull_and_keeps_the_text(
        qloop, tmp_path, server):
    c = make_controller(tmp_path / "data", server, default_model="not-installed:1b")
    failed, errors = [], []
    c.sendFailed.connect(lambda text, reason: failed.append((text, reason)))
    c.error.connect(lambda kind, text: errors.append(kind))
    try:
        run(qloop, turn(c, "Hello?"))
        assert failed and failed[-1][0] == "Hello?"
        assert "not-installed:1b" in failed[-1][1]
        assert "model_not_found" in errors
        assert not c.session.engine.display_messages()
    finally:
        shutdown(qloop, c)


def test_ollama_is_started_once_remembered_and_stopped_at_exit(
        qloop, tmp_path, monkeypatch, server):
    from tests.ollama_server import free_port
    from tests.test_backend_managed import _fake_ollama, _server_script

    bin_dir = tmp_path / "bin"
    _fake_ollama(bin_dir, _server_script())
    monkeypatch.setenv("PATH", f"{bin_dir}:{__import__('os').environ.get('PATH', '')}")
    host = f"http://127.0.0.1:{free_port()}"
    c = make_controller(tmp_path / "data", server, ollama_host=host)
    try:
        status = run(qloop, c.refresh_ollama())
        assert not status.reachable and status.can_start  # "ask": nothing started by itself
        assert not c.session.managed.started
        run(qloop, c.start_ollama(remember=True))
        assert c.session.managed.started and c.settings.start_ollama == "always"
        status = run(qloop, c.refresh_ollama())
        assert status.reachable
    finally:
        shutdown(qloop, c)
    assert not c.session.managed.started  # it started it, so it stops it

    again = make_controller(tmp_path / "data", server, ollama_host=host,
                            start_ollama="always")
    try:
        status = run(qloop, again.refresh_ollama())
        assert status.reachable and again.session.managed.started  # remembered: started by itself
    finally:
        shutdown(qloop, again)


def test_export_and_import_round_trip_through_the_controller(qloop, controller, server, tmp_path):
    async def build():
        for i in range(12):
            await turn(controller, f"Topic {i}: {LONG_QUESTION}")

    run(qloop, build())
    controller.set_pinned(controller.session.engine.display_messages()[1].id, True)
    original = controller.session.engine
    markdown, exported = tmp_path / "chat.md", tmp_path / "chat.json"
    controller.export_markdown(markdown)
    controller.export_json(exported)
    text = markdown.read_text(encoding="utf-8")
    assert all(m.content.splitlines()[0] in text for m in original.display_messages())
    imported = controller.import_json(exported)
    assert imported is not None and controller.chat.id == imported.id
    shown = controller.session.engine.display_messages()
    assert [(m.role, m.content, m.pinned) for m in shown] == [
        (m.role, m.content, m.pinned) for m in original.display_messages()]
    assert len(controller.session.engine.groups) == len(original.groups)
    assert [m["content"] for m in controller.session.engine.api_messages()] == [
        m["content"] for m in original.api_messages()]
    # A damaged file is refused with a message and creates nothing.
    errors = []
    controller.error.connect(lambda kind, text: errors.append((kind, text)))
    exported.write_text("{not json", encoding="utf-8")
    chats_before = len(controller.list_chats())
    assert controller.import_json(exported) is None
    assert errors and errors[-1][0] == "import" and "chat.json" in errors[-1][1]
    assert len(controller.list_chats()) == chats_before


def test_summaries_can_use_their_own_model(qloop, tmp_path, server):
    c = make_controller(tmp_path / "data", server, summarization_model="gemma3:270m")

    async def build():
        for i in range(16):
            await turn(c, f"Part {i}: {LONG_QUESTION}")

    try:
        run(qloop, build())
        summaries = [b for b in server.chat_requests() if is_summary_request(b)]
        chats = [b for b in server.chat_requests() if is_turn(b)]
        assert summaries and {b["model"] for b in summaries} == {"gemma3:270m"}
        assert {b["model"] for b in chats} == {MODEL}
        assert {b["options"]["num_ctx"] for b in summaries} == {4096}
    finally:
        shutdown(qloop, c)


def test_snapshots_are_taken_at_the_threshold_and_before_each_compaction(
        qloop, tmp_path, server):
    c = make_controller(tmp_path / "data", server, trigger_ratio=0.95, snapshot_retention=3)

    async def build():
        for i in range(26):
            await turn(c, f"Step {i}: {LONG_QUESTION}")

    try:
        run(qloop, build())
        reasons = [s.reason for s in c.list_snapshots()]
        assert "auto-threshold" in reasons
        assert c.session.engine.compaction_count >= 1 and "before-compaction" in reasons
        assert len(reasons) <= 3  # retention keeps the newest automatic ones only
        manual = c.create_snapshot("keep me")
        for _ in range(4):
            c.session.take_snapshot("before-compaction")
        kept = c.list_snapshots()
        assert manual.id in [s.id for s in kept]  # manual snapshots are never pruned
        assert sum(1 for s in kept if s.reason != "manual") == 3
    finally:
        shutdown(qloop, c)


def test_the_state_before_a_compaction_opens_as_a_new_chat(qloop, controller, server):
    """Issue 11: where undoing cannot fit, the earlier state opens as a chat of its own."""
    async def scenario():
        for i in range(40):
            await turn(controller, f"Message {i}: {LONG_QUESTION}")
        task = controller.compact()
        if task is not None:
            await task
        await settle(controller)

    run(qloop, scenario())
    original = controller.chat
    engine = controller.session.engine
    assert original is not None and engine is not None and engine.can_undo
    earlier = engine.state_before_last_compaction()
    assert earlier is not None
    branch = controller.open_before_compaction_as_chat()
    assert branch is not None and controller.chat is not None
    assert controller.chat.id == branch.id != original.id
    opened = controller.session.engine
    assert opened is not None
    assert [m.content for m in opened.display_messages()] == [
        m.content for m in earlier.messages]
    assert len(opened.groups) == len(earlier.groups)
    assert not {m.id for m in opened.display_messages()} & {m.id for m in earlier.messages}
    assert opened.api_messages()  # the branch has a context of its own that fits
    assert controller.session.store.get_chat(original.id) is not None  # the original stays
