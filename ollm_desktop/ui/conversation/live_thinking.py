"""A thinking model's reasoning shown while it streams: "Thinking… (N words)" on the reply,
which expands like a finished one. Chunks are batched (one row update per interval), as the
reply's text is."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from ollm_desktop.ui.conversation.conversation_model import STREAM_FLUSH_MS

if TYPE_CHECKING:
    from ollm_desktop.ui.conversation.host import ConversationHost


class LiveThinking(QObject):
    def __init__(self, content: ConversationHost) -> None:
        super().__init__(content.window)
        self._model = content.conversation_model
        self._pending: dict[str, list[str]] = {}
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(STREAM_FLUSH_MS)
        self._timer.timeout.connect(self.flush)
        content.controller.replyThinking.connect(self.add)
        # The finished reply carries its whole reasoning: what is still queued is in it.
        content.controller.replyFinished.connect(lambda message, _info: self._pending.pop(
            message.id, None))

    def add(self, message_id: str, text: str) -> None:
        self._pending.setdefault(message_id, []).append(text)
        if not self._timer.isActive():
            self._timer.start()

    def flush(self) -> None:
        pending, self._pending = self._pending, {}
        model = self._model
        model.flush_stream()  # the reply's own text first: an update drops what is queued
        for message_id, parts in pending.items():
            position = model.row_of_message(message_id)
            row = model.rows[position] if position is not None else None
            message = row.message if row is not None and row.streaming else None
            if message is not None:  # (a finished reply already holds all of it)
                model.update_message(message.model_copy(
                    update={"thinking": (message.thinking or "") + "".join(parts)}))


def install(content: ConversationHost) -> LiveThinking:
    return LiveThinking(content)
