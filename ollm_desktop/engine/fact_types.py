"""The facts ledger's entry: one fact the app keeps by code, with who stated it and where.

A contract shared with storage (the ``chat_state.facts`` column), the session and the facts
panel, like ``models``; kept apart so that each file stays one page.
"""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import BaseModel, Field

# identifier: a path, URL, function, version, port, hash...; number: a quantity with its unit;
# setting: NAME=value; name: a name the user gives something; decision and correction: the
# sentence that states it (no single value to keep); note: a fact the user typed in the panel;
# question: a value only asked about, supposed or suggested (an open question, never sent).
FactKind = Literal["identifier", "number", "setting", "name", "decision", "correction", "note",
                   "question"]
# tool: a value read from a tool's output (follows the assistant's rules: sent once adopted)
FactSource = Literal["user", "assistant", "manual", "tool"]
FactStatus = Literal["current", "replaced", "forgotten"]
SENTENCE_KINDS = frozenset({"decision", "correction", "note"})


def join_key(entity: str, attribute: str, unit: str) -> str:
    """A key from its three parts, ``entity|attribute|unit``: a part never holds the separator
    itself (a pasted table row, "| business |", made a key of five parts that no reader of
    keys could split: the whole compaction failed)."""
    return "|".join(" ".join(part.replace("|", " ").split()) if "|" in part else part
                    for part in (entity, attribute, unit))


def _fact_id() -> str:
    return uuid.uuid4().hex


class Fact(BaseModel):
    """One entry of the facts ledger (``engine.facts``)."""

    id: str = Field(default_factory=_fact_id)
    kind: FactKind
    value: str  # the exact text sent (for sentence kinds: the sentence, clipped)
    subject: str = ""  # what it is a value of: a few lower-case words ("gateway port")
    ref_kind: str = ""  # the finder's kind (port, version, path, ...): what may replace it
    source: FactSource = "assistant"
    message_id: str | None = None  # where it was stated (None: typed in the panel)
    turn: int | None = None  # the exchange it was stated in (1-based)
    sequence: int = 0  # creation order: the ledger renders in it
    status: FactStatus = "current"
    replaced_by: str | None = None  # the fact that replaced it (a correction)
    pinned: bool = False  # never evicted from the ledger
    edited: bool = False  # the user changed ``value`` in the panel
    original: str | None = None  # the value as stated, before the user's edit
    confirmed: bool = False  # an assistant's value the user used too: ranks as the user's
    from_correction: bool = False  # stated by a correction: replaces earlier values it meets
    # An assistant-only correction that says this (user's) value was replaced: it may not
    # replace it, but the value is never shown as current without the reply's claim beside it.
    disputed_by: str | None = None
    # What it is a value of (``fact_grammar``): "entity|attribute|unit class", e.g.
    # "api|port|port"; only a value of the same key replaces it ("" for sentences, old states).
    key: str = ""
    replaced_turn: int | None = None  # the turn it stopped holding (``turn``: from when it held)
    # A later value of a key that may be this one (uncertain): both stay current, this one is
    # marked "possibly replaced by X (turn N)".
    possibly_replaced_by: str | None = None
    # The stems of the content words of the statement around it (``fact_topics``): two keys
    # phrased otherwise meet by them ("the gym closes at" / "the closing time").
    topic: str = ""

    @property
    def users(self) -> bool:
        """Stated, typed, edited, pinned or confirmed by the user: outranks the assistant."""
        return self.source not in ("assistant", "tool") or self.confirmed or self.edited \
            or self.pinned
