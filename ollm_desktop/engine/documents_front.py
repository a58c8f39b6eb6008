"""The engine's public calls for attached documents (mixed into ``ContextEngine``): whether
the system message asks the model to cite them, and the request with their text inside the
newest user message (``engine.document_context``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ollm_desktop.engine import budget, document_context
from ollm_desktop.engine.assembly import Assembly
from ollm_desktop.engine.conversation import Conversation
from ollm_desktop.engine.document_context import AttachedText, DocumentsSent, PassageSource


class DocumentsFront:
    _data: Conversation
    _invalidate: Callable[..., None]
    _assembly: Callable[[], Assembly]

    def set_documents_attached(self, attached: bool) -> None:
        """The chat has documents: the system message says how their passages are cited
        (one change of the cached prefix when the first is attached or the last removed)."""
        if self._data.documents_attached != attached:
            self._data.documents_attached = attached
            self._invalidate()

    def document_queries(self) -> list[str]:
        """The texts the next ``document_request`` searches with (the newest user message,
        and it with the turn before), for a source that embeds them first."""
        pairs = [(m.role, m.content) for m in self._data.messages if m.role != "system"]
        query, context = document_context.query_context(pairs)
        if not query.strip():
            return []
        return [query, f"{query}\n{context}"] if context.strip() else [query]

    def document_request(self, documents: Sequence[AttachedText],
                         source: PassageSource | None, *, reserve: int = 0,
                         ) -> tuple[list[dict[str, str]], DocumentsSent]:
        """The request with the documents' text that its newest user message needs, within
        the room left under the usable budget less ``reserve`` (never carried forward)."""
        messages: list[dict[str, str]] = self.api_messages()  # type: ignore[attr-defined]
        if not documents or not messages or messages[-1]["role"] != "user":
            return messages, DocumentsSent()
        usable = budget.usable_tokens(self._data.config)
        room = usable - self._assembly().total - max(0, reserve)
        pairs = [(m.role, m.content) for m in self._data.messages if m.role != "system"]
        query, context = document_context.query_context(pairs)
        sent = document_context.compose(documents, source, query, context, room=room,
                                        usable=usable, count=self._data.count,
                                        scale=self._data.config.estimate_scale)
        if not sent.text:
            return messages, sent
        last = dict(messages[-1])
        last["content"] += sent.text
        return [*messages[:-1], last], sent
