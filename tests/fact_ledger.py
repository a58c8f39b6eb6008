"""Shared helpers of the fact tests (``tests/test_fact_*.py``, ``tests/test_engine_fact*.py``).

Two ways to play messages through the ledger's rules, kept apart because they are not the
same reading:

- ``facts.absorb`` into a ledger (``user_ledger``; ``tests.engine_fakes.absorbed`` for
  messages of any role), then read the ledger's entries (``current_set``, ``current_list``,
  ``status_of``, ``replaced_by_map``);
- ``current_values``, the scorer's view of a whole chat, flattened to its values
  (``values_after``, ``current_after``, ``current_after_exchanges``): these differ in the
  turns they play (user messages back to back, or with the assistant's "Noted." between or
  after them).

And the checks the parametrized tables share: ``by_form`` (a table whose first column names
the form, used as the test ids), ``check_current`` and ``check_after`` (one value current,
another not). Assertions here are rewritten by pytest (``tests/conftest.py`` registers this
module), so a failure shows its values as one written in the test would.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

import pytest

from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.facts_extract import current_values
from tests.engine_fakes import absorbed, fact_of

NOTED = "Noted."
"""The assistant's reply between (or after) the user's messages in ``current_after`` and
``current_after_exchanges``."""


# ------------------------------------------------------------------ a ledger by facts.absorb


def chat(*said: str) -> list[Fact]:
    """The facts ledger after a chat: each message absorbed as its own turn, an assistant's
    written with a leading "A: " (as the probe sets write them), the others the user's."""
    return absorbed(*(("assistant", text[3:]) if text.startswith("A: ") else ("user", text)
                      for text in said))


def user_ledger(*texts: str) -> list[Fact]:
    """The facts ledger after these user messages, each absorbed as its own turn (the first is
    turn 1) by ``facts.absorb``: ``absorbed`` with the role "user" for every message."""
    return absorbed(*(("user", text) for text in texts))


def current_set(ledger: list[Fact]) -> set[str]:
    """The values of the ledger's entries whose status is "current" (any kind)."""
    return {f.value for f in ledger if f.status == "current"}


def current_list(ledger: list[Fact]) -> list[str]:
    """The values of the ledger's "current" entries (any kind), in ledger order, repeats kept."""
    return [f.value for f in ledger if f.status == "current"]


def current_list_without_corrections(ledger: list[Fact]) -> list[str]:
    """As ``current_list``, leaving out the entries of the kind "correction"."""
    return [f.value for f in ledger if f.status == "current" and f.kind != "correction"]


def status_of(ledger: list[Fact], value: str) -> str:
    """The status of the ledger's (first) entry of ``value``; StopIteration when none is."""
    return fact_of(ledger, value).status


def stated_status(ledger: list[Fact], value: str) -> str | None:
    """The status of the ledger's first entry of ``value`` that states it (an open question
    is no value); None when none does (``status_of`` wants the entry there)."""
    return next((f.status for f in ledger if f.value == value and f.kind != "question"), None)


def replaced_by_map(ledger: list[Fact]) -> dict[str, str]:
    """Each "replaced" entry's value with the value of the entry that replaced it (entries
    whose replacement is not in the ledger are left out)."""
    by_id = {f.id: f for f in ledger}
    return {f.value: by_id[f.replaced_by].value for f in ledger
            if f.status == "replaced" and f.replaced_by in by_id}


def some_value_holds(values: Collection[str], text: str) -> bool:
    """``text`` stands inside one of ``values`` (a substring of it, or the whole value)."""
    return any(text in value for value in values)


# ------------------------------------------------------------------ through current_values


def values_after(*texts: str) -> list[str]:
    """The current values (``current_values``, every key's in turn) after these user messages,
    played back to back with no reply between them."""
    return [v for vs in current_values([("user", t) for t in texts]).values() for v in vs]


def current_after(fact: str, message: str) -> set[str]:
    """The current values after the user's ``fact``, the assistant's "Noted." and the user's
    ``message`` (three turns; no reply after the message)."""
    kept = current_values([("user", fact), ("assistant", NOTED), ("user", message)])
    return {value for values in kept.values() for value in values}


def current_after_exchanges(*messages: str) -> set[str]:
    """The current values after these user messages, each followed by the assistant's
    "Noted." (so two messages play four turns; unlike ``current_after``, a reply follows the
    last message too)."""
    turns: list[tuple[str, str]] = []
    for message in messages:
        turns += [("user", message), ("assistant", NOTED)]
    kept = current_values(turns)
    return {value for values in kept.values() for value in values}


# ------------------------------------------------------------------ the tables' checks


def by_form(names: Sequence[str], table: Sequence[tuple[Any, ...]]) -> pytest.MarkDecorator:
    """``pytest.mark.parametrize(names, table)`` with each row's first column (the form it
    tries) as its test id."""
    return pytest.mark.parametrize(tuple(names), table, ids=[row[0] for row in table])


def check_current(now: Collection[str], current: str, not_current: str,
                  label: object = None) -> None:
    """``current`` is among the values ``now`` and ``not_current`` is not. The failure message
    is ``now``, with ``label`` (a table's form) before it when given."""
    note = now if label is None else (label, now)
    assert current in now, note
    assert not_current not in now, note


def check_after(fact: str, message: str, current: str, not_current: str,
                label: object = None) -> None:
    """``check_current`` on ``current_after(fact, message)``."""
    check_current(current_after(fact, message), current, not_current, label)


def play_forward(said: str, later: str, reply: str = "Noted.") -> list[Fact]:
    """A statement, a reply and a later user message, absorbed in order."""
    from tests.engine_fakes import absorbed

    return absorbed(("user", said), ("assistant", reply), ("user", later))


def play_late(said: str, later: str, reply: str = "Noted.") -> list[Fact]:
    """The correction (turn 2) absorbed first, then the exchange it corrects (turn 1)."""
    from ollm_desktop.engine import facts
    from ollm_desktop.engine.models import Message

    ledger: list[Fact] = []
    for turn, role, text in ((2, "user", later), (1, "user", said), (1, "assistant", reply)):
        facts.absorb(ledger, Message(role=role, content=text), turn)  # type: ignore[arg-type]
    return ledger
