"""The one small protocol the session talks to, whatever server answers.

``backend/`` holds one module per server API (``client`` for Ollama's own API,
``openai_compat`` for llama.cpp's server, LM Studio, vLLM and any other OpenAI-compatible
server); each satisfies :class:`ChatServer`. Above ``backend/`` nothing asks which kind it talks
to: what differs is said by :class:`ServerActions` (which optional actions exist) and by the
values the calls return (a model's serving window, an exact count or None). The kind's name
shows only in the Preferences and in error messages (``label``).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from ollm_desktop.backend.models import ChatChunk, ChatDone, ModelDetails, ModelInfo, PullProgress

ServerKind = Literal["ollama", "llama.cpp", "lmstudio", "vllm", "generic"]
KINDS: tuple[ServerKind, ...] = ("ollama", "llama.cpp", "lmstudio", "vllm", "generic")
# How each kind is named to the user (Preferences, error messages).
KIND_LABELS: dict[str, str] = {
    "ollama": "Ollama", "llama.cpp": "llama.cpp server", "lmstudio": "LM Studio",
    "vllm": "vLLM", "generic": "OpenAI-compatible server",
}

Messages = Sequence[Mapping[str, Any]]


@dataclass(frozen=True, slots=True)
class ServerActions:
    """What a server offers beyond chatting: the window hides what the server lacks.

    ``pull``: download a model; ``delete``: remove one from the server's disk; ``start``: a
    local server the app may start (``ollama serve``); ``count``: exact prompt counts
    (:meth:`ChatServer.count` returns numbers); ``sets_window``: the client chooses the
    context per request (Ollama's num_ctx) instead of the server fixing it (``window`` then
    returns None).
    """

    pull: bool = False
    start: bool = False
    delete: bool = False
    count: bool = False
    sets_window: bool = False


@runtime_checkable
class ChatServer(Protocol):
    """Chat stream, count, window, model size, models, embed, and the optional actions.

    Every call raises only ``BackendError``; Stop is cancelling the task that iterates
    :meth:`chat_stream` (its connection closes, which stops generation on the server).
    """

    host: str  # the address as shown to the user

    @property
    def label(self) -> str:
        """"Ollama", "vLLM", ...: for error messages and the Preferences only."""
        ...

    @property
    def actions(self) -> ServerActions: ...

    async def version(self) -> str:
        """Reachability (and the server's version where it says one); raises when down."""
        ...

    async def list_models(self) -> list[ModelInfo]: ...

    async def show(self, model: str) -> ModelDetails:
        """Size, trained context and serving window of one model (model size: reliability)."""
        ...

    def chat_stream(self, model: str, messages: Messages, *, num_ctx: int,
                    options: Mapping[str, Any] | None = None, keep_alive: str | None = None,
                    think: bool | None = None, tools: Sequence[Mapping[str, Any]] | None = None,
                    ) -> AsyncGenerator[ChatChunk | ChatDone, None]:
        """``tools``: the ``{"type": "function", ...}`` entries the model may call; the calls
        it makes come back on ``ChatDone.tool_calls`` (``backend.tool_wire``)."""
        ...

    async def chat(self, model: str, messages: Messages, *, num_ctx: int,
                   options: Mapping[str, Any] | None = None, keep_alive: str | None = None,
                   think: bool | None = None,
                   tools: Sequence[Mapping[str, Any]] | None = None) -> ChatDone: ...

    async def count(self, model: str, messages: Messages) -> int | None:
        """The server's exact count of this prompt (template included); None: it cannot."""
        ...

    async def window(self, model: str) -> int | None:
        """The context the server serves ``model`` with; None: the client sets it (num_ctx)
        or it is not known yet (a model not loaded)."""
        ...

    async def embed(self, model: str, texts: Sequence[str]) -> list[list[float]]: ...

    def pull(self, model: str) -> AsyncGenerator[PullProgress, None]: ...

    async def delete(self, model: str) -> None:
        """Remove the model from the server (only where ``actions.delete``)."""
        ...

    async def close(self) -> None: ...
