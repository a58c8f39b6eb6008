"""The controller's send path against the loopback Ollama: no silent cuts, fit-and-retry on a
refused prompt, capped summaries, and sends that do not wait on a compaction they do not need.

Each test runs its whole scenario in one pass of the qasync loop (see ``controller_harness.run``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from ollm_desktop.backend.calibration import fit_counts, save_calibration
from ollm_desktop.session.calibrations import raw_tokens
from tests.controller_harness import (
    MODEL,
    Reply,
    is_summary_request,
    is_turn,
    make_controller,
    run,
    scripted_model,
    settle,
    shutdown,
    turn,
    until,
)
from tests.engine_fakes import text_of_tokens

LONG_QUESTION = "please explain the design again, with the trade-offs " * 4
REFUSED = "request (4,400 tokens) exceeds the available context size (4,096 tokens)"


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model()
    return ollama_server


def slow_summaries(delay: float) -> Any:
    """The scripted model, but every summary request waits ``delay`` s before answering."""
    base = scripted_model()

    def answer(body: dict[str, Any]) -> str | Reply:
        text = base(body)
        return Reply(text=text, delay_before=delay) if is_summary_request(body) else text

    return answer


async def build(controller, turns: int, start: int = 0) -> None:
    for i in range(start, start + turns):
        await turn(controller, f"Item {i}: {LONG_QUESTION}")


def summary_arrived(server, before: int) -> bool:
    return any(is_summary_request(b) for b in server.chat_requests()[before:])


# ------------------------------------------------------------------- on the wire
def test_every_chat_and_summary_refuses_silent_cuts_and_summaries_are_capped(
        qloop, controller, server):
    run(qloop, build(controller, 16))
    bodies = server.chat_requests()
    summaries = [b for b in bodies if is_summary_request(b)]
    turns = [b for b in bodies if is_turn(b)]
    assert summaries and len(turns) == 16
    for body in bodies:
        assert body["truncate"] is False and body["shift"] is False
        assert body["options"]["num_ctx"] == 4096
    limit = controller.session.engine.config.summary_max_tokens
    for body in summaries:
        assert 0 < body["options"]["num_predict"] <= limit
    assert not any("num_predict" in b["options"] for b in turns)  # replies are not capped


def test_a_summary_without_a_target_is_capped_too(qloop, controller, server):
    server.script("A short summary.")
    prompt = [{"role": "user", "content": "Summarise this."}]

    async def scenario():
        controller.new_chat("x")
        return await controller.session.ollama.summarize(prompt)

    assert run(qloop, scenario()) == "A short summary."
    body = server.chat_requests()[-1]
    assert body["options"]["num_predict"] == 1024 and body["truncate"] is False


# ------------------------------------------------------------- fit and retry
def test_a_refused_request_is_learned_from_fitted_and_resent_once(qloop, controller, server):
    infos, failed, learned, at_resend = [], [], {}, {}
    controller.replyFinished.connect(lambda m, info: infos.append(info))
    controller.sendFailed.connect(lambda text, reason: failed.append(text))

    def last_turn() -> list[dict]:
        return [b for b in server.chat_requests() if is_turn(b)][-1]["messages"]

    def fitting() -> None:  # the compaction that makes room starts after the learning
        if "refused" not in learned and infos and infos[-1].retried:
            messages, calibration = last_turn(), controller.session.calibrations.for_model(MODEL)
            learned["refused"] = calibration.estimate(raw_tokens(messages), len(messages))
            learned["factor"] = calibration.factor
            learned["scale"] = controller.session.engine.config.estimate_scale

    def resending(text: str) -> None:  # the notice comes after fitting, before the resend
        if "resent" in text:
            at_resend["planned"] = controller.session.engine.api_tokens()

    controller.compactionStarted.connect(fitting)
    controller.notice.connect(resending)

    async def scenario():
        while controller.session.engine is None or controller.session.engine.api_tokens() < 2300:
            await build(controller, 1, start=len(server.chat_requests()))
        before = len(server.chat_requests())
        # A server that names its count: the model counted 4,400 where we planned ~2,300.
        server.script(Reply(http_status=400, error=REFUSED))
        await turn(controller, "And the next step?")
        return before

    before = run(qloop, scenario())
    bodies = server.chat_requests()[before:]
    sent = [b for b in bodies if is_turn(b)]
    assert len(sent) == 2  # refused once, resent once
    refused, resent = sent
    assert refused["messages"][-1] == resent["messages"][-1] == {
        "role": "user", "content": "And the next step?"}
    # Learned and applied before fitting: the refused request is now estimated above the
    # model's count of it; the engine compacted to make room and planned within its budget.
    assert learned["refused"] > 4400
    assert learned["scale"] == learned["factor"] > 1.5  # the engine counts with it
    assert at_resend["planned"] <= controller.session.engine.usable
    between = bodies[bodies.index(refused) + 1:bodies.index(resent)]
    assert any(is_summary_request(b) for b in between)
    assert raw_tokens(resent["messages"]) < raw_tokens(refused["messages"])
    assert [info.retried for info in infos[-2:]] == [True, False] and not failed
    contents = [m.content for m in controller.session.engine.display_messages()]
    assert contents.count("And the next step?") == 1
    assert contents[-1].startswith("Reply")
    stored = controller.session.store.get_calibration(MODEL)
    learned = controller.session.calibrations.for_model(MODEL)
    assert stored is not None and stored[0] == learned.factor


def test_a_request_refused_twice_gives_the_text_back(qloop, controller, server):
    failed = []
    controller.sendFailed.connect(lambda text, reason: failed.append((text, reason)))
    run(qloop, build(controller, 3))
    before = len(server.chat_requests())
    server.script(Reply(http_status=400, error=REFUSED), Reply(http_status=400, error=REFUSED))
    run(qloop, turn(controller, "Will this fit?"))
    sent = [b for b in server.chat_requests()[before:] if is_turn(b)]
    assert len(sent) == 2  # one resend, never a third
    assert failed and failed[-1][0] == "Will this fit?"
    assert "context" in failed[-1][1]
    assert "Will this fit?" not in [m.content for m in controller.session.engine.display_messages()]
    stored = controller.session.store.load_engine_state(controller.chat.id)
    assert "Will this fit?" not in [m.content for m in stored.messages]
    assert not controller.busy


def test_a_model_that_counts_far_more_is_caught_by_refusals_and_no_text_is_lost(
        qloop, controller, server):
    """The fake counts on its own (~1.2x cl100k plus template) and refuses, as Ollama does with
    truncate=false, any prompt over num_ctx. Then it starts counting twice as much."""
    given_back: list[str] = []
    controller.sendFailed.connect(lambda text, reason: given_back.append(text))
    texts = [f"Question {i}: {LONG_QUESTION}".strip() for i in range(14)]

    async def scenario():
        while controller.session.engine is None or controller.session.engine.api_tokens() < 2100:
            await build(controller, 1, start=len(server.chat_requests()) + 100)
        server.prompt_scale = 2.0  # now over num_ctx by the model's count
        for text in texts:
            await turn(controller, text)
            while given_back and given_back[-1] == text:  # the user sends it again
                given_back.pop()
                await turn(controller, text)

    run(qloop, scenario())
    assert server.rejected, "the scenario never crossed the window"
    assert len(server.rejected) <= 3
    assert all(r.num_ctx == 4096 for r in server.rejected)
    contents = [m.content for m in controller.session.engine.display_messages()]
    for text in texts:
        assert contents.count(text) == 1
    # Once learned, requests fit the model's own count again.
    last = [b for b in server.chat_requests() if is_turn(b)][-3:]
    assert all(server.full_count(b["messages"]) <= 4096 for b in last)
    assert controller.session.calibrations.for_model(MODEL).factor >= 2.0


# ----------------------------------------------------- sends and compaction
def test_a_send_that_fits_goes_out_during_a_slow_compaction(qloop, controller, server):
    seen: list[tuple[bool, int]] = []
    controller.replyFinished.connect(lambda m, info: seen.append(
        (controller.compacting, controller.session.engine.compaction_count)))

    async def scenario():
        await build(controller, 6)
        assert controller.session.engine.compaction_count == 0
        server.reply_fn = slow_summaries(1.5)
        before = len(server.chat_requests())
        assert controller.compact() is not None
        await until(lambda: summary_arrived(server, before))
        seen.clear()
        send = controller.send("A short question while it compacts")
        assert send is not None
        await send
        await settle(controller)
        return before

    before = run(qloop, scenario())
    # The reply was complete while the compaction still ran: the send did not wait for it.
    assert seen == [(True, 0)]
    assert controller.turn_waits == {"turns": 7, "waited": 0}
    bodies = server.chat_requests()[before:]
    assert is_summary_request(bodies[0])
    assert bodies[-1]["messages"][-1]["content"] == "A short question while it compacts"
    assert controller.session.engine.compaction_count == 1
    assert controller.session.engine.display_messages()[-1].role == "assistant"


def test_a_send_that_does_not_fit_waits_for_the_compaction(qloop, controller, server):
    big = text_of_tokens(1400, prefix="Please review this draft: ")  # under the message cap
    events: list[str] = []
    controller.compactionFinished.connect(lambda report: events.append("compacted"))
    controller.replyStarted.connect(lambda _id: events.append("reply"))

    async def scenario():
        while controller.session.engine is None or controller.session.engine.usage().total < 1800:
            await build(controller, 1, start=len(server.chat_requests()))
        assert controller.session.engine.compaction_count == 0
        server.reply_fn = slow_summaries(0.5)
        before = len(server.chat_requests())
        assert controller.compact() is not None
        await until(lambda: summary_arrived(server, before))
        events.clear()
        send = controller.send(big)
        assert send is not None
        await send
        await settle(controller)
        return before

    before = run(qloop, scenario())
    assert controller.turn_waits["waited"] == 1
    assert events[:2] == ["compacted", "reply"]  # the reply started once the compaction ended
    bodies = server.chat_requests()[before:]
    turn_body = [b for b in bodies if is_turn(b)][-1]
    assert is_summary_request(bodies[0])
    assert turn_body["messages"][-1]["content"] == big  # whole, nothing cut to fit
    assert "of the chat." in turn_body["messages"][0]["content"]  # the new checkpoint


def test_a_send_waits_at_most_the_compaction_time_limit(qloop, tmp_path, server):
    """Even when a compaction overruns its limit (the engine bounds itself; this one is made
    to hang), a send that needs it waits no longer than ``compaction_timeout_s``."""
    c = make_controller(tmp_path / "data", server, compaction_timeout_s=1.0)
    big = text_of_tokens(1950, prefix="Please review this draft: ")
    release = asyncio.Event()

    async def scenario():
        while c.session.engine is None or c.session.engine.usage().total < 1600:
            await build(c, 1, start=len(server.chat_requests()))
        engine = c.session.engine
        compact = engine.compact

        async def hung(**kwargs: Any) -> Any:
            await release.wait()
            return await compact(**kwargs)

        engine.compact = hung  # type: ignore[method-assign]
        # A safety net only: if the send waited for the hung compaction, it ends (late) here.
        asyncio.get_running_loop().call_later(15.0, release.set)
        assert c.compact() is not None and c.compacting
        send = c.send(big)
        assert send is not None
        await send
        still = c.compacting
        release.set()
        await settle(c)
        return still

    try:
        still_compacting = run(qloop, scenario())
        # The reply went out while the compaction still hung: the send's wait was bounded
        # (the hung compaction is released 15 s later, by the safety net, or by the test).
        assert still_compacting
        assert c.turn_waits["waited"] == 1
        messages = [m for m in c.session.engine.display_messages() if m.role != "system"]
        assert messages[-2].content == big
        assert messages[-1].role == "assistant" and messages[-1].content.startswith("Reply")
    finally:
        shutdown(qloop, c)


# ----------------------------------------------------------------- settings
def test_the_engine_gets_the_time_limits_and_the_learned_counts(qloop, tmp_path, server):
    c = make_controller(tmp_path / "data", server, summary_timeout_s=42.0,
                        compaction_timeout_s=99.0, keep_recent_turns=3)
    try:
        calibration = c.session.calibrations.for_model(MODEL)
        calibration.factor, calibration.per_message, calibration.per_request = 1.25, 5, 6
        save_calibration(c.session.store, MODEL, calibration)
        c.session.calibrations._by_model.clear()  # as after a restart: read back from the store
        c.new_chat("limits")
        config = c.session.engine.config
        assert (config.summary_timeout_s, config.compaction_timeout_s) == (42.0, 99.0)
        assert config.keep_recent_turns == 3 and config.preserve_recent_tokens == 600
        assert (config.estimate_scale, config.message_overhead, config.request_overhead) == (
            1.25, 5, 6)
        new = c.settings  # a copy: preferences change only through apply_settings
        new.summary_timeout_s, new.compaction_timeout_s = 60.0, 300.0
        new.keep_recent_turns = 5
        assert c.session.settings.keep_recent_turns == 3
        c.apply_settings(new)
        assert (config.summary_timeout_s, config.compaction_timeout_s) == (60.0, 300.0)
        assert c.session.engine.config.keep_recent_turns == 5
        run(qloop, settle(c))
    finally:
        shutdown(qloop, c)


def test_learned_overhead_reaches_the_engine_after_turns(qloop, controller, server):
    run(qloop, build(controller, 14))
    calibration = controller.session.calibrations.for_model(MODEL)
    config = controller.session.engine.config
    assert calibration.samples >= 14
    # Every request (turns and summaries) was a sample with its message count: a real fit.
    fit = fit_counts(calibration._window)
    assert fit is not None
    assert (calibration.per_message, calibration.per_request) == (fit.per_message,
                                                                   fit.per_request)
    assert (config.message_overhead, config.request_overhead) == (
        calibration.per_message, calibration.per_request)
    assert abs(config.estimate_scale - calibration.factor) <= 0.05
    # The fake counts ~1.2x cl100k: the learned factor is near that, not the default 1.0,
    # and the estimate of the last request is close to the fake's own count of it.
    assert 1.05 <= calibration.factor <= 1.5
    last = [b for b in server.chat_requests() if is_turn(b)][-1]["messages"]
    actual = server.full_count(last)
    assert abs(calibration.estimate(raw_tokens(last), len(last)) - actual) <= 0.05 * actual
