"""Value types the backend hands to the controller, free of ollama client classes.

Keeping our own types means the controller and UI never import ``ollama`` and the field names
stay stable if the client renames things again (``model_info`` vs ``modelinfo``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel

from ollm_desktop.engine.models import ReplyStats
from ollm_desktop.engine.reliability import parse_parameter_size
from ollm_desktop.engine.tool_types import ToolCall


@dataclass(frozen=True, slots=True)
class ChatChunk:
    """One streamed piece of the assistant's reply."""

    text: str
    thinking: str = ""


@dataclass(frozen=True, slots=True)
class ChatDone:
    """End of a reply: the full text plus Ollama's metrics (durations in nanoseconds)."""

    content: str
    prompt_eval_count: int | None = None
    eval_count: int | None = None
    done_reason: str | None = None
    total_duration: int | None = None
    load_duration: int | None = None
    prompt_eval_duration: int | None = None
    eval_duration: int | None = None
    model: str | None = None
    thinking: str = ""
    # Of prompt_eval_count, the tokens the server took from its cache (Ollama's
    # prompt_eval_cached_count, llama.cpp's timings.cache_n); None where it says nothing.
    prompt_eval_cached_count: int | None = None
    # The tools the model asked to call (both wires); the reply's text may come with them.
    tool_calls: tuple[ToolCall, ...] = ()

    @property
    def tokens_per_second(self) -> float | None:
        if not self.eval_count or not self.eval_duration:
            return None
        return self.eval_count / (self.eval_duration / 1e9)

    def reply_stats(self) -> ReplyStats:
        """The figures stored with the reply and shown on it (negative values, which no
        Ollama sends, are left out rather than refused)."""
        def valid(value: int | None) -> int | None:
            return value if isinstance(value, int) and value >= 0 else None

        return ReplyStats(
            prompt_tokens=valid(self.prompt_eval_count), reply_tokens=valid(self.eval_count),
            prompt_duration_ns=valid(self.prompt_eval_duration),
            reply_duration_ns=valid(self.eval_duration),
            total_duration_ns=valid(self.total_duration),
            load_duration_ns=valid(self.load_duration))


@dataclass(frozen=True, slots=True)
class PullProgress:
    status: str
    completed: int | None = None
    total: int | None = None
    digest: str | None = None

    @property
    def fraction(self) -> float | None:
        if not self.total or self.completed is None:
            return None
        return min(1.0, self.completed / self.total)


class ModelInfo(BaseModel):
    """A model the server lists (Ollama: a row of ``/api/tags``), with what the model picker
    and the Models page show of it: size on disk, trained context and capabilities.

    ``vision``, ``tools``, ``thinking``: True or False where the server says, None where it
    cannot (a generic OpenAI-compatible server) or has not been asked yet. ``described``: the
    listing is all this server will say (OpenAI-compatible listings), or :meth:`described_by`
    has added the model's details (Ollama's ``/api/show``); False asks the session to fetch
    them.
    """

    name: str
    size: int | None = None
    parameter_size: str | None = None
    family: str | None = None
    quantization: str | None = None
    modified_at: datetime | None = None
    digest: str | None = None
    context_length: int | None = None  # trained context (the most a chat can use)
    vision: bool | None = None
    tools: bool | None = None
    thinking: bool | None = None
    embedding_only: bool = False  # an embedding model: it cannot chat
    described: bool = False

    @property
    def parameter_billions(self) -> float | None:
        return parse_parameter_size(self.parameter_size)

    def described_by(self, details: ModelDetails) -> ModelInfo:
        """This row with the model's details: context, capabilities (where known)."""
        capabilities = details.capabilities
        return self.model_copy(update={
            "context_length": details.context_length or details.window or self.context_length,
            "parameter_size": self.parameter_size or details.parameter_size,
            "vision": _known(details.vision, self.vision),
            "tools": _known(details.tools, self.tools),
            "thinking": _known(details.thinking, self.thinking),
            "embedding_only": "embedding" in capabilities and "completion" not in capabilities,
            "described": True,
        })


def _known(said: bool | None, before: bool | None) -> bool | None:
    return before if said is None else said


class ModelDetails(BaseModel):
    """What the server says about one model (Ollama: ``/api/show``)."""

    name: str
    context_length: int | None = None  # trained context, not the loaded num_ctx
    parameter_size: str | None = None
    family: str | None = None
    quantization: str | None = None
    architecture: str | None = None
    capabilities: list[str] = []
    # The context the server serves the model with, which no request can change (llama.cpp's
    # per-slot n_ctx, vLLM's max_model_len, LM Studio's loaded context, a generic server's
    # user-entered size); None where the client sets it per request (Ollama's num_ctx).
    window: int | None = None
    # Whether the model can call tools: Ollama's capabilities, llama.cpp's template caps, LM
    # Studio's listing; None where the server cannot say (the first refused call tells).
    tools: bool | None = None
    # Whether it sees images (Ollama's capabilities, llama.cpp's /props modalities, LM Studio's
    # "vlm" type) and reasons before answering (Ollama's "thinking"); None: the server is silent.
    vision: bool | None = None
    thinking: bool | None = None
    note: str | None = None  # what the user should know (e.g. a model not loaded yet)

    @property
    def parameter_billions(self) -> float | None:
        return parse_parameter_size(self.parameter_size)


class RunningModel(BaseModel):
    """A row of ``/api/ps``: a loaded model and the context it was loaded with."""

    name: str
    context_length: int | None = None
    size: int | None = None
    size_vram: int | None = None
    expires_at: datetime | None = None
