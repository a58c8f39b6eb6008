"""Review findings on the request layout (engine): each test failed before its fix.

8: the ledger shrinking for room kept its pinned facts and said which facts were left out;
9: a region rebuild is linear in the chat's length; 12: a leading continue stub does not stop
a summary from reusing the chat's prefix; 13: a retry refused as too long still falls back to
the standalone prompt; 14: the quoted parts' counts are those of the annotated text.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from types import SimpleNamespace
from typing import Any

import pytest

from ollm_desktop.engine import ContextEngine, EngineConfig, budget, prompts
from ollm_desktop.engine.assembly import CONTINUE_STUB, Assembly, build_region
from ollm_desktop.engine.conversation import Conversation
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.models import CompactionReport, Message
from ollm_desktop.engine.summarizer import Deadline, SummaryCaller, SummaryFailed
from ollm_desktop.engine.summary_requests import SummaryWriter
from tests.engine_fakes import GoodSummarizer, ScriptedSummarizer, compact, text_of_tokens, words


# ------------------------------------------------------------------ 8: pinned facts stay
def _short_of_room() -> tuple[ContextEngine, Fact, list[Fact]]:
    """A 2K chat whose pinned turns and newest message leave (almost) no room for the ledger."""
    engine = ContextEngine(EngineConfig(context_size=2048, min_messages=2), GoodSummarizer(),
                           "You are helpful.")
    pin = engine.add_fact("The deploy key lives in vault path secret/deploy/prod.", pinned=True)
    others = [engine.add_fact(f"Note {n}: " + words(25, n)) for n in range(12)]
    engine.add("user", "Keep this: " + words(700, 3), pinned=True)
    engine.add("assistant", "Noted.", pinned=True)
    engine.add("user", "Question: " + words(950, 1))
    return engine, pin, others


def test_a_ledger_shrunk_for_room_keeps_its_pinned_facts() -> None:
    """facts.py: pinned entries are never evicted. The ledger used to be emptied outright
    (pins too) before the largest unpinned message was cut."""
    engine, pin, _ = _short_of_room()
    system = engine.api_messages()[0]["content"]
    assert "secret/deploy/prod" in system
    usage = engine.usage()
    assert not usage.over_budget and usage.total <= usage.usable
    newest = engine.display_messages()[-1]
    assert engine._assembly().clipped_ids == {newest.id}  # cut after the ledger shrank
    assert pin.id in engine._assembly().facts_shown


def test_the_facts_panel_says_which_facts_a_shrunk_ledger_left_out() -> None:
    """The left-out ids were overwritten with the previously shown ones: the panel showed
    the pin as left out and the facts really left out as neither."""
    engine, pin, others = _short_of_room()
    view = engine.facts_view()
    assert view.shown == {pin.id}
    assert view.left_out == {f.id for f in others}


def test_pinned_facts_alone_over_the_room_mark_the_request_over_budget() -> None:
    """When even the pins-only ledger does not fit, the request is over budget (said, never
    hidden), as with pinned messages; the pinned fact is not dropped to make it fit."""
    engine = ContextEngine(EngineConfig(context_size=2048, min_messages=2), GoodSummarizer(),
                           "You are helpful.")
    pin = engine.add_fact("Pinned: " + words(120, 7), pinned=True)
    engine.add("user", "Keep this: " + words(1500, 3), pinned=True)
    engine.add("assistant", "Noted.", pinned=True)
    engine.add("user", "Question: " + words(40, 1))
    assembly = engine._assembly()
    assert pin.id in assembly.facts_shown
    assert assembly.over_budget and engine.usage().over_budget


def test_pinned_facts_alone_over_budget_are_named_as_such() -> None:
    engine = ContextEngine(EngineConfig(context_size=2048, min_messages=2), GoodSummarizer(),
                           "You are helpful.")
    engine.add_fact("Pinned: " + words(1800, 7), pinned=True)
    engine.add("user", "Question: " + words(40, 1))
    usage = engine.usage()
    assert usage.over_budget and usage.note.startswith("Pinned facts alone exceed")


# ------------------------------------------------------------------ 9: linear rebuild
class _CountingList(list[Message]):
    """A message list that counts the elements its slices and iterations hand out."""

    handed = 0

    def __getitem__(self, key: Any) -> Any:
        got = super().__getitem__(key)
        if isinstance(key, slice):
            _CountingList.handed += len(got)
        return got

    def __iter__(self) -> Any:
        _CountingList.handed += len(self)
        return super().__iter__()


def _long_chat(turns: int) -> Conversation:
    data = Conversation(EngineConfig(context_size=8192))
    for turn in range(1, turns + 1):
        stated = "The meeting is in room A on the second floor." if turn in (2, 9) else \
            f"Question {turn} about the parser."
        data.messages.append(Message(role="user", content=stated, tokens=12))
        data.messages.append(Message(role="assistant", content=f"Answer {turn}.", tokens=6))
    data.reindex()
    data.dropped = [data.messages[-3].id]  # everything before the last exchange is compacted
    data.facts = [Fact(kind="correction", value="Correction: the meeting is in room B on "
                       "the second floor.", source="user", turn=5, sequence=1)]
    return data


def test_a_region_rebuild_with_a_correction_is_linear_in_the_chat() -> None:
    """``turn_of`` summed over every earlier message for each message before the boundary:
    1.42 s per rebuild for 10,000 messages with one correction fact, on the UI thread."""
    data = _long_chat(1000)
    data.messages = _CountingList(data.messages)
    _CountingList.handed = 0
    build_region(data)
    assert _CountingList.handed < 10 * len(data.messages)


def test_a_statement_before_its_correction_is_marked_and_one_after_is_not() -> None:
    data = _long_chat(12)
    region = build_region(data)
    by_id = {p.message_id: p.text for p in region.kept}
    before, after = data.messages[2], data.messages[16]  # turns 2 and 9
    assert "(later corrected: Correction: the meeting is in room B" in by_id[before.id]
    assert "later corrected" not in by_id[after.id]


# ------------------------------------------------------------------ 12: the continue stub
def _writer(assembly: Assembly) -> SummaryWriter:
    stage: Any = SimpleNamespace(data=None, assembly=lambda: assembly)
    caller = SummaryCaller(GoodSummarizer(), EngineConfig(), defaultdict(int))
    return SummaryWriter(stage, caller, focus=None, deadline=Deadline(60),
                         report=CompactionReport(status="skipped"))


def test_a_leading_continue_stub_does_not_block_prefix_reuse() -> None:
    """After the boundary user message is deleted, the recent turns start with a reply and
    the request carries the continue stub right after the system message: the scan stopped
    at it and nothing was reused."""
    entries = [{"role": "system", "content": "notes"},
               {"role": "user", "content": CONTINUE_STUB},
               {"role": "assistant", "content": "a1"},
               {"role": "user", "content": "u2"},
               {"role": "assistant", "content": "a2"},
               {"role": "user", "content": "u3"}]
    ids = [[], [], ["a1"], ["u2"], ["a2"], ["u3"]]
    writer = _writer(Assembly(messages=entries, total=0, raw_total=0, entry_ids=ids))
    assert writer.shared_prefix({"a1", "u2", "a2"}) == entries[:5]
    assert writer.shared_prefix({"a1"}) == entries[:3]
    assert writer.shared_prefix({"u3"}) is None  # the stub alone holds nothing


def test_a_chat_whose_boundary_user_message_was_deleted_summarises_from_its_prefix() -> None:
    summarizer = GoodSummarizer()
    engine = ContextEngine(EngineConfig(context_size=8192, min_messages=2), summarizer,
                           "You are helpful.")
    for n in range(30):  # enough for two compactions (issue 28: a smaller ledger, more room)
        engine.add("user", f"Question {n}: " + words(60, n))
        engine.add("assistant", f"Answer {n}: " + words(60, n + 100))
    assert compact(engine, force=True).status == "compacted"
    first_recent = next(m for m in engine.display_messages()
                        if engine.visibility()[m.id] == "verbatim")
    assert first_recent.role == "user"
    engine.delete_message(first_recent.id)
    request = engine.api_messages()
    assert request[1] == {"role": "user", "content": CONTINUE_STUB}
    calls = summarizer.calls
    report = compact(engine, force=True)
    assert report.status == "compacted" and report.shared_prefix
    assert summarizer.prompts[calls][:2] == request[:2]


# ------------------------------------------------------------------ 13: too long on retry
class _TooLong(Exception):
    kind = "context_overflow"  # as the backend's BackendError says it (duck-typed)


def test_a_retry_refused_as_too_long_keeps_too_long() -> None:
    calls: list[int] = []

    async def summarize(prompt: list[dict[str, str]]) -> str:
        calls.append(len(prompt))
        if len(calls) == 1:
            return "   "  # refused by the gate: the retry (longer, with its note) is asked
        raise _TooLong("the input length exceeds the context length")

    caller = SummaryCaller(summarize, EngineConfig(), defaultdict(int))
    with pytest.raises(SummaryFailed) as failed:
        asyncio.run(caller.summarize(lambda note: [{"role": "user", "content": "x"}],
                                     material="x", input_tokens=500, target=100, level=3,
                                     deadline=Deadline(60),
                                     report=CompactionReport(status="skipped")))
    assert failed.value.too_long and len(calls) == 2


def test_a_shared_summary_whose_retry_is_too_long_falls_back_to_the_standalone_prompt() -> None:
    """The re-raised failure lost ``too_long``: an extractive checkpoint was built instead of
    asking with the standalone prompt."""

    def too_long(prompt: list[dict[str, str]]) -> str:
        raise _TooLong("the input length exceeds the context length")

    good = GoodSummarizer()
    summarizer = ScriptedSummarizer(lambda prompt: "   ", too_long,
                                    lambda prompt: good.answer(prompt, 3))
    engine = ContextEngine(EngineConfig(context_size=8192, min_messages=2), summarizer,
                           "You are helpful.")
    for n in range(20):
        engine.add("user", f"Question {n}: " + words(60, n))
        engine.add("assistant", f"Answer {n}: " + words(60, n + 100))
    report = compact(engine, force=True)
    assert report.status == "compacted"
    assert not report.extractive and not report.shared_prefix
    assert summarizer.prompts[0][-1]["content"].startswith(prompts.CHAT_SUMMARY_OPENING)
    assert not summarizer.prompts[2][-1]["content"].startswith(prompts.CHAT_SUMMARY_OPENING)


# ------------------------------------------------------------------ 14: annotated counts
def test_the_first_rebuild_with_notes_counts_the_annotated_quotes() -> None:
    """Counts were cached under (message id, kind) and dropped only after the parts were
    built: the first rebuild with notes used the unannotated text's count."""
    engine = ContextEngine(EngineConfig(context_size=8192, min_messages=2), GoodSummarizer(),
                           "You are helpful.")
    engine.add("user", "The gateway listens on port 7443. " + words(40, 1))
    engine.add("assistant", "Understood. " + words(60, 2))
    for n in range(12):
        engine.add("user", f"Question {n}: " + words(60, n))
        engine.add("assistant", f"Answer {n}: " + words(60, n + 100))
    assert compact(engine, force=True).status == "compacted"
    region = engine._region_now()
    quoted = [p for p in region.kept if "port 7443" in p.text]
    assert quoted and "replaced by" not in quoted[0].text  # counted, and cached, as is
    engine.add("user", "Correction: the gateway moved to port 9443.")
    region = engine._region_now()
    data = engine._data
    quoted = [p for p in region.kept if "port 7443" in p.text]
    assert quoted and "7443 (replaced by 9443)" in quoted[0].text
    for part in region.kept:
        assert part.tokens == data.count(part.text) + 2, part.text[:60]
    usage = engine.usage()
    assert usage.preserved == sum(data.count(p.text) + 2 for p in region.kept)


def test_counts_are_right_again_once_the_notes_are_gone() -> None:
    engine = ContextEngine(EngineConfig(context_size=8192, min_messages=2), GoodSummarizer(),
                           "You are helpful.")
    engine.add("user", "The gateway listens on port 7443. " + words(40, 1))
    engine.add("assistant", "Understood. " + text_of_tokens(60))
    for n in range(12):
        engine.add("user", f"Question {n}: " + words(60, n))
        engine.add("assistant", f"Answer {n}: " + words(60, n + 100))
    assert compact(engine, force=True).status == "compacted"
    correction = engine.add("user", "Correction: the gateway moved to port 9443.")
    engine._region_now()
    assert engine.remove_last(correction.id)
    replaced = [f for f in engine.facts if f.status == "replaced"]
    for fact in replaced:  # the correction is taken back: its notes go with it
        engine.restore_fact(fact.model_copy(update={"status": "current", "replaced_by": None}),
                            fact.id)
    region = engine._region_now()
    assert not any("replaced by" in p.text for p in region.kept)
    for part in region.kept:
        assert part.tokens == engine._data.count(part.text) + 2
    assert budget.usable_tokens(engine.config) > 0
