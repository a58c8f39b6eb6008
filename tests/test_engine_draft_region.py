"""A compaction's copy hands the chat its request ready-made (issue 29): the facts region and
the request are built on the worker, counted with the calibration its summaries taught, so the
event loop builds nothing again after the result is applied. A handed-over region is used only
while it is what the loop would build itself: each test compares the chat's request with one
built from scratch from the same state, and fails if a stale region (one that misses a
correction sent while the copy worked) were kept.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ollm_desktop.engine import ContextEngine, EngineConfig
from ollm_desktop.engine.compaction_draft import InPlace
from tests.engine_fakes import GoodSummarizer, exchange

PORT = "The API port is 8443, and the admin console stays on its own port."
CORRECTION = "Actually the API port is 9443, not 8443."


def _chat() -> ContextEngine:
    engine = ContextEngine(EngineConfig(context_size=8192, min_messages=2), GoodSummarizer())
    engine.add("user", PORT)
    engine.add("assistant", "Noted: the API listens on 8443.")
    for turn in range(16):
        exchange(engine, turn)
    return engine


def _built_afresh(engine: ContextEngine) -> list[dict[str, Any]]:
    """The request the loop would build itself from the chat's state (no handed region)."""
    fresh = ContextEngine(engine.config.model_copy(), GoodSummarizer())
    fresh.load_state(engine.state())
    return fresh.api_messages()


class Counting(InPlace):
    """Runs the job on the caller's loop; ``during`` acts while the copy works."""

    def __init__(self, during: Any = None) -> None:
        self.during = during

    async def run(self, job):  # type: ignore[no-untyped-def]
        result = await job()
        if self.during is not None:
            self.during()
            self.during = None
        return result


def _compact(engine: ContextEngine, worker: InPlace, calibration: Any = None) -> Any:
    return asyncio.run(engine.compact(force=True, worker=worker, calibration=calibration))


def test_the_copy_hands_over_its_region_and_request() -> None:
    engine = _chat()
    report = _compact(engine, Counting())
    assert report.status == "compacted"
    assert engine._region is not None and engine._api is not None  # nothing left to build
    assert engine.api_messages() == _built_afresh(engine)


def test_a_correction_sent_while_compacting_is_not_lost_to_the_handed_region() -> None:
    engine = _chat()
    report = _compact(engine, Counting(during=lambda: engine.add("user", CORRECTION)))
    assert report.status == "compacted"
    sent = engine.api_messages()
    assert sent == _built_afresh(engine)  # the copy's region (8443 current) was not kept
    assert CORRECTION in sent[-1]["content"]


def test_the_calibration_its_summaries_taught_counts_the_handed_region() -> None:
    engine = _chat()
    asked: list[int] = []

    async def calibration() -> tuple[float | None, int, int]:
        asked.append(1)
        return 1.4, 11, 21

    report = _compact(engine, Counting(), calibration)
    assert report.status == "compacted" and asked == [1]
    config = engine.config
    assert (config.estimate_scale, config.message_overhead, config.request_overhead) == (
        1.4, 11, 21)
    assert engine._api is not None  # the calibration did not make the loop build it again
    assert engine.api_messages() == _built_afresh(engine)
    assert engine.usage() == ContextEngine.usage(_reloaded(engine))
    stored = engine.state()
    assert [m.tokens for m in stored.messages] == [m.tokens for m in _reloaded(engine).state(
        ).messages]


def test_a_stale_copy_hands_over_nothing() -> None:
    """A pin while the copy works makes its result stale: neither its region nor its
    calibration reaches the chat (the run from a new copy brings its own)."""
    engine = _chat()
    target = engine.display_messages()[3]
    scales = iter([(1.6, 9, 17), (1.2, 9, 17)])

    async def calibration() -> tuple[float | None, int, int]:
        return next(scales)

    report = _compact(engine, Counting(during=lambda: engine.set_pinned(target.id, True)),
                      calibration)
    assert report.status == "compacted"
    assert engine.config.estimate_scale == 1.2  # the second run's, not the stale one's
    assert engine.visibility()[target.id] == "preserved"
    assert engine.api_messages() == _built_afresh(engine)


def _reloaded(engine: ContextEngine) -> ContextEngine:
    fresh = ContextEngine(engine.config.model_copy(), GoodSummarizer())
    fresh.load_state(engine.state())
    return fresh
