"""What a stage of the engine (a compaction run, a deletion) is handed: the chat's data and the
few engine services it needs, never the engine itself.

``ContextEngine`` builds one and passes it on, so ``compaction`` and ``deletion`` import no
``context``: no circle of imports, and no reaching into the engine's private members.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ollm_desktop.engine.assembly import Assembly, Region
from ollm_desktop.engine.budget import TierSpec
from ollm_desktop.engine.conversation import Conversation
from ollm_desktop.engine.models import CompactionStage, ContextUsage, EventName

# Stage boundaries in percent (issue contract).
STAGES: dict[CompactionStage, tuple[int, int]] = {
    "identification": (0, 15),
    "preparation": (15, 25),
    "summarization": (25, 70),
    "checkpoint creation": (70, 80),
    "context update": (80, 90),
    "validation": (90, 100),
}


class Emit:
    """``emit(name, stage=..., progress=..., data=...)``: an engine event to the listeners."""

    def __call__(self, name: EventName, *, stage: CompactionStage | None = None,
                 progress: float | None = None, data: dict[str, Any] | None = None) -> None:
        raise NotImplementedError


@dataclass
class Stage:
    data: Conversation
    tier: TierSpec
    stats: dict[str, int]
    emit: Callable[..., None]  # an ``Emit``
    progress: Callable[[CompactionStage, float], None]
    invalidate: Callable[..., None]  # invalidate(region=False)
    region: Callable[[], Region]
    assembly: Callable[[], Assembly]
    usage: Callable[[], ContextUsage]
    generation: Callable[[], int]  # changes when the chat is replaced (load, undo)
    goal_changed: Callable[[], None]
    set_error: Callable[[str | None], None]  # the engine's ``last_error``
    compacting: Callable[[], bool]

    @property
    def usable(self) -> int:
        from ollm_desktop.engine.budget import usable_tokens

        return usable_tokens(self.data.config)

    def changed(self) -> None:
        """The compaction state changed: rebuild the region, tell the meter."""
        self.invalidate(region=True)
        self.emit("budget-recalculated", data=self.usage().model_dump())
