"""Images on user messages in the engine (issue 15): counted in the budget, listed on their
message in the request (by id; the session puts the bytes in), and once their turn is
compacted replaced by their short description, in the summary request and in the context."""

from __future__ import annotations

from ollm_desktop.engine import ContextEngine, EngineConfig, Message
from ollm_desktop.engine.models import ImageRef
from tests.engine_fakes import GoodSummarizer, api_text, chat, compact, exchange

PLOT = ImageRef(id="a" * 64, name="plot.png", width=640, height=480, tokens=700,
                description="a bar chart of request latency per region")
PHOTO = ImageRef(id="b" * 64, name="desk.jpg", width=800, height=600, tokens=900)
QUESTION = "What does this chart say about the eu-west latency?"


def _engine(**config: int) -> ContextEngine:
    return ContextEngine(EngineConfig(context_size=8192, **config), GoodSummarizer(),
                         "You are helpful.")


def test_a_message_counts_its_images_and_the_request_lists_them() -> None:
    plain, pictured = _engine(), _engine()
    plain.add_message(Message(role="user", content=QUESTION))
    message = pictured.add_message(Message(role="user", content=QUESTION,
                                           images=[PLOT, PHOTO]))
    text_only = plain.display_messages()[0].tokens
    assert message.tokens == text_only + PLOT.tokens + PHOTO.tokens
    assert pictured.api_tokens() == plain.api_tokens() + PLOT.tokens + PHOTO.tokens
    assert pictured.usage().total == pictured.api_tokens()
    last = pictured.api_messages()[-1]
    assert last["content"] == QUESTION
    assert last["images"].split() == [PLOT.id, PHOTO.id]
    assert "images" not in plain.api_messages()[-1]


def test_image_tokens_survive_a_recalibration_and_a_reload() -> None:
    engine = _engine()
    message = engine.add_message(Message(role="user", content=QUESTION, images=[PHOTO]))
    text = engine._data.message_tokens(QUESTION)
    assert message.tokens == text + PHOTO.tokens
    engine.set_calibration(scale=1.5, per_message=12)
    text = engine._data.message_tokens(QUESTION)
    assert engine.display_messages()[0].tokens == text + PHOTO.tokens
    state = engine.state()
    state.messages[0].partial = True  # a reloaded partial message is counted again
    reloaded = ContextEngine.from_state(state, EngineConfig(context_size=8192),
                                        GoodSummarizer())
    assert reloaded.display_messages()[0].tokens == reloaded._data.message_tokens(
        QUESTION) + PHOTO.tokens


def test_consecutive_user_messages_keep_every_image_when_merged() -> None:
    engine = _engine()
    engine.add_message(Message(role="user", content="First picture", images=[PLOT]))
    engine.add_message(Message(role="user", content="Second picture", images=[PHOTO]))
    last = engine.api_messages()[-1]
    assert last["content"] == "First picture\n\nSecond picture"
    assert last["images"].split() == [PLOT.id, PHOTO.id]


def test_a_large_image_does_not_get_its_short_text_clipped() -> None:
    engine = ContextEngine(EngineConfig(context_size=4096), GoodSummarizer(), "")
    big = PHOTO.model_copy(update={"tokens": 2200})  # over the one-message cap (2088)
    engine.add_message(Message(role="user", content=QUESTION, images=[big]))
    assert engine.api_messages()[-1]["content"] == QUESTION
    assert engine.visibility()[engine.display_messages()[0].id] == "verbatim"


def _compacted_with_images(preserve_users: bool) -> tuple[ContextEngine, GoodSummarizer]:
    summarizer = GoodSummarizer()
    config = EngineConfig(context_size=8192, min_messages=2,
                          preserve_user_messages=preserve_users)
    engine, _ = chat(config, summarizer)
    engine.add_message(Message(role="user", content=QUESTION, images=[PLOT, PHOTO]))
    engine.add("assistant", "The eu-west bars are twice as tall as the others.")
    for turn in range(20):
        exchange(engine, turn, user_words=15)
    assert compact(engine, force=True).status == "compacted"
    return engine, summarizer


def test_a_compacted_turn_shows_its_images_as_their_description_to_the_summarizer() -> None:
    engine, summarizer = _compacted_with_images(preserve_users=False)
    prompt = summarizer.prompts[0][-1]["content"]
    assert f"{QUESTION}\n[image: {PLOT.description}]" in prompt
    assert "[image: an image (desk.jpg, 800×600)]" in prompt  # no description: plain text
    assert PLOT.id not in prompt
    assert all("images" not in m for m in engine.api_messages())  # summarised: no pictures


def test_a_preserved_earlier_request_quotes_its_images_as_text() -> None:
    engine, summarizer = _compacted_with_images(preserve_users=True)
    assert f"[image: {PLOT.description}]" in summarizer.prompts[0][-1]["content"]
    text = api_text(engine)
    assert f"> {QUESTION}\n> [image: {PLOT.description}]" in text
    assert all("images" not in m for m in engine.api_messages())
