"""Attached documents in the request: whole when they fit their share, else the passages the
question needs, within the tokens left (filled in below)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ollm_desktop.engine.passages import Passage


@dataclass(frozen=True, slots=True)
class FoundPassage:
    """A passage a search found, with its document and score (higher is better)."""

    key: int  # the index's id of the passage
    document_id: str
    passage: Passage
    score: float


class PassageSource(Protocol):
    """Search the passages of the chat's attached documents."""

    def search(self, text: str, *, limit: int = ...) -> Sequence[FoundPassage]:
        ...

    def neighbour(self, document_id: str, ordinal: int) -> FoundPassage | None:
        ...
