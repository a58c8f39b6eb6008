"""What one compaction kept of the facts it compressed: the evidence behind reliability.

A compaction costs the chat only what it lost. The facts counted here are the identifiers of
``references`` (paths, versions, numbers with units, names, ...) found in the messages the
compaction read; the user's own ones are the facts the reliability penalty is about. A fact is
kept when it is still in the request word for word after the compaction: in a message still
sent verbatim (a kept user message), in the checkpoint's text, or in the facts ledger as it
stands after the compaction (after its budget was applied).

The counts are stored on the compaction's step of the checkpoint's history (``AgingStep``), so
they follow the checkpoint through rolling folds, merges, undo and snapshots unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ollm_desktop.engine.models import AgingStep, CompressedGroup, Message
from ollm_desktop.engine.references import extract_ranked, occurs_in

MAX_LOST = 20  # lost facts named on the step (for the Summary tab); the counts are exact


@dataclass(frozen=True, slots=True)
class FactKeeping:
    user_facts: int  # identifiers stated in the user's messages that the compaction read
    user_facts_kept: int
    identifiers: int  # the identifiers the compaction read that the user stated or used
    identifiers_kept: int
    lost: list[str] = field(default_factory=list)  # the user's facts not kept, in order

    @property
    def lost_share(self) -> float:
        """0.0 when every user fact was kept (or there was none), 1.0 when all were lost."""
        return 0.0 if not self.user_facts else 1.0 - self.user_facts_kept / self.user_facts


def measure(material: Sequence[tuple[str, str]], *, verbatim: Iterable[str], summary: str,
            ledger: Iterable[str]) -> FactKeeping:
    """Count the facts of ``material`` ((role, content), oldest first) still sent word for word.

    ``verbatim``: contents still sent as they are (kept user messages); ``summary``: the new
    checkpoint's text; ``ledger``: the texts of the facts ledger after the compaction.
    """
    sent = "\n".join(verbatim)
    in_ledger = "\n".join(ledger)  # values, or whole sentences (decisions, corrections)
    user_total = user_kept = total = kept = 0
    lost: list[str] = []
    for ref in extract_ranked(material):
        if ref.source != "user":
            continue  # the assistant's are recall's to bring back, never the ledger's (issue 28)
        held = occurs_in(ref.text, in_ledger) or occurs_in(ref.text, summary) \
            or occurs_in(ref.text, sent)
        total += 1
        kept += held
        if ref.source == "user":
            user_total += 1
            user_kept += held
            if not held:
                lost.append(ref.text)
    return FactKeeping(user_total, user_kept, total, kept, lost)


def record(group: CompressedGroup, material: Sequence[Message], *, summarised: set[str],
           ledger: Iterable[str]) -> FactKeeping:
    """Measure one compaction and write it on its step: the last of ``group.history``.

    ``material``: the messages the compaction read (folded older ones and its span, without
    pins and system messages); ``summarised``: the ids of those the checkpoint replaces (the
    others stay verbatim); ``ledger``: the values the facts ledger sends after the compaction.
    """
    result = measure([(m.role, m.content) for m in material],
                     verbatim=[m.content for m in material if m.id not in summarised],
                     summary=group.summary, ledger=ledger)
    if group.history:
        step = group.history[-1]
        step.user_facts, step.user_facts_kept = result.user_facts, result.user_facts_kept
        step.identifiers, step.identifiers_kept = result.identifiers, result.identifiers_kept
        step.lost_facts = result.lost[:MAX_LOST]
    return result


def measured_steps(group: CompressedGroup) -> list[AgingStep]:
    """The compactions that made ``group`` and were measured (older states have none)."""
    return [s for s in group.history if s.user_facts is not None]


def loss_shares(groups: Iterable[CompressedGroup]) -> list[float]:
    """Per measured compaction of ``groups``, the share of the user's facts it lost."""
    shares: list[float] = []
    for group in groups:
        for step in measured_steps(group):
            stated, kept = step.user_facts or 0, step.user_facts_kept or 0
            shares.append(0.0 if not stated else 1.0 - kept / stated)
    return shares
