"""Images for vision models in the Qt-free session (issue 15), against the loopback fake
Ollama: what goes on the wire (``images``, base64, on the user's message), what the budget
counts (checked against the fake's own per-image figure), what the calibration learns, and
what a compaction keeps of a picture (a one-sentence description from the model)."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import pytest

from ollm_desktop.engine.images import IMAGES_KEY
from ollm_desktop.paths import app_paths
from ollm_desktop.session import ChatSession, SendFailed, SessionEvent
from ollm_desktop.session.images import (
    DESCRIBE_PROMPT,
    MAX_IMAGE_BYTES,
    estimate_image_tokens,
    first_sentence,
)
from ollm_desktop.storage import ChatStore
from tests.controller_harness import is_summary_request, is_turn, make_settings, scripted_model
from tests.ollama_server import FakeModel
from tests.test_session import send

VISION = "eyes:2b"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8
OTHER = b"\x89PNG\r\n\x1a\n" + bytes(reversed(range(256))) * 8
DESCRIPTION = "A bar chart of request latency per region, eu-west twice as high."


def is_describe_request(body: dict[str, Any]) -> bool:
    messages = body.get("messages") or []
    return bool(messages) and messages[-1].get("content") == DESCRIBE_PROMPT


def turns(server) -> list[dict[str, Any]]:
    return [b for b in server.chat_requests()
            if is_turn(b) and not is_describe_request(b)]


@pytest.fixture
def server(ollama_server):
    ollama_server.models.append(FakeModel(VISION, "mystery", "2.0B", 32768,
                                          capabilities=("completion", "vision")))
    chat = scripted_model(reply_words=40)

    def answer(body: dict[str, Any]) -> str:
        if is_describe_request(body):
            return DESCRIPTION + " The rest of this answer is more than one sentence."
        return chat(body)

    ollama_server.reply_fn = answer
    return ollama_server


def _open(tmp_path, server, **settings: Any) -> tuple[ChatSession, list[SessionEvent]]:
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    values: dict[str, Any] = {"default_model": VISION, **settings}
    s = ChatSession(store, make_settings(server, **values))
    events: list[SessionEvent] = []
    s.publish = events.append
    return s, events


@pytest.fixture
def session(tmp_path, server) -> Iterator[tuple[ChatSession, list[SessionEvent]]]:
    s, events = _open(tmp_path, server)
    yield s, events
    s.store.close()


def _attach(s: ChatSession, data: bytes = PNG, name: str = "plot.png") -> None:
    change = s.images.attach(data, "image/png", name, 640, 480)
    assert not change.problems, change.problems


@pytest.mark.asyncio
async def test_an_attached_image_goes_base64_on_the_users_message_and_is_counted(
        session, server) -> None:
    s, _ = session
    s.new_chat()
    _attach(s)
    await send(s, "What does this chart show?")
    request = turns(server)[-1]
    user = request["messages"][-1]
    assert user["role"] == "user" and user["content"] == "What does this chart show?"
    assert user[IMAGES_KEY] == [base64.b64encode(PNG).decode()]
    assert all(IMAGES_KEY not in m for m in request["messages"][:-1])
    # The fake counted the picture with its own figure; the app counted at least as much.
    stream = server.streams[-1]
    text_only = server.full_count([{"role": "user", "content": user["content"]}])
    assert stream.prompt_eval_count >= server.image_tokens + text_only
    assert s.engine is not None
    message = s.engine.display_messages()[0]
    assert message.images[0].tokens >= server.image_tokens
    assert message.tokens >= message.images[0].tokens + s.engine._data.message_tokens(
        user["content"])
    assert s.images.pending == []  # the turn took them
    # Stored: the reference with the message, the bytes once in the images table.
    assert s.store.load_engine_state(s.chat.id).messages[0].images == message.images
    assert s.store.image_data(message.images[0].id) == PNG
    # The next turn sends the same picture again (its turn is still in the context).
    await send(s, "And the second bar?")
    again = turns(server)[-1]["messages"]
    assert [m.get(IMAGES_KEY) for m in again if m["role"] == "user"] == [
        [base64.b64encode(PNG).decode()], None]


@pytest.mark.asyncio
async def test_a_turn_with_pictures_does_not_teach_the_text_calibration(session,
                                                                         server) -> None:
    s, _ = session
    s.new_chat()
    calibration = s.calibrations.for_model(VISION)
    await send(s, "A first question about deployments and their rollbacks, in some detail.")
    learned = (calibration.samples, calibration.factor)
    _attach(s)
    await send(s, "What does this chart show about the rollbacks?")
    assert server.streams[-1].prompt_eval_count > server.image_tokens
    assert (calibration.samples, calibration.factor) == learned
    await send(s, "One more question without a picture.")  # the picture is still sent
    assert (calibration.samples, calibration.factor) == learned


@pytest.mark.asyncio
async def test_attaching_refuses_huge_files_and_warns_for_models_without_vision(
        tmp_path, server) -> None:
    s, _ = _open(tmp_path, server, default_model="llama3.2:3b")
    try:
        s.new_chat()
        change = s.images.attach(b"x" * (MAX_IMAGE_BYTES + 1), "image/png", "huge.png",
                                 9000, 9000)
        assert change.problems and "huge.png" in change.problems[0].text
        assert "20 MB" in change.problems[0].text
        assert s.images.pending == []
        await s.ollama.load_model_details(s.model or "")
        change = s.images.attach(PNG, "image/png", "plot.png", 640, 480)
        assert not change.problems
        assert change.notices and "vision" in change.notices[0]
        assert [i.name for i in s.images.pending] == ["plot.png"]  # allowed all the same
        assert s.images.attach(PNG, "image/png", "plot.png", 640, 480).notices  # once only
        assert len(s.images.pending) == 1
        s.images.remove(s.images.pending[0].id)
        assert s.images.pending == []
    finally:
        s.store.close()


@pytest.mark.asyncio
async def test_a_send_that_gets_no_reply_gives_its_images_back(session, server) -> None:
    s, events = session
    s.new_chat()
    _attach(s)
    _attach(s, OTHER, "second.png")
    server.fail("/api/chat", 500, "the model crashed")
    await send(s, "What is in these?")
    assert any(isinstance(e, SendFailed) for e in events)
    assert s.engine is not None and s.engine.display_messages() == []
    assert s.images.restore_unsent()
    assert [i.name for i in s.images.pending] == ["plot.png", "second.png"]
    await send(s, "What is in these?")
    assert len(turns(server)[-1]["messages"][-1][IMAGES_KEY]) == 2
    assert not s.images.restore_unsent()  # kept this time: nothing comes back


@pytest.mark.asyncio
async def test_a_compaction_replaces_an_image_by_its_description(session, server) -> None:
    s, _ = session
    s.new_chat()
    _attach(s)
    await send(s, "What does this chart show?")
    for n in range(8):
        await send(s, f"Follow-up question {n} about the latency chart and the regions.")
    assert s.compactions.start_manual() is not None
    await s.drain(30)
    describe = [b for b in server.chat_requests() if is_describe_request(b)]
    assert len(describe) == 1  # one picture, described once
    assert describe[0]["messages"][-1][IMAGES_KEY] == [base64.b64encode(PNG).decode()]
    summary = [b for b in server.chat_requests() if is_summary_request(b)][-1]
    assert f"[image: {first_sentence(DESCRIPTION)}]" in summary["messages"][-1]["content"]
    assert s.engine is not None and s.engine.compaction_count == 1
    stored = s.store.load_engine_state(s.chat.id).messages[0]
    assert stored.images[0].description == DESCRIPTION
    # Compacted: the next request has no picture, only the words that stand for it.
    await send(s, "Thanks.")
    sent = turns(server)[-1]["messages"]
    assert all(IMAGES_KEY not in m for m in sent)
    assert f"[image: {DESCRIPTION}]" in sent[0]["content"]


@pytest.mark.asyncio
async def test_a_failed_description_keeps_a_plain_one(session, server) -> None:
    s, _ = session
    s.new_chat()
    _attach(s)
    await send(s, "What does this chart show?")
    for n in range(8):
        await send(s, f"Follow-up question {n} about the latency chart and the regions.")
    server.fail("/api/chat", 500, "out of memory")  # the describe request fails
    assert s.compactions.start_manual() is not None
    await s.drain(30)
    assert s.engine is not None and s.engine.compaction_count == 1
    assert s.engine.display_messages()[0].images[0].description == \
        "an image (plot.png, 640×480)"
    summary = [b for b in server.chat_requests() if is_summary_request(b)][-1]
    assert "[image: an image (plot.png, 640×480)]" in summary["messages"][-1]["content"]


def test_image_token_estimates_per_model_family() -> None:
    assert estimate_image_tokens("llava:7b", "llama", 640, 480) >= 576
    assert estimate_image_tokens("gemma3:4b", "gemma3", 640, 480) >= 256
    assert estimate_image_tokens("gemma3:4b", "gemma3", 640, 480) < 576
    small = estimate_image_tokens("qwen2.5vl:7b", "qwen25vl", 280, 280)
    large = estimate_image_tokens("qwen2.5vl:7b", "qwen25vl", 1400, 1400)
    assert small >= 100 and large >= 2500  # by pixels, 28×28 per token
    assert estimate_image_tokens("someone/new-vision:1b", None, 640, 480) >= 768


@pytest.mark.asyncio
async def test_a_chats_images_are_counted_again_for_the_model_now_in_use(session,
                                                                       server) -> None:
    s, _ = session
    s.new_chat()
    _attach(s)
    await send(s, "What does this chart show?")
    assert s.engine is not None
    before = s.engine.display_messages()[0]
    assert before.images[0].tokens == 768  # an unknown vision family: the cautious figure
    server.models.append(FakeModel("qwen2.5vl:3b", "qwen25vl", "3.0B", 32768,
                                   capabilities=("completion", "vision")))
    s.choose_model("qwen2.5vl:3b")
    await send(s, "And now?")
    after = s.engine.display_messages()[0]
    patches = (640 // 28 + 1) * (480 // 28 + 1) + 8
    assert after.images[0].tokens == patches != 768
    assert after.tokens == before.tokens - 768 + patches


@pytest.mark.asyncio
async def test_the_room_check_of_a_send_counts_the_images_waiting(session, server) -> None:
    s, _ = session
    s.new_chat()
    assert s.engine is not None
    usage = s.engine.usage()
    room = usage.usable - usage.system - usage.goal - usage.pinned
    text = "word " * int(room * 0.9 - 768)  # fits alone, not with a 768-token picture
    assert s.turns.check(text) is None
    _attach(s)
    assert s.turns.check(text) is not None


@pytest.mark.asyncio
async def test_a_purged_chats_picture_leaves_the_database_and_shared_ones_stay(
        session, server) -> None:
    s, _ = session
    s.new_chat()
    _attach(s, PNG, "private.png")
    await send(s, "Only in the first chat")
    first = s.chat.id
    photo = s.engine.display_messages()[0].images[0].id
    s.new_chat()
    _attach(s, OTHER, "kept.png")
    await send(s, "In the second chat")
    kept = s.engine.display_messages()[0].images[0].id
    _attach(s, PNG, "again.png")  # the first chat's picture, waiting to be sent here
    s.chat_list.trash(first)
    s.chat_list.purge(first)
    assert s.store.image_data(photo) is not None  # still waiting in the attachments
    s.images.remove(photo)
    s.new_chat()
    s.chat_list.trash(s.chat.id)
    s.chat_list.purge()  # the next purge of a deleted chat sweeps the pictures again
    assert s.store.image_data(photo) is None
    assert s.store.image_data(kept) is not None


@pytest.mark.asyncio
async def test_an_exported_chat_carries_its_pictures_to_another_machine(tmp_path, server) -> None:
    s, _ = _open(tmp_path, server)
    s.new_chat()
    _attach(s)
    await send(s, "What does this chart show?")
    photo = s.engine.display_messages()[0].images[0].id
    exported = tmp_path / "chat.json"
    s.snapshots.export_json(exported)
    s.store.close()
    elsewhere = ChatStore.open(app_paths(tmp_path / "elsewhere"))[0]
    other = ChatSession(elsewhere, make_settings(server, default_model=VISION))
    try:
        assert elsewhere.image_data(photo) is None
        chat = other.snapshots.import_json(exported)
        assert hasattr(chat, "id"), chat  # a chat, not a problem
        assert elsewhere.image_data(photo) == PNG
        state = elsewhere.load_engine_state(chat.id)
        assert state.messages[0].images[0].id == photo
    finally:
        elsewhere.close()
