"""The user's changes to the open chat's facts ledger, and their undo: a service the session
holds.

Add a fact by hand, edit one, forget one, pin one (``engine.facts_front``). Each change is
what the model sees from the next request on, is written at once (the facts are a part of
the chat's state of their own, ``chat_state.facts``), and can be undone: the fact's copy from
before the change is kept and put back exactly (``engine.restore_fact``; an added one is
removed). Refused while a reply streams or a compaction runs, like every change of the chat:
both were planned with the ledger as it was. Undo entries belong to the chat they were made
in; a few are kept, for this run only.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from ollm_desktop.engine import ContextEngine
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.facts_front import FactsView
from ollm_desktop.session.core import SessionCore
from ollm_desktop.session.events import Change

KEEP = 20  # changes that can still be undone, newest last (all chats together)
NO_FACT = "That fact is no longer in this chat."
NOTHING_TO_UNDO = "There is no change of a fact to undo in this chat."
ADDED = "Fact added: it is sent from the next message on."
EDITED = "Fact changed: the model sees your value from the next message on."
FORGOTTEN = "Fact forgotten: it is not sent again."
PINNED = "Fact pinned: it is always sent."
UNPINNED = "Fact unpinned: it may be left out when the ledger is full."
UNDONE = "The fact is back as it was."


@dataclass(frozen=True)
class FactUndo:
    chat_id: str
    fact_id: str
    saved: Fact | None  # the fact before the change; None: it did not exist (an add)


class Facts:
    def __init__(self, core: SessionCore) -> None:
        self._core = core
        self._done: deque[FactUndo] = deque(maxlen=KEEP)

    def view(self) -> FactsView | None:
        """The open chat's ledger as the panel shows it (copies); None without a chat."""
        engine = self._core.engine
        return engine.facts_view() if engine is not None and self._core.chat else None

    def can_undo(self) -> bool:
        chat = self._core.chat
        return chat is not None and any(u.chat_id == chat.id for u in self._done)

    # ------------------------------------------------------------ the user's changes
    def add(self, text: str, pinned: bool = False) -> Change:
        return self._change(None, lambda e: e.add_fact(text, pinned=pinned), ADDED)

    def edit(self, fact_id: str, value: str) -> Change:
        return self._change(fact_id, lambda e: e.edit_fact(fact_id, value), EDITED)

    def forget(self, fact_id: str) -> Change:
        return self._change(fact_id, lambda e: e.forget_fact(fact_id), FORGOTTEN)

    def set_pinned(self, fact_id: str, pinned: bool) -> Change:
        return self._change(fact_id, lambda e: e.set_fact_pinned(fact_id, pinned),
                            PINNED if pinned else UNPINNED)

    def _change(self, fact_id: str | None, change: Callable[[ContextEngine], Fact],
                said: str) -> Change:
        core = self._core
        if (refused := core.idle_chat_refusal()) is not None:
            return refused
        chat, engine = core.chat, core.engine
        assert chat is not None and engine is not None
        saved = None
        if fact_id is not None:
            saved = next((f for f in engine.facts if f.id == fact_id), None)
            if saved is None:
                return Change.problem("input", NO_FACT)
        try:
            fact = change(engine)
        except ValueError as exc:  # an empty text
            return Change.problem("input", str(exc))
        if saved is not None and fact == saved:
            return Change()  # nothing changed: nothing to undo
        self._done.append(FactUndo(chat.id, fact.id, saved))
        return Change(context=True, notices=(said,)) | core.save_state()

    def undo(self) -> Change:
        """Undo the newest change of a fact in the open chat."""
        core = self._core
        if (refused := core.idle_chat_refusal()) is not None:
            return refused
        chat, engine = core.chat, core.engine
        assert chat is not None and engine is not None
        found = next((u for u in reversed(self._done) if u.chat_id == chat.id), None)
        if found is None:
            return Change.problem("input", NOTHING_TO_UNDO)
        self._done.remove(found)
        engine.restore_fact(found.saved, found.fact_id)
        return Change(context=True, notices=(UNDONE,)) | core.save_state()
