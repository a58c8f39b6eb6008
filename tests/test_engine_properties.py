"""Property-based tests: random conversations, pins, context sizes and adversarial summarizers.

After every step: what is sent fits the usable context (or, when pins alone do not fit,
nothing is sent: ``api_messages()`` raises and ``over_budget`` says so), it also fits num_ctx
by a stricter counter than the engine's (cl100k + 8 per message + 16 per request), every pin
is present verbatim and in order, the display history is complete and ordered, roles alternate,
no summarizer answer ever closes the summary wrapper, and ``from_state(state())`` rebuilds an
engine that sends exactly the same messages. Summarizers refuse, echo, inject tags and hang.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ollm_desktop.engine import ContextEngine, EngineConfig, EngineState, PinsOverBudget
from ollm_desktop.engine.context import SUMMARY_CLOSE
from tests.engine_fakes import (
    ADVERSARIES,
    Prompt,
    RecordingSummarizer,
    api_token_total,
    roles_valid,
    run,
    strict_count,
    words,
)

CONTEXT_SIZES = st.one_of(
    st.sampled_from([2048, 4096, 8192, 16384, 32768, 65536, 131072]),
    st.integers(min_value=2048, max_value=131072),
)

SHARES = st.one_of(
    st.floats(min_value=0.001, max_value=0.06),
    st.floats(min_value=0.001, max_value=0.06),
    st.floats(min_value=0.001, max_value=0.06),
    st.floats(min_value=0.06, max_value=0.35),
)
ADD = st.tuples(
    st.just("add"),
    st.sampled_from(["user", "user", "assistant", "assistant", "assistant"]),
    SHARES,  # of the usable context
    st.integers(min_value=0, max_value=9).map(lambda n: n == 0),  # 10 % pinned
)
OPS = st.one_of(
    *[ADD] * 8,
    st.tuples(st.just("auto")),
    st.tuples(st.just("auto")),
    st.tuples(st.just("compact"), st.booleans(), st.sampled_from([None, "the plan"])),
    st.tuples(st.just("pin"), st.integers(min_value=0, max_value=10_000), st.booleans()),
    st.tuples(st.just("undo")),
    st.tuples(st.just("reload")),
)
# Good answers are likelier so that compactions stack up; every adversary still shows up.
KINDS = st.lists(
    st.sampled_from(["good", "good", "good", *sorted(ADVERSARIES)]), min_size=1, max_size=4
)



class MixedSummarizer(RecordingSummarizer):
    """Cycles through adversaries, one behaviour per call."""

    def __init__(self, kinds: list[str], seed: int) -> None:
        super().__init__()
        self.fakes = [ADVERSARIES[kind](seed + i) for i, kind in enumerate(kinds)]

    async def __call__(self, prompt: Prompt) -> str:
        self.prompts.append(prompt)
        fake = self.fakes[(len(self.prompts) - 1) % len(self.fakes)]
        return await fake(prompt)


def check_invariants(engine: ContextEngine, added: list[str], recount: bool) -> None:
    usage = engine.usage()
    if usage.over_budget:
        # Nothing over the context is ever sent: the send is refused, naming what to unpin.
        with pytest.raises(PinsOverBudget):
            engine.api_messages()
        pinned = sum(m.tokens for m in engine.display_messages() if m.pinned)
        # What may never be left out: pins, the system prompt, the goal, and the newest
        # unpinned messages cut to their beginning and end (at most ~100 tokens each).
        kept = sum(1 for v in engine.visibility().values() if v == "clipped")
        assert pinned + usage.system + usage.goal + 100 * kept > usage.usable - 64
        assert usage.blocking_pins or usage.system + usage.goal >= usage.usable
        assert [m.id for m in engine.display_messages()] == added
        return
    api = engine.api_messages()
    text = "\n".join(m["content"] for m in api)
    pins = [m for m in engine.display_messages() if m.pinned]
    position = 0
    for pin in pins:
        found = text.find(pin.content, position)
        assert found >= 0, f"pinned message {pin.id} missing or out of order"
        position = found + len(pin.content)
    assert usage.total <= usage.usable
    if recount:  # an independent count, when every message is real text
        assert api_token_total(engine) <= usage.usable
        assert strict_count(api) <= engine.config.context_size
    assert text.count(SUMMARY_CLOSE) <= 1
    assert [m.id for m in engine.display_messages()] == added
    assert roles_valid(api)
    state = EngineState.model_validate_json(engine.state().model_dump_json())
    rebuilt = ContextEngine.from_state(state, None, engine._summarize)
    assert rebuilt.api_messages() == api


def play(
    context_size: int, kinds: list[str], seed: int, ops: list[tuple], *, reported_sizes: bool
) -> None:
    """Run ``ops``; with ``reported_sizes`` sizes come as Ollama-reported counts on short texts
    (fast at 128K), otherwise as real text that is re-tokenised to check the engine's count."""
    summarizer = MixedSummarizer(kinds, seed)
    config = EngineConfig(
        context_size=context_size,
        min_messages=1 + seed % 6,
        strategy="truncate" if seed % 7 == 0 else "summarize",
        preserve_user_messages=seed % 5 != 0,
        summary_timeout_s=0.01,
        compaction_timeout_s=0.05,
    )
    engine = ContextEngine(config, summarizer, system_prompt="You are a test assistant.")
    usable = engine.usable
    added: list[str] = []
    for step, op in enumerate(ops):
        kind = op[0]
        if kind == "add":
            _, role, share, pinned = op
            size = max(1, int(usable * share * (0.3 if pinned else 1.0)))
            if reported_sizes:
                content = f"[{step}] " + words(1 + size % 40, step)
                message = engine.add(role, content, pinned=pinned, token_count=size)
            else:
                message = engine.add(role, f"[{step}] " + words(size, step), pinned=pinned)
            added.append(message.id)
        elif kind == "auto":
            if engine.needs_compaction():
                run(engine.compact())
        elif kind == "compact":
            _, force, focus = op
            report = run(engine.compact(force=force, focus=focus))
            assert report.reason
        elif kind == "pin" and added:
            _, index, pinned = op
            engine.set_pinned(added[index % len(added)], pinned)
        elif kind == "undo":
            result = engine.undo_last_compaction()
            assert result.reason
        elif kind == "reload":
            engine = ContextEngine.from_state(engine.state(), None, summarizer)
        check_invariants(engine, added, recount=not reported_sizes)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    context_size=CONTEXT_SIZES,
    kinds=KINDS,
    seed=st.integers(min_value=0, max_value=1000),
    ops=st.lists(OPS, min_size=30, max_size=100),
)
def test_random_conversations_keep_every_guarantee(
    context_size: int, kinds: list[str], seed: int, ops: list[tuple]
) -> None:
    play(context_size, kinds, seed, ops, reported_sizes=True)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    context_size=st.integers(min_value=2048, max_value=6144),
    kinds=KINDS,
    seed=st.integers(min_value=0, max_value=1000),
    shares=st.lists(st.floats(min_value=0.005, max_value=0.12), min_size=30, max_size=80),
)
def test_long_chats_with_auto_compaction(
    context_size: int, kinds: list[str], seed: int, shares: list[float]
) -> None:
    """The controller's loop: add, compact when needed, send; many compactions deep."""
    ops: list[tuple] = []
    for i, share in enumerate(shares):
        ops.append(("add", "user" if i % 2 == 0 else "assistant", share, i % 13 == 5))
        ops.append(("auto",))
    play(context_size, kinds, seed, ops, reported_sizes=False)
