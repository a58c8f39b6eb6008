"""The chat list's operations through the controller, while a reply streams elsewhere."""

from __future__ import annotations

import asyncio

import pytest

from tests.controller_harness import (
    Reply,
    run,
    scripted_model,
    settle,
    turn,
    until,
)


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=20)
    return ollama_server


def test_undoing_a_delete_never_stops_a_reply_streaming_in_the_open_chat(
        qloop, controller, server):
    async def scenario():
        await turn(controller, "Chat A")
        first = controller.chat.id
        controller.new_chat()
        await turn(controller, "Chat B")
        second = controller.chat.id
        controller.open_chat(first)
        controller.trash_chat(first)  # the open chat: the next one opens
        assert controller.chat.id == second
        server.script(Reply(text=" ".join(f"w{i}" for i in range(200)),
                                   delay_per_chunk=0.01))
        task = controller.send("A long answer, please")
        assert task is not None
        await until(lambda: controller.busy)
        assert controller.restore_chat(first, reopen=True)
        assert not task.cancelled() and controller.busy and controller.chat.id == second
        await asyncio.gather(task)
        await settle(controller)
        return first, task

    first, task = run(qloop, scenario())
    assert not task.cancelled()
    assert controller.display_messages()[-1].partial is False
    assert first in {c.id for c in controller.list_chats()}
