"""``bench.memory --kind tools``: the conversation is fair (each asked value appears once, in
its own fact or tool output, never in an answer), and a short run reports retention and the
share of tool output sent for ours beside truncate."""

from __future__ import annotations

import asyncio
import json

from bench.memory.tools import DEPTHS, depth_label, play, table
from bench.memory.tools_corpus import generate


def test_each_asked_value_is_stated_once_and_never_answered() -> None:
    chat = generate(seed=3)
    assert sum(len(t.calls) for t in chat.turns) == 100
    kinds = [q.kind for q in chat.questions]
    assert kinds.count("user fact") == 5 and kinds.count("tool identifier") == 12
    for question in chat.questions:
        texts = [t.user for t in chat.turns] + [c.output for t in chat.turns for c in t.calls]
        assert sum(question.value in text for text in texts) == 1, question
        assert not any(question.value in t.answer for t in chat.turns)
        assert question.value not in question.text


def test_a_short_run_reports_retention_and_tool_output_by_depth() -> None:
    chat = generate(seed=1, turns=24, calls=36)
    ours = asyncio.run(play(chat, "ollm", 2048, "keep-facts"))
    peer = asyncio.run(play(chat, "truncate", 2048, "keep-facts"))
    assert ours["requests_over_window"] == 0
    assert ours["tool_identifiers"] >= peer["tool_identifiers"]
    assert ours["user_facts"] >= peer["user_facts"]
    labels = {depth_label(lo, hi) for lo, hi in DEPTHS}
    assert set(ours["tool_output_sent_by_depth"]) <= labels
    assert ours["tool_output_sent_by_depth"]["0"] < peer["tool_output_sent_by_depth"]["0"]
    text = table([ours, peer])
    assert "| 2,048 | ollm |" in text and "vs truncate" in text
    json.dumps(ours)  # what the result file holds
