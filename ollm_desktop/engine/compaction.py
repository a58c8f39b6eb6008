"""One compaction run, one method per stage (seed 000's six stages and their progress).

identification -> preparation -> summarization -> checkpoint creation -> context update ->
validation. Everything is computed on copies and committed at once at the end, so a failure
or a replaced conversation never leaves half a state. The run is bounded by
``compaction_timeout_s``; when the model fails twice (or is paused by the backoff), the
checkpoint is built by code from the messages themselves (``extractive``).

The run is handed a ``Stage`` (the chat's data and a few engine services), never the engine.
A new checkpoint goes after the older ones (``aging`` merges them rarely, in one batch); the
facts of the compacted messages, pinned ones included, enter the facts ledger
(``facts.absorb``), with who stated them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ollm_desktop.engine import (
    budget,
    fact_keeping,
    facts,
    goals,
    prompts,
    references,
    tool_results,
)
from ollm_desktop.engine.aging import merge_batch
from ollm_desktop.engine.assembly import Part
from ollm_desktop.engine.facts_extract import extract
from ollm_desktop.engine.images import as_text_tokens
from ollm_desktop.engine.models import (
    AgingStep,
    CheckpointLevel,
    CompactionReport,
    CompressedGroup,
    EventName,
    Message,
)
from ollm_desktop.engine.stage import Stage
from ollm_desktop.engine.summarizer import Deadline, SummaryCaller, record_outcome
from ollm_desktop.engine.summary_requests import SummaryWriter

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


def _fact_weight(message: Message) -> int:
    """How many facts a user message carries: the ones kept word for word are chosen by it."""
    return len([f for f in extract(message.role, message.content) if not f.old])


class CompactionRun:
    def __init__(self, stage: Stage, caller: SummaryCaller, *, focus: str | None, force: bool,
                 ahead_tokens: int) -> None:
        self.stage = stage
        self.data = stage.data
        self.caller = caller
        self.focus = focus
        self.force = force
        self.ahead = ahead_tokens
        self.tier = stage.tier
        self.report = CompactionReport(status="skipped", tier=self.tier.tier)
        self.deadline = Deadline(self.data.config.compaction_timeout_s)

    # ---------------------------------------------------------- stage 1
    def identify(self, *, overflow: bool) -> Plan | None:
        """Which messages to compress: whole exchanges, the recent window and pins stay."""
        data, stage = self.data, self.stage
        region = stage.region()
        start = region.boundary
        messages = data.messages
        user_positions = [i for i in range(start + 1, len(messages))
                          if messages[i].role == "user"]
        usage = stage.usage()
        keep = budget.effective_preserve(data.config, usage.available)
        split: int | None = None
        suffix, cursor = 0, len(messages)
        for position in reversed(user_positions):
            suffix += sum(data.tool_sent.get(m.id, m.tokens) for m in messages[position:cursor]
                          if not m.pinned and m.role != "system")  # results as sent
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
        self._fold_users(plan, region.kept)
        if not (plan.summarized or plan.folded):
            return None
        return plan

    def _fold_users(self, plan: Plan, parts: list[Part]) -> None:
        """User messages beyond ``user_message_share`` of the budget are summarised too: those
        carrying the fewest facts first (the oldest of equals), so the ones kept word for word
        are the ones that state something."""
        data = self.data
        if not data.config.preserve_user_messages:
            return
        limit = self.stage.usage().user_share  # the figure the window explains rows with
        kept_ids = set(plan.kept)
        candidates: list[tuple[int, int, str, int, bool]] = []  # weight, order, id, cost, span
        for order, part in enumerate(p for p in parts if p.kind == "request"):
            position = data.position(part.message_id or "")
            if position is not None:
                candidates.append((_fact_weight(data.messages[position]), order,
                                   part.message_id or "", part.tokens, False))
        base = len(candidates)
        for order, message in enumerate(m for m in plan.span if m.id in kept_ids):
            candidates.append((_fact_weight(message), base + order, message.id,
                               as_text_tokens(message) + 12, True))
        total = sum(c[3] for c in candidates)
        for _, _, message_id, cost, in_span in sorted(candidates):
            if total <= limit:
                return
            if in_span:
                plan.kept.remove(message_id)
                plan.summarized.append(message_id)
            else:
                plan.folded.append(message_id)
            plan.folded_users += 1
            total -= cost

    # ---------------------------------------------------------- stage 2
    def material(self, plan: Plan) -> list[Message]:
        """What the summarizer reads, oldest first: folded older messages, then the span."""
        data = self.data
        positions = (data.position(mid) for mid in plan.folded)
        folded = [data.messages[p] for p in sorted(p for p in positions if p is not None)]
        # tool calls and results as their names and outcomes, never the whole output
        return [tool_results.summary_material(m) for m in folded + [
            m for m in plan.span if not m.pinned and m.role != "system"]]

    # ---------------------------------------------------------- stages 3-6
    async def run(self) -> CompactionReport:
        stage, data, report = self.stage, self.data, self.report
        before = stage.assembly().total
        report.tokens_before = report.tokens_after = before
        overflow = stage.assembly().raw_total > stage.usable
        usage = stage.usage()
        compactable = usage.recent + sum(p.tokens for p in stage.region().kept
                                         if p.kind == "orphan")
        if not self.force and not overflow and compactable + self.ahead <= usage.trigger:
            report.reason = "The context is below the compaction threshold."
            stage.emit("compression-skipped", data={"reason": report.reason})
            return report
        stage.emit("compression-triggered", stage="identification", progress=0.0,
                   data={"tokens": before, "force": self.force})
        plan = self.identify(overflow=overflow)
        stage.progress("identification", 1.0)
        if plan is None:
            count = len(data.messages) - stage.region().boundary
            report.reason = (f"Nothing to compact: {count} recent messages, and at least "
                             f"{data.config.min_messages} older messages outside the last "
                             "exchange and the preserved recent window are needed.")
            stage.emit("compression-skipped", data={"reason": report.reason})
            return report
        generation = stage.generation()
        if data.config.strategy == "truncate":
            return self.truncate(plan)

        # Stage 2: preparation.
        targets = budget.level_targets(data.config)
        previous = data.groups[-1] if self.tier.rolling and data.groups else None
        level: CheckpointLevel = 1 if self.tier.tier == 1 else 3
        material = self.material(plan)
        summarized_set = set(plan.summarized) | set(plan.folded)
        verbatim = {m.id for m in material if m.id not in summarized_set}
        original = sum(data.messages[data.index[m.id]].tokens for m in material
                       if m.id in summarized_set)  # the messages' own size, whole results
        input_tokens = original + (previous.current_tokens if previous else 0)
        target = max(32, min(targets[level], int(input_tokens * 0.6)))
        prefix = None if stage.assembly().fitted else stage.assembly().messages[:1]
        stage.progress("preparation", 1.0)

        # Stage 3: summarization.
        stage.emit("llm-summarizing", stage="summarization", progress=25.0,
                   data={"messages": len(material), "target": target})
        writer = SummaryWriter(stage, self.caller, focus=self.focus, deadline=self.deadline,
                               report=report)
        summary, model_ok = await writer.write(
            material, plan.span, verbatim, target, level,
            lambda share: stage.progress("summarization", share),
            previous.summary if previous else None)
        stage.progress("summarization", 1.0)

        # Stage 4: checkpoint creation.
        summarised_messages = [m for m in material if m.id in summarized_set]
        ranked = references.extract_ranked([(m.role, m.content) for m in summarised_messages])
        refs = [r.text for r in ranked]  # read from each message's stored references
        sequence = data.compaction_count + 1
        group = CompressedGroup(
            summary=summary, level=level,
            message_ids=[m.id for m in summarised_messages], span_ids=[m.id for m in plan.span],
            original_tokens=original, current_tokens=data.count(summary), focus=self.focus,
            key_decisions=prompts.section_items(summary, "Decision"),
            next_steps=prompts.section_items(summary, "Action", "Next"),
            files=[r.text for r in ranked if r.kind == "path"][:20],
            key_references=refs[:60], recall=references.recall(summary, refs),
            sequence=sequence, extractive=report.extractive,
            history=[AgingStep(kind="created", to_level=level, tokens_before=original,
                               tokens_after=0)])
        group.history[0].tokens_after = group.current_tokens
        stage.emit("checkpoint-created", stage="checkpoint creation", progress=75.0,
                   data={"group_id": group.id, "tokens": group.current_tokens,
                         "original_tokens": original})
        stage.progress("checkpoint creation", 1.0)

        new_groups = [g.model_copy(deep=True) for g in data.groups]
        if previous is not None:  # the rolling checkpoint folded into this one
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

        # Stage 5: context update: the new checkpoint after the older ones, a batch merge
        # when they are too many or too large, the facts of what was compacted.
        new_groups.append(group)
        merged = await merge_batch(self.caller, new_groups, targets, self.tier,
                                   budget.checkpoint_budget(data.config), data.count,
                                   self.deadline, report, prefix)
        if merged:
            stage.emit("checkpoints-aged", stage="context update", progress=85.0,
                       data={"aged": 0, "merged": merged})
        stage.progress("context update", 0.9)
        if generation != stage.generation():
            return self.fail("the conversation was replaced during compaction")
        new_facts = [f.model_copy() for f in data.facts]
        added = 0
        # The span's pinned messages too: quoted word for word, yet a later correction must
        # meet their values (the ledger's "replaced" line, the mark inside the pinned quote).
        read = sorted([*material, *(m for m in plan.span if m.pinned)],
                      key=lambda m: data.position(m.id) or 0)
        for message in read:
            position = data.position(message.id)
            turn = data.turn_of(position) if position is not None else 0
            added += facts.absorb(new_facts, message, turn).added
        data.push_undo()
        data.groups = new_groups
        data.facts = new_facts
        data.compaction_count = sequence
        data.retry_after = None
        record_outcome(data.breaker, model_ok=model_ok, message_count=len(data.messages))
        if goals.apply_summary_markers(data.goal, summary) or data.goal_shown is not None:
            stage.goal_changed()  # the request is laid out anew: the goal as it is now
        stage.invalidate(region=True)
        stage.set_error(None if model_ok else report.error)
        stage.stats["compactions"] += 1
        assembly = stage.assembly()
        report.ledger_added = added
        report.ledger_dropped = len(assembly.facts_left_out)
        shown = set(assembly.facts_shown)
        fact_keeping.record(group, material,
                            summarised=summarized_set,
                            ledger=[f.value for f in data.facts if f.id in shown])
        stage.progress("context update", 1.0)
        return self.validate(plan, new_groups[-1], original)

    def fail(self, reason: str) -> CompactionReport:
        stage, report = self.stage, self.report
        stage.set_error(reason)
        stage.invalidate()
        usage = stage.usage()
        report.status = "failed"
        report.error = reason
        report.tokens_after = usage.total
        report.dropped_messages = usage.dropped_messages
        report.reason = f"Compaction failed ({reason}). Nothing was compacted."
        stage.emit("compression-error", data={"reason": reason, "report": report.model_dump()})
        return report

    def truncate(self, plan: Plan) -> CompactionReport:
        """``strategy="truncate"``: the span is left out of the context, no model is asked."""
        stage, data, report = self.stage, self.data, self.report
        data.push_undo()
        left_out = [*plan.folded, *plan.summarized]
        data.dropped = [*data.dropped, *left_out]
        data.compaction_count += 1
        stage.invalidate(region=True)
        usage = stage.usage()
        report.status = "truncated"
        report.compacted_messages = len(left_out)
        report.tokens_after = usage.total
        report.dropped_messages = len(left_out)
        report.reason = (f"{len(left_out)} older messages left out of the context "
                         "(truncate strategy); they stay in the history.")
        stage.emit("budget-recalculated", data=usage.model_dump())
        stage.emit("compressed", data=report.model_dump())
        return report

    def validate(self, plan: Plan, group: CompressedGroup, original: int) -> CompactionReport:
        stage, report = self.stage, self.report
        usage = stage.usage()
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
        # The figures of the checkpoint as its marker shows them (a rolling fold includes the
        # previous checkpoint's messages): one set of figures wherever the result is shown.
        total = len(group.message_ids)
        merged = (f" ({report.compacted_messages} new, merged with the previous checkpoint)"
                  if total != report.compacted_messages else "")
        parts = [f"{total:,} messages summarised{merged}: {group.original_tokens:,} → "
                 f"{group.current_tokens:,} tokens"]
        if report.merged_groups:
            parts.append(f"{report.merged_groups} older checkpoints merged into one")
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
            parts.append(f"{report.ledger_dropped} facts no longer fit the facts ledger")
        report.reason = "; ".join(parts) + "."
        stage.progress("validation", 1.0)
        stage.emit("budget-recalculated", stage="validation", progress=100.0,
                   data=usage.model_dump())
        stage.emit("compressed", data=report.model_dump())
        stage.emit(TIER_COMPRESSED[self.tier.tier], data={"group_id": group.id})
        if self.tier.rolling:
            stage.emit("rollover-complete", data={"group_id": group.id})
        return report
