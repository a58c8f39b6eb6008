"""Regenerate and Continue when things go wrong (issue 14, point 3): nothing is lost.

The controller against the loopback fake Ollama; the window's side is in
tests/test_ui_stopped_replies.py.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.controller_harness import (
    Reply,
    is_turn,
    run,
    scripted_model,
    settle,
    turn,
    until,
)

LONG = " ".join(f"w{i}" for i in range(400))


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=40)
    return ollama_server


def stored(controller) -> list[tuple[str, str, bool]]:
    state = controller.session.store.load_engine_state(controller.chat.id)
    return [(m.id, m.content, m.partial) for m in state.messages]


def engine_rows(controller) -> list[tuple[str, str, bool]]:
    return [(m.id, m.content, m.partial)
            for m in controller.session.engine.display_messages()]


async def stopped_reply(controller, server) -> None:
    server.script(Reply(text=LONG, delay_per_chunk=0.01))
    chunks: list[str] = []
    controller.replyChunk.connect(lambda _id, text: chunks.append(text))
    task = controller.send("Write a lot")
    await until(lambda: len(chunks) >= 5)
    controller.stop()
    await asyncio.gather(task, return_exceptions=True)
    await settle(controller)


async def finish(task) -> None:
    assert task is not None
    await asyncio.gather(task, return_exceptions=True)


@pytest.mark.parametrize("reply", [Reply(http_status=500, error="boom"), Reply(cut_after=0)],
                         ids=["http-500", "cut"])
def test_a_regenerate_that_brings_nothing_puts_the_previous_reply_back(qloop, controller,
                                                                       server, reply):
    errors: list[str] = []
    controller.error.connect(lambda _kind, text: errors.append(text))
    failed: list[str] = []
    controller.sendFailed.connect(lambda text, _reason: failed.append(text))
    server.script("The answer to keep.")
    run(qloop, turn(controller, "A question"))
    before = engine_rows(controller)
    server.script(reply)

    async def scenario():
        await finish(controller.regenerate())
        await settle(controller)

    run(qloop, scenario())
    assert engine_rows(controller) == before == stored(controller)
    assert errors and errors[-1].endswith("The previous reply is kept.")
    assert not failed  # the question stays: it is not given back to the input
    assert not controller.busy


def test_a_regenerate_stopped_before_any_text_keeps_the_previous_reply(qloop, controller,
                                                                      server):
    server.script("The answer to keep.")
    run(qloop, turn(controller, "A question"))
    before = engine_rows(controller)
    server.script(Reply(text="late", delay_before=1.0))

    async def scenario():
        task = controller.regenerate()
        await until(lambda: len([b for b in server.chat_requests()
                                 if is_turn(b)]) == 2)
        controller.stop()
        await finish(task)
        await settle(controller)

    run(qloop, scenario())
    assert engine_rows(controller) == before == stored(controller)
    assert not controller.busy


def test_a_continue_that_fails_keeps_the_stopped_reply_as_it_was(qloop, controller, server):
    errors: list[str] = []
    controller.error.connect(lambda _kind, text: errors.append(text))
    run(qloop, stopped_reply(controller, server))
    before = engine_rows(controller)
    assert before[-1][2]  # partial
    server.script(Reply(http_status=500, error="model crashed"))
    run(qloop, finish(controller.continue_reply()))
    assert engine_rows(controller) == before == stored(controller)
    assert errors and "model crashed" in errors[-1]
    assert not controller.busy


def test_a_stopped_continue_keeps_what_arrived_and_can_be_continued_again(qloop, controller,
                                                                         server):
    run(qloop, stopped_reply(controller, server))
    first = engine_rows(controller)[-1]
    server.script(Reply(text=" " + " ".join(f"x{i}" for i in range(300)),
                        delay_per_chunk=0.01))
    chunks: list[str] = []
    controller.replyChunk.connect(lambda _id, text: chunks.append(text))

    async def scenario():
        task = controller.continue_reply()
        await until(lambda: len(chunks) >= 5)
        controller.stop()
        await finish(task)
        await settle(controller)

    run(qloop, scenario())
    grown = engine_rows(controller)[-1]
    assert grown[0] == first[0] and grown[2]  # the same reply, still stopped
    assert grown[1].startswith(first[1] + " x0 x1")
    assert stored(controller)[-1] == grown
    server.script(" the end.")
    run(qloop, finish(controller.continue_reply()))
    done = engine_rows(controller)[-1]
    assert done == (first[0], grown[1] + " the end.", False)
    assert stored(controller)[-1] == done
