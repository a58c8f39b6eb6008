"""The chat goes on while a summary is being written: nothing added meanwhile is lost."""

from __future__ import annotations

import asyncio

from ollm_desktop.engine import ContextEngine, EngineConfig
from tests.engine_fakes import GoodSummarizer, Prompt, api_text, exchange, run


class GatedSummarizer(GoodSummarizer):
    """Answers only once the test opens the gate; tells the test when it was called."""

    def __init__(self) -> None:
        super().__init__()
        self.called = asyncio.Event()
        self.gate = asyncio.Event()

    async def __call__(self, prompt: Prompt) -> str:
        self.called.set()
        await self.gate.wait()
        return await super().__call__(prompt)


async def _scenario() -> None:
    summarizer = GatedSummarizer()
    engine = ContextEngine(EngineConfig(context_size=8192, min_messages=2), summarizer, "sys")
    for turn in range(16):
        exchange(engine, turn)
    span_reply = engine.display_messages()[3]
    task = asyncio.create_task(engine.compact(force=True))
    await summarizer.called.wait()
    assert engine.compacting
    assert not engine.needs_compaction()
    assert not engine.undo_last_compaction().ok
    # Meanwhile: the user pins a message being summarised and the chat continues.
    engine.set_pinned(span_reply.id, True)
    late = [engine.add("user", "late question"), engine.add("assistant", "late answer")]
    summarizer.gate.set()
    report = await task
    assert report.status == "compacted"
    assert not engine.compacting
    assert span_reply.id in engine.groups[0].message_ids
    text = api_text(engine)
    assert span_reply.content in text  # pinned wins over the summary
    assert all(m.content in text for m in late)
    assert engine.display_messages()[-2:] == late
    assert engine.usage().total <= engine.usable


def test_messages_and_pins_during_a_compaction_are_kept() -> None:
    run(_scenario())


async def _two_at_once() -> None:
    summarizer = GatedSummarizer()
    engine = ContextEngine(EngineConfig(context_size=8192, min_messages=2), summarizer)
    for turn in range(16):
        exchange(engine, turn)
    first = asyncio.create_task(engine.compact(force=True))
    second = asyncio.create_task(engine.compact(force=True))
    await summarizer.called.wait()
    summarizer.gate.set()
    reports = await asyncio.gather(first, second)
    assert reports[0].status == "compacted"
    assert reports[1].status in ("compacted", "skipped")
    owned = [mid for g in engine.groups for mid in g.message_ids]
    assert len(owned) == len(set(owned))  # the second never re-summarised the first's span


def test_concurrent_compactions_are_serialised() -> None:
    run(_two_at_once())
