"""The engine's public calls for the facts ledger and recall (mixed into ``ContextEngine``).

What the facts panel does to a chat: add a fact by hand, edit one, forget one, pin one, and put
one back exactly as it was (undo). Each change is what the model sees from the next request on:
an added or edited entry is sent, a forgotten one never again (its value is masked wherever it
is quoted outside the recent turns), a pinned one is never evicted. Facts of a message that may
correct an earlier one are taken at once, so a replaced value is never sent as current.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ollm_desktop.engine import facts, facts_render, recall, tool_results
from ollm_desktop.engine.assembly import Assembly, Region
from ollm_desktop.engine.conversation import Conversation
from ollm_desktop.engine.fact_types import Fact
from ollm_desktop.engine.facts_rows import FactRow, fact_rows
from ollm_desktop.engine.models import Message
from ollm_desktop.engine.provenance import may_correct

RECALL_LIMIT = 4  # rounds asked of the source per send


@dataclass(frozen=True, slots=True)
class FactsView:
    """The ledger as the panel shows it (copies)."""

    facts: list[Fact]  # every entry, current, replaced and forgotten, in creation order
    shown: frozenset[str]  # on the ledger's lines now
    left_out: frozenset[str]  # eligible but over its budget
    recent: frozenset[str]  # their message is still sent word for word in its place
    blocking_pins: tuple[str, ...]  # pinned facts alone exceed the ledger's budget

    @property
    def rows(self) -> tuple[FactRow, ...]:
        """The panel's rows, one per key, each with ``shown_by_default`` (``facts_rows``):
        what the panel lists and what a benchmark reads are one decision."""
        return fact_rows(self.facts)


class FactsFront:
    _data: Conversation
    _invalidate: Callable[..., None]
    _api: Assembly | None  # the assembled request (ContextEngine), None: assemble again
    _assembly: Callable[[], Assembly]
    _region_now: Callable[[], Region]

    # ------------------------------------------------------------ reading
    @property
    def facts(self) -> list[Fact]:
        return [f.model_copy() for f in self._data.facts]

    def facts_view(self) -> FactsView:
        from ollm_desktop.engine import budget

        assembly, region = self._assembly(), self._region_now()
        limited = facts_render.render(self._data.facts, compacted=region.compacted,
                               quoted=region.quoted, budget=budget.ledger_budget(
                                   self._data.config), count=self._data.count,
                               notes=region.notes)
        recent = {f.id for f in self._data.facts if f.message_id is not None
                  and f.message_id not in region.compacted}
        return FactsView(self.facts, frozenset(assembly.facts_shown),
                         frozenset(assembly.facts_left_out), frozenset(recent),
                         limited.blocking_pins)

    def _fact(self, fact_id: str) -> Fact:
        found = next((f for f in self._data.facts if f.id == fact_id), None)
        if found is None:
            raise KeyError(f"no fact {fact_id}")
        return found

    def _facts_changed(self) -> None:
        self._invalidate(region=True)  # the ledger and the annotations of quoted text

    # ------------------------------------------------------------ the user's changes
    def add_fact(self, text: str, *, pinned: bool = False) -> Fact:
        """A fact the user typed: sent from the next request on, ranked first."""
        value = " ".join(text.split())
        if not value:
            raise ValueError("A fact needs some text.")
        sequence = max((f.sequence for f in self._data.facts), default=0) + 1
        fact = Fact(kind="note", value=value, source="manual", sequence=sequence,
                    pinned=pinned)
        self._data.facts.append(fact)
        self._facts_changed()
        return fact.model_copy()

    def edit_fact(self, fact_id: str, value: str) -> Fact:
        """The user's value replaces the stated one in what the model sees."""
        fact = self._fact(fact_id)
        value = " ".join(value.split())
        if not value:
            raise ValueError("A fact needs some text.")
        if value != fact.value:
            if fact.original is None:
                fact.original = fact.value
            fact.value, fact.edited = value, value != fact.original
            self._facts_changed()
        return fact.model_copy()

    def forget_fact(self, fact_id: str) -> Fact:
        fact = self._fact(fact_id)
        if fact.status != "forgotten":
            fact.status, fact.pinned = "forgotten", False
            self._facts_changed()
        return fact.model_copy()

    def set_fact_pinned(self, fact_id: str, pinned: bool) -> Fact:
        fact = self._fact(fact_id)
        if fact.pinned != pinned:
            fact.pinned = pinned
            self._facts_changed()
        return fact.model_copy()

    def restore_fact(self, saved: Fact | None, fact_id: str) -> None:
        """Undo: the fact ``fact_id`` back as ``saved`` (None: it did not exist, remove it)."""
        data = self._data
        index = next((i for i, f in enumerate(data.facts) if f.id == fact_id), None)
        if saved is None:
            if index is not None:
                del data.facts[index]
        elif index is None:
            data.facts.append(saved.model_copy())
            data.facts.sort(key=lambda f: f.sequence)
        else:
            data.facts[index] = saved.model_copy()
        self._facts_changed()

    def _adopt_pinned(self, message: Message) -> None:
        """The user pinned a reply: its values are adopted (issue 28), taken now if the reply
        was not read yet, and sent once its turn is compacted."""
        if message.role != "assistant":
            return
        data = self._data
        position = data.position(message.id)
        turn = data.turn_of(position) if position is not None else 0
        facts.absorb(data.facts, message, turn)
        for fact in data.facts:
            if fact.message_id == message.id and fact.kind != "question" and not fact.users:
                fact.confirmed = True

    # ------------------------------------------------------------ from the chat
    def _take_corrections(self, message: Message) -> bool:
        """A message that may replace a fact is read now (cheap test first), even before the
        ledger holds any: the statement it corrects is taken later, when it is compacted, and
        must meet the correction then (or it would be kept as current)."""
        if message.role not in ("user", "assistant") or \
                not may_correct(message.content, message.role):
            return False
        data = self._data
        position = data.position(message.id)
        turn = data.turn_of(position) if position is not None else 0
        # Its other facts are kept too (not sent while the message is recent); what changes the
        # request now is what it replaced or disputed.
        return facts.absorb(data.facts, message, turn).shows

    # ------------------------------------------------------------ recall
    def recall_request(self, source: recall.RecallSource | None, query: str,
                       ) -> tuple[list[dict[str, str]], recall.Recalled]:
        """The request with earlier rounds that ``query`` asks about inside its newest user
        message, within the room left under the usable budget (never carried forward).

        A question about a tool's result that was pruned or cut (``tool_results``) gets room:
        when such a round is found but does not fit, the results kept whole for earlier turns
        give way (pruned to their placeholders for this request only) and the search runs
        again. The question is about that result, not those; they are back whole in the next
        request, where nothing asks for the pruned one."""
        messages, found, wanted = self._recalled(source, query)
        if not wanted or any(self._is_result(r) for r in found.rounds):
            return messages, found
        data = self._data
        data.tool_yield = tool_results.keep_budget(data.config) + 1
        self._api = None
        try:
            again, refound, _ = self._recalled(source, query)
        finally:
            data.tool_yield = 0
            self._api = None
        if any(self._is_result(r) for r in refound.rounds):
            return again, refound
        return messages, found

    def _recalled(self, source: recall.RecallSource | None, query: str,
                  ) -> tuple[list[dict[str, str]], recall.Recalled, bool]:
        """The request with what fits, and whether a tool's result was found that is not
        sent whole (what :meth:`recall_request` may make room for)."""
        messages: list[dict[str, str]] = self.api_messages()  # type: ignore[attr-defined]
        assembly = self._assembly()
        from ollm_desktop.engine import budget

        room = budget.usable_tokens(self._data.config) - assembly.total
        if source is None or not query.strip() or not messages or \
                messages[-1]["role"] != "user":
            return messages, recall.Recalled(), False
        exclude = set(assembly.sent_ids)
        rounds = list(source.search(query, exclude=exclude, limit=RECALL_LIMIT))
        wanted = any(self._is_result(r) for r in rounds)
        if room < recall.MIN_ROOM:
            return messages, recall.Recalled(), wanted
        found = recall.compose(rounds, query, room=room, count=self._data.count,
                               notes=recall.quoted_notes(  # as the quotes have them
                                   self._data.facts, self._region_now().notes),
                               later=facts.corrections(self._data.facts))
        if not found.text:
            return messages, found, wanted
        last = dict(messages[-1])
        last["content"] += found.text
        return [*messages[:-1], last], found, wanted

    def _is_result(self, round_: recall.RecalledRound) -> bool:
        """Whether the round holds a tool's result."""
        data = self._data
        for message_id in round_.message_ids:
            position = data.position(message_id)
            if position is not None and data.messages[position].role == "tool":
                return True
        return False
