"""A chat's own settings: its system prompt, model parameters and keep_alive (a service the
session holds), and what they put into each request.

Unset values mean the default: the Preferences' system prompt and keep_alive, Ollama's (the
model file's) values for the sampling options. The context size is the chat's
``context_size``; changing it re-budgets the engine at once, and it never goes beyond what the
model was trained for unless Preferences allow it (``SessionCore.fit_to_trained``).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from ollm_desktop.session.connections import Connections
from ollm_desktop.session.core import SessionCore
from ollm_desktop.session.events import Change
from ollm_desktop.storage import StorageError
from ollm_desktop.storage.models import ChatSettings


def request_options(core: SessionCore, num_ctx: int) -> dict[str, Any]:
    """The ``options`` of a chat turn: the chat's sampling settings and its context size."""
    chat = core.chat
    sampling = chat.settings.sampling() if chat is not None else {}
    return {**sampling, "num_ctx": num_ctx}


def keep_alive_for(core: SessionCore) -> str | None:
    """How long Ollama keeps the model loaded after a request: the chat's own, else the
    Preferences' (read per request, so a change there applies without a restart)."""
    chat = core.chat
    own = chat.settings.keep_alive if chat is not None else None
    return own or core.settings.keep_alive or None


class ChatSettingsService:
    def __init__(self, core: SessionCore, connections: Connections | None = None,
                 refresh: Callable[[], Coroutine[Any, Any, Any]] | None = None) -> None:
        self._core = core
        self._connections = connections
        self._refresh = refresh  # asks the server for its models (after a change of server)

    def current(self) -> ChatSettings | None:
        chat = self._core.chat
        return chat.settings if chat is not None else None

    def apply(self, settings: ChatSettings, context_size: int | None = None) -> Change:
        """Store the open chat's settings and make its engine follow them at once.

        ``context_size``: the chat's num_ctx; None resets it to the size a new chat gets (the
        Preferences' size, never beyond the model's trained length). A larger size than the
        model was trained for is lowered again, with a notice, unless Preferences allow it.
        Refused while a reply streams or a compaction runs: both planned with the old budget.
        """
        core = self._core
        if (refused := core.idle_chat_refusal()) is not None:
            return refused
        chat, engine = core.chat, core.engine
        assert chat is not None and engine is not None
        if "connection" not in settings.model_fields_set:  # a form without the field keeps it
            settings = settings.model_copy(update={"connection": chat.settings.connection})
        size = core.context_size_for_new_chat() if context_size is None else context_size
        try:
            if size != chat.context_size:
                core.store.set_chat_context_size(chat.id, size)
            core.store.set_chat_settings(chat.id, settings)
        except StorageError as exc:
            return core.storage_failed(exc)
        except ValueError as exc:  # pydantic's ValidationError: outside the engine's limits
            return Change.problem("input", f"That context size cannot be used: {exc}")
        core.chat = core.store.get_chat(chat.id) or chat
        change = core.sync_system_prompt() | Change(save=True, context=True)
        if size != engine.config.context_size:
            engine.config.context_size = size
            engine.load_state(engine.state())
        connections = self._connections
        if connections is not None and connections.use(connections.for_chat(core.chat)) \
                and self._refresh is not None:
            core.spawn(self._refresh(), "refresh-ollama")  # the chat talks to another server
        return change | core.fit_to_trained()

