"""Through the controller on the qasync loop (issue 29): while a background compaction works
on its copy of the chat on a thread, a pin and a delete go through at once, and its result,
stale by then, is worked out again before it is applied."""

from __future__ import annotations

import asyncio

import pytest

from ollm_desktop.engine.compaction_draft import STALE
from tests.controller_harness import run, settle, until
from tests.test_session_compaction_off_loop import Gate

QUESTION = "please explain the design again, with the trade-offs " * 4


@pytest.fixture
def server(ollama_server):
    return ollama_server


def test_a_pin_and_a_delete_during_a_background_compaction_are_kept(qloop, controller,
                                                                     server) -> None:
    gate = Gate(server)
    errors: list[tuple[str, str]] = []
    controller.error.connect(lambda kind, text: errors.append((kind, text)))
    finished = []
    controller.compactionFinished.connect(finished.append)

    async def scenario() -> tuple[str, str]:
        for i in range(40):
            task = controller.send(f"Message {i}: {QUESTION}")
            assert task is not None
            await asyncio.gather(task, return_exceptions=True)
            if controller.compacting:  # a background one: its summary waits at the gate
                break
        await until(gate.called.is_set, timeout=30)
        assert controller.compacting
        messages = controller.session.engine.display_messages()
        pinned, deleted = messages[1], messages[3]
        controller.set_pinned(pinned.id, True)
        assert controller.delete_message(deleted.id) is not None  # not refused as busy
        gate.open.set()
        await until(lambda: bool(finished))
        await settle(controller)
        return pinned.id, deleted.id

    pinned, deleted = run(qloop, scenario())
    engine = controller.session.engine
    summarised = {mid for g in engine.groups for mid in g.message_ids}
    # Run again from the changed chat: compacted, or below its threshold now (one message
    # less); never the stale result (which summarised both).
    assert finished[-1].status in ("compacted", "skipped") and finished[-1].reason != STALE
    assert pinned not in summarised and engine.message(pinned).pinned
    assert deleted not in summarised and engine.message(deleted) is None
    assert not [e for e in errors if e[0] == "busy"]
