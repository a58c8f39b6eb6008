"""Merging checkpoints, rarely and in one batch.

Each compaction adds its checkpoint after the older ones, so the front of the request stays as
the server cached it. Only when the checkpoints are more than the tier allows, or take more than
their share of the budget (``budget.checkpoint_budget``), are all but the newest merged into one
base checkpoint (level 1), in one model call: a request that reuses the chat's system message,
where those checkpoints already are. Merging re-summarises the checkpoints' own text, never the
history, so the cost stays linear. Out of time or refused, the texts are joined by code within
the target (the facts ledger keeps their exact values either way).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ollm_desktop.engine import budget, prompts
from ollm_desktop.engine.models import AgingStep, CompactionReport, CompressedGroup, utcnow
from ollm_desktop.engine.summarizer import Deadline, SummaryCaller, SummaryFailed, trim

Prompt = list[dict[str, str]]


def merge_by_code(texts: Sequence[str], target: int) -> str:
    """Every text within ``target``: the newest keeps the largest share."""
    if len(texts) == 1:
        return trim(texts[0], target)
    older, newer = texts[:-1], texts[-1]
    each = max(16, (target * 2 // 5) // len(older))
    parts = [trim(t, each) for t in older]
    parts.append(trim(newer, max(16, target - each * len(older) - 4 * len(texts))))
    return "\n\n".join(parts)


async def _merged_text(caller: SummaryCaller, groups: Sequence[CompressedGroup], target: int,
                       count: Callable[[str], int], deadline: Deadline,
                       report: CompactionReport, prefix: Prompt | None) -> str:
    combined = "\n\n".join(g.summary for g in groups)
    if count(combined) <= target:
        return combined

    def make(stricter: str | None) -> Prompt:
        if prefix is not None:
            request = prompts.merge_request(count=len(groups), target=target, stricter=stricter)
            return [*prefix, {"role": "user", "content": request}]
        return prompts.condense_prompt(combined, target=target, level=1, stricter=stricter)

    try:
        return await caller.summarize(make, material=combined, input_tokens=count(combined),
                                      target=target, level=1, deadline=deadline, report=report)
    except SummaryFailed:
        report.trimmed = True
        return merge_by_code([g.summary for g in groups], target)


async def merge_all(caller: SummaryCaller, groups: Sequence[CompressedGroup], target: int,
                    count: Callable[[str], int], deadline: Deadline, report: CompactionReport,
                    prefix: Prompt | None = None) -> CompressedGroup:
    """One base checkpoint standing for ``groups`` (oldest first)."""
    text = await _merged_text(caller, groups, target, count, deadline, report, prefix)
    first = groups[0]
    refs = list(dict.fromkeys(r for g in groups for r in g.key_references))
    before = sum(g.current_tokens for g in groups)
    return CompressedGroup(
        summary=text, level=1,
        message_ids=[i for g in groups for i in g.message_ids],
        span_ids=[i for g in groups for i in g.span_ids],
        original_tokens=sum(g.original_tokens for g in groups),
        current_tokens=count(text),
        compression_count=max(g.compression_count for g in groups) + 1,
        created_at=first.created_at, aged_at=utcnow(),
        key_decisions=[d for g in groups for d in g.key_decisions][-12:],
        files=list(dict.fromkeys(f for g in groups for f in g.files))[:20],
        next_steps=next((g.next_steps for g in reversed(groups) if g.next_steps), []),
        key_references=[r for r in refs if r in text],
        recall=min(g.recall for g in groups),
        merged_from=[i for g in groups for i in (*g.merged_from, g.id)],
        history=[*(s for g in groups for s in g.history),
                 AgingStep(kind="merged", from_level=max(g.level for g in groups), to_level=1,
                           tokens_before=before, tokens_after=count(text))],
        sequence=first.sequence,
        extractive=any(g.extractive for g in groups),
        dropped_references=[r for g in groups for r in g.dropped_references],
    )


def over(groups: Sequence[CompressedGroup], tier: budget.TierSpec, limit: int) -> bool:
    return len(groups) > 1 and (len(groups) > tier.max_checkpoints
                                or sum(g.current_tokens for g in groups) > limit)


async def merge_batch(caller: SummaryCaller, groups: list[CompressedGroup],
                      targets: dict[int, int], tier: budget.TierSpec, limit: int,
                      count: Callable[[str], int], deadline: Deadline,
                      report: CompactionReport, prefix: Prompt | None = None) -> int:
    """All checkpoints but the newest into one base, when over the tier's count or ``limit``
    tokens. ``groups`` is changed in place (the caller owns the copies); returns how many
    checkpoints were merged (0: none)."""
    if not over(groups, tier, limit):
        return 0
    older = groups[:-1]
    if len(older) == 1 and older[0].level == 1 and older[0].current_tokens <= targets[1]:
        return 0  # one base already: the newest stays until the next batch
    base = await merge_all(caller, older, targets[1], count, deadline, report, prefix)
    groups[:-1] = [base]
    report.merged_groups += len(older)
    return len(older)
