"""One compaction run, one method per stage (seed 000's six stages and their progress).

identification -> preparation -> summarization -> checkpoint creation -> context update ->
validation. Everything is computed on copies and committed at once at the end, so a failure
or a replaced conversation never leaves half a state. The run is bounded by
``compaction_timeout_s``; when the model fails twice (or is paused by the backoff), the
checkpoint is built by code from the messages themselves (``extractive``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ollm_desktop.engine import budget, extractive, fact_keeping, goals, ledger, prompts, references
from ollm_desktop.engine.aging import age_and_merge
from ollm_desktop.engine.images import DESCRIPTION_TOKENS, as_text_tokens, text_with_images
from ollm_desktop.engine.models import (
    AgingStep,
    CheckpointLevel,
    CompactionReport,
    CompressedGroup,
    EventName,
    Message,
)
from ollm_desktop.engine.summarizer import (
    Deadline,
    SummaryCaller,
    SummaryFailed,
    breaker_open,
    record_outcome,
)
from ollm_desktop.engine.tokens import clip_middle, count_tokens

if TYPE_CHECKING:
    from ollm_desktop.engine.assembly import Part
    from ollm_desktop.engine.context import ContextEngine

TAG_TOKENS = 6  # <role kept="verbatim"> ... </role> around each message in the prompt
# The event each tier sends after a compaction (budget.TIERS).
TIER_COMPRESSED: dict[int, EventName] = {
    1: "tier1-compressed", 2: "tier2-compressed", 3: "tier3-compressed",
    4: "tier4-compressed", 5: "tier5-compressed",
}


@dataclass
class Plan:
    span: list[Message]  # messages between the region's end and the split, in order
    summarized: list[str]  # ids whose content the checkpoint replaces
    kept: list[str]  # user messages of the span kept word for word
    folded: list[str] = field(default_factory=list)  # older messages now summarised
    folded_users: int = 0


class CompactionRun:
    def __init__(self, engine: ContextEngine, caller: SummaryCaller, *, focus: str | None,
                 force: bool, ahead_tokens: int) -> None:
        self.engine = engine
        self.data = engine._data
        self.caller = caller
        self.focus = focus
        self.force = force
        self.ahead = ahead_tokens
        self.tier = engine.tier
        self.report = CompactionReport(status="skipped", tier=self.tier.tier)
        self.deadline = Deadline(self.data.config.compaction_timeout_s)

    # ---------------------------------------------------------- stage 1
    def identify(self, *, overflow: bool) -> Plan | None:
        """Which messages to compress: whole exchanges, the recent window and pins stay."""
        data, engine = self.data, self.engine
        region = engine._region_now()
        start = region.boundary
        messages = data.messages
        user_positions = [i for i in range(start + 1, len(messages))
                          if messages[i].role == "user"]
        usage = engine.usage()
        keep = budget.effective_preserve(data.config, usage.available)
        split: int | None = None
        suffix, cursor = 0, len(messages)
        for position in reversed(user_positions):
            suffix += sum(m.tokens for m in messages[position:cursor]
                          if not m.pinned and m.role != "system")
            cursor = position
            if suffix >= keep:
                split = position
                break
        turns = data.config.keep_recent_turns
        if turns and split is not None and len(user_positions) >= turns:
            by_turns = user_positions[-turns]
            kept = sum(m.tokens for m in messages[by_turns:] if not m.pinned)
            if by_turns < split and kept <= usage.trigger // 2:
                split = by_turns  # the user's "keep the last N turns" wins while it leaves room
        orphans = list(region.orphans)
        if split is None:
            if not (self.force or overflow or orphans):
                return None
            split = user_positions[-1] if user_positions else start
        span = messages[start:split]
        if len(span) < data.config.min_messages and not (overflow or orphans):
            return None
        keep_users = data.config.preserve_user_messages
        kept_ids = [m.id for m in span if m.role == "user" and not m.pinned and keep_users]
        summarized = [m.id for m in span if not m.pinned and m.role != "system"
                      and m.id not in kept_ids]
        plan = Plan(span=span, summarized=summarized, kept=kept_ids, folded=orphans)
        self._fold_users(plan, region.parts)
        if not (plan.summarized or plan.folded):
            return None
        return plan

    def _fold_users(self, plan: Plan, parts: list[Part]) -> None:
        """User messages beyond ``user_message_share`` of the budget are summarised too."""
        config = self.data.config
        if not config.preserve_user_messages:
            return
        limit = self.engine.usage().user_share  # the figure the window explains rows with
        region_users = [p for p in parts if p.kind == "request"]
        span_users = [m for m in plan.span if m.id in set(plan.kept)]
        total = sum(p.tokens for p in region_users) + sum(as_text_tokens(m) + 12
                                                          for m in span_users)
        for part in region_users:
            if total <= limit:
                return
            if part.message_id is None:  # pragma: no cover - requests always name a message
                continue
            plan.folded.append(part.message_id)
            plan.folded_users += 1
            total -= part.tokens
        for message in span_users:
            if total <= limit:
                return
            plan.kept.remove(message.id)
            plan.summarized.append(message.id)
            plan.folded_users += 1
            total -= as_text_tokens(message) + 12

    # ---------------------------------------------------------- stage 2
    def material(self, plan: Plan) -> list[Message]:
        """What the summarizer reads, oldest first: folded older messages, then the span."""
        data = self.data
        positions = (data.position(mid) for mid in plan.folded)
        folded = [data.messages[p] for p in sorted(p for p in positions if p is not None)]
        return folded + [m for m in plan.span if not m.pinned and m.role != "system"]

    def chunks(self, material: list[Message], verbatim: set[str], target: int, level: int,
               previous: str | None) -> list[list[Message]]:
        """Split the material so that no summary request exceeds num_ctx."""
        config, data = self.data.config, self.data
        predict = budget.summary_predict(config, target)
        placeholder = previous if previous is not None else ""
        base_prompt = prompts.summary_prompt([], verbatim_ids=set(), target=target, level=level,
                                             goal=data.goal, focus=self.focus,
                                             previous=placeholder or None)
        base = sum(data.message_tokens(m["content"]) for m in base_prompt)
        later_base = base + (0 if previous else data.count("x " * target) + 24)
        limit = config.context_size - predict - config.request_overhead - max(base, later_base)
        limit = max(64, int(limit * 0.95))
        per_message = max(48, limit // 2)
        clipped: list[Message] = []
        for message in material:
            if message.tokens + TAG_TOKENS > per_message or message.images:  # images: text
                text = clip_middle(message.content, int(per_message / config.estimate_scale))
                tokens = data.message_tokens(text) + DESCRIPTION_TOKENS * len(message.images)
                message = message.model_copy(update={"content": text, "tokens": tokens})
            clipped.append(message)
        result: list[list[Message]] = [[]]
        used = 0
        for message in clipped:
            cost = message.tokens + TAG_TOKENS
            if result[-1] and used + cost > limit:
                result.append([])
                used = 0
            result[-1].append(message)
            used += cost
        return [chunk for chunk in result if any(m.id not in verbatim for m in chunk)] or [[]]

    # ---------------------------------------------------------- stage 3
    async def summarize(self, material: list[Message], verbatim: set[str], target: int,
                        level: int, previous: str | None) -> tuple[str, bool]:
        """(text, model ok). Falls back to an extractive checkpoint chunk by chunk."""
        data, report = self.data, self.report
        paused = breaker_open(data.breaker, len(data.messages))
        pieces = self.chunks(material, verbatim, target, level, previous)
        report.chunks = len(pieces)
        model_ok = not paused
        text = previous
        for number, chunk in enumerate(pieces):
            summarised = [m for m in chunk if m.id not in verbatim]
            carried = text

            def make_prompt(stricter: str | None, chunk: list[Message] = chunk,
                            carried: str | None = carried) -> list[dict[str, str]]:
                return prompts.summary_prompt(chunk, verbatim_ids=verbatim, target=target,
                                              level=level, goal=data.goal, focus=self.focus,
                                              previous=carried, stricter=stricter)

            input_tokens = sum(m.tokens for m in summarised) + (data.count(carried)
                                                                if carried else 0)
            material_text = "\n".join(m.content for m in chunk) + "\n" + (carried or "")
            if not paused and not self.deadline.expired:
                try:
                    text = await self.caller.summarize(
                        make_prompt, material=material_text, input_tokens=input_tokens,
                        target=target, level=level, deadline=self.deadline, report=report)
                    self.engine._progress("summarization", (number + 1) / len(pieces))
                    continue
                except SummaryFailed as exc:
                    report.error = str(exc)
            model_ok = False
            report.extractive = True
            text = extractive.extractive_checkpoint(
                [(m.role, text_with_images(m)) for m in summarised], target_tokens=target,
                previous=carried, count=count_tokens)
        if self.deadline.expired and not model_ok:
            report.timed_out = True
        return text or "", model_ok

    # ---------------------------------------------------------- stages 4-6
    async def run(self) -> CompactionReport:
        engine, data, report = self.engine, self.data, self.report
        before = engine.api_tokens()
        report.tokens_before = report.tokens_after = before
        overflow = engine._raw_total() > engine.usable
        usage = engine.usage()
        compactable = usage.recent + engine._orphan_tokens()
        if not self.force and not overflow and compactable + self.ahead <= usage.trigger:
            report.reason = "The context is below the compaction threshold."
            engine._emit("compression-skipped", data={"reason": report.reason})
            return report
        engine._emit("compression-triggered", stage="identification", progress=0.0,
                     data={"tokens": before, "force": self.force})
        plan = self.identify(overflow=overflow)
        engine._progress("identification", 1.0)
        if plan is None:
            count = len(data.messages) - engine._region_now().boundary
            report.reason = (f"Nothing to compact: {count} recent messages, and at least "
                             f"{data.config.min_messages} older messages outside the last "
                             "exchange and the preserved recent window are needed.")
            engine._emit("compression-skipped", data={"reason": report.reason})
            return report
        generation = engine._generation
        if data.config.strategy == "truncate":
            return self.truncate(plan)

        # Stage 2: preparation.
        targets = budget.level_targets(data.config)
        previous = data.groups[-1] if self.tier.rolling and data.groups else None
        level: CheckpointLevel = 1 if self.tier.tier == 1 else 3
        material = self.material(plan)
        summarized_set = set(plan.summarized) | set(plan.folded)
        verbatim = {m.id for m in material if m.id not in summarized_set}
        original = sum(m.tokens for m in material if m.id in summarized_set)
        input_tokens = original + (previous.current_tokens if previous else 0)
        target = max(32, min(targets[level], int(input_tokens * 0.6)))
        engine._progress("preparation", 1.0)

        # Stage 3: summarization.
        engine._emit("llm-summarizing", stage="summarization", progress=25.0,
                     data={"messages": len(material), "target": target})
        summary, model_ok = await self.summarize(material, verbatim, target, level,
                                                 previous.summary if previous else None)
        engine._progress("summarization", 1.0)

        # Stage 4: checkpoint creation.
        summarised_messages = [m for m in material if m.id in summarized_set]
        sources = [(m.role, m.content) for m in summarised_messages]
        ranked = references.extract_ranked(sources)
        refs = [r.text for r in ranked]
        recall = references.recall(summary, refs)
        sequence = data.compaction_count + 1
        group = CompressedGroup(
            summary=summary, level=level,
            message_ids=[m.id for m in summarised_messages], span_ids=[m.id for m in plan.span],
            original_tokens=original, current_tokens=data.count(summary), focus=self.focus,
            key_decisions=prompts.section_items(summary, "Decision"),
            next_steps=prompts.section_items(summary, "Action", "Next"),
            files=[r for r in refs if references.looks_like_path(r)][:20],
            key_references=refs[:60], recall=recall, sequence=sequence,
            extractive=report.extractive,
            history=[AgingStep(kind="created", to_level=level, tokens_before=original,
                               tokens_after=0)])
        group.history[0].tokens_after = group.current_tokens
        new_groups = [g.model_copy(deep=True) for g in data.groups]
        if previous is not None:
            folded = new_groups.pop()
            group.message_ids = folded.message_ids + group.message_ids
            group.span_ids = folded.span_ids + group.span_ids
            group.original_tokens += folded.original_tokens
            group.merged_from = [*folded.merged_from, folded.id]
            group.compression_count = folded.compression_count + 1
            group.dropped_references = list(folded.dropped_references)
            group.history = [*folded.history, AgingStep(
                kind="merged", from_level=folded.level, to_level=level,
                tokens_before=folded.current_tokens + original,
                tokens_after=group.current_tokens)]
        engine._emit("checkpoint-created", stage="checkpoint creation", progress=75.0,
                     data={"group_id": group.id, "tokens": group.current_tokens,
                           "original_tokens": original})
        engine._progress("checkpoint creation", 1.0)

        # Stage 5: context update (aging and merging on the copies).
        new_groups.append(group)
        if self.tier.max_checkpoints > 1:
            aged, merged = await age_and_merge(self.caller, new_groups, targets, self.tier,
                                               data.count, self.deadline, report)
            if aged or merged:
                engine._emit("checkpoints-aged", stage="context update", progress=85.0,
                             data={"aged": aged, "merged": merged})
        engine._progress("context update", 0.9)
        if generation != engine._generation:
            return engine._fail(report, "the conversation was replaced during compaction")
        new_ledger = ledger.merge(data.ledger, ledger.collect(sources, group.id, sequence,
                                                                 ranked))
        report.ledger_added = len(new_ledger) - len(data.ledger)
        data.push_undo()
        data.groups = new_groups
        data.ledger = new_ledger
        data.compaction_count = sequence
        data.retry_after = None
        record_outcome(data.breaker, model_ok=model_ok, message_count=len(data.messages))
        if goals.apply_summary_markers(data.goal, summary):
            engine._goal_changed()
        engine._invalidate(region=True)
        engine.last_error = None if model_ok else report.error
        engine.stats["compactions"] += 1
        report.ledger_dropped = self.prune_ledger(sequence)
        fact_keeping.record(group, material, summarised=summarized_set, ledger=data.ledger)
        engine._progress("context update", 1.0)
        return self.validate(plan, group, original)

    def prune_ledger(self, sequence: int) -> int:
        """Drop ledger entries that no longer fit its budget; their groups record them."""
        data = self.data
        _, _, left = ledger.render(data.ledger, budget=budget.ledger_budget(data.config),
                                   present=self.engine._assembly().present, count=data.count,
                                   keep_sequence=sequence)
        if not left:
            return 0
        gone = {e.text for e in left}
        by_group = {g.id: g for g in data.groups}
        newest = data.groups[-1] if data.groups else None
        for entry in left:
            group = by_group.get(entry.group_id or "") or newest
            if group is not None and entry.text not in group.dropped_references:
                group.dropped_references.append(entry.text)
        data.ledger = [e for e in data.ledger if e.text not in gone]
        self.engine._invalidate()
        return len(gone)

    def truncate(self, plan: Plan) -> CompactionReport:
        """``strategy="truncate"``: the span is left out of the context, no model is asked."""
        engine, data, report = self.engine, self.data, self.report
        data.push_undo()
        left_out = [*plan.folded, *plan.summarized]
        data.dropped = [*data.dropped, *left_out]
        data.compaction_count += 1
        engine._invalidate(region=True)
        usage = engine.usage()
        report.status = "truncated"
        report.compacted_messages = len(left_out)
        report.tokens_after = usage.total
        report.dropped_messages = len(left_out)
        report.reason = (f"{len(left_out)} older messages left out of the context "
                         "(truncate strategy); they stay in the history.")
        engine._emit("budget-recalculated", data=usage.model_dump())
        engine._emit("compressed", data=report.model_dump())
        return report

    def validate(self, plan: Plan, group: CompressedGroup, original: int) -> CompactionReport:
        engine, report = self.engine, self.report
        usage = engine.usage()
        report.status = "compacted"
        report.group_id = group.id
        report.compacted_messages = len(plan.summarized) + len(plan.folded)
        report.folded_user_messages = plan.folded_users
        report.original_tokens = original
        report.summary_tokens = group.current_tokens
        report.tokens_after = usage.total
        report.dropped_messages = usage.dropped_messages
        report.pins_over_budget = usage.over_budget
        report.recall = group.recall
        report.missing_references = [r for r in group.key_references if r not in group.summary]
        # The figures of the checkpoint as its marker shows them (a rolling merge includes the
        # previous checkpoint's messages): one set of figures wherever the result is shown.
        total = len(group.message_ids)
        merged = (f" ({report.compacted_messages} new, merged with the previous checkpoint)"
                  if total != report.compacted_messages else "")
        parts = [f"{total:,} messages summarised{merged}: {group.original_tokens:,} → "
                 f"{group.current_tokens:,} tokens"]
        if report.extractive:
            parts.append("the model's summary was unusable, so the checkpoint was built from "
                         "the messages by code")
        if plan.folded_users:
            parts.append(f"{plan.folded_users} user messages summarised too (user messages "
                         "exceeded their share of the budget)")
        if usage.over_budget:
            parts.append(usage.note or "pinned messages alone exceed the usable context")
        elif usage.dropped_messages:
            parts.append(f"{usage.dropped_messages} messages still left out to fit")
        if report.ledger_dropped:
            parts.append(f"{report.ledger_dropped} older references no longer fit the ledger")
        report.reason = "; ".join(parts) + "."
        engine._progress("validation", 1.0)
        engine._emit("budget-recalculated", stage="validation", progress=100.0,
                     data=usage.model_dump())
        engine._emit("compressed", data=report.model_dump())
        engine._emit(TIER_COMPRESSED[self.tier.tier], data={"group_id": group.id})
        if self.tier.rolling:
            engine._emit("rollover-complete", data={"group_id": group.id})
        return report
