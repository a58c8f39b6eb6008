"""Progressive aging (3 -> 2 -> 1) and merging of checkpoints past the tier's maximum.

Aging re-summarises a checkpoint's own text, never the history, so the cost stays linear.
Both are bounded by the compaction's deadline: out of time, aging waits for the next run and
a merge that cannot ask the model joins the two texts by code within the target (the reference
ledger keeps their exact identifiers either way).
"""

from __future__ import annotations

from collections.abc import Callable

from ollm_desktop.engine import budget, prompts
from ollm_desktop.engine.models import (
    AgingKind,
    AgingStep,
    CheckpointLevel,
    CompactionReport,
    CompressedGroup,
    utcnow,
)
from ollm_desktop.engine.summarizer import Deadline, SummaryCaller, SummaryFailed, trim


async def condense(caller: SummaryCaller, text: str, target: int, level: int,
                   count: Callable[[str], int], deadline: Deadline,
                   report: CompactionReport) -> str:
    def make_prompt(stricter: str | None) -> list[dict[str, str]]:
        return prompts.condense_prompt(text, target=target, level=level, stricter=stricter)

    return await caller.summarize(make_prompt, material=text, input_tokens=count(text),
                                  target=target, level=level, deadline=deadline, report=report)


def merge_by_code(first: str, second: str, target: int) -> str:
    """Both texts within ``target``: the newer keeps the larger share."""
    older = trim(first, max(16, target * 2 // 5))
    newer = trim(second, max(16, target - target * 2 // 5 - 4))
    return f"{older}\n\n{newer}"


async def merge(caller: SummaryCaller, first: CompressedGroup, second: CompressedGroup,
                target: int, count: Callable[[str], int], deadline: Deadline,
                report: CompactionReport) -> CompressedGroup:
    combined = f"{first.summary}\n\n{second.summary}"
    before = count(combined)
    if before <= target:
        text = combined
    else:
        try:
            text = await condense(caller, combined, target, 1, count, deadline, report)
        except SummaryFailed:
            text = merge_by_code(first.summary, second.summary, target)
            report.trimmed = True
    refs = list(dict.fromkeys(first.key_references + second.key_references))
    return CompressedGroup(
        summary=text,
        level=1,
        message_ids=first.message_ids + second.message_ids,
        span_ids=first.span_ids + second.span_ids,
        original_tokens=first.original_tokens + second.original_tokens,
        current_tokens=count(text),
        compression_count=max(first.compression_count, second.compression_count) + 1,
        created_at=first.created_at,
        aged_at=utcnow(),
        key_decisions=(first.key_decisions + second.key_decisions)[-12:],
        files=list(dict.fromkeys(first.files + second.files))[:20],
        next_steps=second.next_steps or first.next_steps,
        key_references=[r for r in refs if r in text],
        recall=min(first.recall, second.recall),
        merged_from=[*first.merged_from, first.id, *second.merged_from, second.id],
        history=[*first.history, *second.history,
                 AgingStep(kind="merged", from_level=max(first.level, second.level),
                           to_level=1, tokens_before=before, tokens_after=count(text))],
        sequence=first.sequence,
        extractive=first.extractive or second.extractive,
        dropped_references=first.dropped_references + second.dropped_references,
    )


async def age_and_merge(caller: SummaryCaller, groups: list[CompressedGroup],
                        targets: dict[int, int], tier: budget.TierSpec,
                        count: Callable[[str], int], deadline: Deadline,
                        report: CompactionReport) -> tuple[int, int]:
    """Merge the two oldest past the tier's maximum, then age the rest one level.

    Returns (aged, merged). ``groups`` is changed in place (the caller owns the copies).
    """
    merged_ids: set[str] = set()
    while len(groups) > tier.max_checkpoints:
        combined = await merge(caller, groups[0], groups[1], targets[1], count, deadline, report)
        groups[0:2] = [combined]
        merged_ids.add(combined.id)
        report.merged_groups += 1
    aged = 0
    for group in groups[:-1]:
        if group.id in merged_ids or group.level <= 1:
            continue
        new_level: CheckpointLevel = 2 if group.level == 3 else 1
        target = targets[new_level]
        before = group.current_tokens
        kind: AgingKind
        if before > target:
            if deadline.expired:
                report.timed_out = True
                continue  # aging is retried by the next compaction
            try:
                text = await condense(caller, group.summary, target, new_level, count,
                                      deadline, report)
            except SummaryFailed:
                continue  # keep the text and level; aging is retried next time
            group.summary = text
            group.current_tokens = count(text)
            kind = "aged"
        else:
            kind = "relabelled"
        group.level = new_level
        group.compression_count += 1
        group.aged_at = utcnow()
        group.history.append(AgingStep(kind=kind, from_level=new_level + 1, to_level=new_level,
                                       tokens_before=before, tokens_after=group.current_tokens))
        aged += 1
    report.aged_groups = aged
    return aged, len(merged_ids)
