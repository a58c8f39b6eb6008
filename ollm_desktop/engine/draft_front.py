"""The engine's side of a compaction worked out on a copy (mixed into ``ContextEngine``):
applying the copy's result to the chat, after seed 004's check (``compaction_draft``)."""

from __future__ import annotations

from typing import Any

from ollm_desktop.engine.assembly import Assembler, Assembly, Region
from ollm_desktop.engine.compaction_draft import Base, carry_derived
from ollm_desktop.engine.conversation import Conversation
from ollm_desktop.engine.models import Message
from ollm_desktop.engine.summarizer import Summarize, SummaryCaller

CALIBRATION = ("estimate_scale", "message_overhead", "request_overhead")


class DraftFront:
    _data: Conversation
    _generation: int
    _summarize: Summarize
    _assembler: Assembler
    _caller: SummaryCaller
    _region: Region | None
    _api: Assembly | None
    stats: dict[str, int]
    last_error: str | None

    def _read_in(self, message: Message) -> None:
        raise NotImplementedError

    def take_draft(self, draft: Any, base: Base) -> str:
        """Apply a copy's compaction unless the chat changed since ``base`` ("changed"):
        the chat's own message objects stay (the session may hold them), with what the copy
        derived from them; messages added meanwhile are read into the result again."""
        verdict = base.compare(self._data, self._generation)
        if verdict == "changed":
            return verdict
        live, data = self._data, draft._data
        carry_derived(live.messages, data.messages)
        # The copy's counts are in its calibration (``compact_detached``): the chat's own
        # settings object (the session holds it) takes it, and the chat's own messages are
        # counted again with it (each text's count is cached: no tokenising), as the copy's
        # were; the region and request the copy built stay valid.
        old_scale, old_overhead = live.config.estimate_scale, live.config.message_overhead
        recount = any(getattr(live.config, n) != getattr(data.config, n) for n in CALIBRATION)
        for name in CALIBRATION:
            setattr(live.config, name, getattr(data.config, name))
        data.messages, data.index, data.config = live.messages, live.index, live.config
        if recount:
            data.recount(old_scale, old_overhead)
        self._data, self._assembler = data, draft._assembler
        self._caller = SummaryCaller(self._summarize, data.config, self.stats)
        self._region, self._api, self.last_error = draft._region, draft._api, draft.last_error
        for message in live.messages[len(base.rows):]:
            self._read_in(message)
        return verdict
