"""The request layout that the server's KV cache can reuse (issue 21), measured on the wire.

The loopback server keeps one slot, as Ollama does by default: the previous request and the
reply it generated. For each request it records how many of its tokens (the server's own
units) are a prefix of what the slot holds. A chat of 30 turns at 2K through the real
controller, the user reading between turns (background compactions finish, the cache is
warmed), must reach the issue's goals on it; a layout change that breaks the prefix fails here.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from ollm_desktop.engine.recall import INTRO
from tests.controller_harness import (
    is_summary_request,
    is_turn,
    is_warmup,
    make_controller,
    run,
    scripted_model,
    shutdown,
    turn,
)
from tests.engine_fakes import words


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=90)
    return ollama_server


def _share(records: list[Any]) -> float:
    prompt = sum(r.slot["prompt"] for r in records)
    return sum(r.slot["prefix"] for r in records) / prompt


def _chat(qloop, tmp_path, server, turns: int) -> tuple[Any, list[Any]]:
    controller = make_controller(tmp_path / "data", server, context_size=2048,
                                 preserve_recent_tokens=0)

    async def scenario() -> None:
        controller.new_chat("layout")
        for n in range(turns):
            # every reply is followed by the background compaction and warm-up ("settle")
            await turn(controller, f"Question {n}: " + words(30, n))

    run(qloop, scenario())
    return controller, [s for s in server.streams if s.outcome == "done"]


def test_thirty_turns_at_2k_take_most_of_each_request_from_the_cache(qloop, tmp_path, server):
    controller, streams = _chat(qloop, tmp_path, server, 30)
    try:
        engine = controller.session.engine
        assert engine.compaction_count >= 3  # the chat compacted several times
        bodies = [{"messages": s.messages, "options": {"num_predict": s.num_predict}}
                  for s in streams]
        chats = [s for s, b in zip(streams, bodies, strict=True) if is_turn(b)]
        summaries = [s for s, b in zip(streams, bodies, strict=True) if is_summary_request(b)]
        warmups = [s for s, b in zip(streams, bodies, strict=True) if is_warmup(b)]
        assert len(chats) == 30 and summaries and warmups
        assert _share(chats) >= 0.75
        assert _share(summaries) >= 0.70
        # each figure beside its highest possible share
        possible = sum(s.slot["possible"] for s in chats) / sum(s.slot["prompt"] for s in chats)
        assert possible >= _share(chats)
    finally:
        shutdown(qloop, controller)


def test_between_compactions_a_request_is_the_previous_one_plus_the_new_turns(
        qloop, tmp_path, server):
    controller, _ = _chat(qloop, tmp_path, server, 18)
    try:
        bodies = [b for b in server.chat_requests() if is_turn(b)]
        kept = 0
        for before, after in itertools.pairwise(bodies):
            system_before, system_after = before["messages"][0], after["messages"][0]
            if system_before == system_after:  # no compaction in between
                # (recalled text goes only into the request that asked: never carried on)
                sent = [*before["messages"][:-1], {**before["messages"][-1], "content":
                        before["messages"][-1]["content"].split(f"\n\n{INTRO}")[0]}]
                assert after["messages"][:len(sent)] == sent
                kept += 1
        assert kept >= 5
        assert not any(is_warmup(b) and b["options"].get("num_predict") != 1
                       for b in server.chat_requests())
    finally:
        shutdown(qloop, controller)
