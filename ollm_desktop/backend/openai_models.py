"""What an OpenAI-compatible server says about its models: names, sizes, windows, counts.

The per-kind knowledge lives here and nowhere above ``backend/`` (see
shared/notes/platform-facts.md, "OpenAI-compatible servers"):

- llama.cpp: ``/v1/models`` ``meta.n_params`` (model size) and ``meta.n_ctx_train``; ``/props``
  ``default_generation_settings.n_ctx`` is the per-slot window (``-c`` / ``--parallel``);
  counts from ``/v1/chat/completions/input_tokens`` where present, else ``/apply-template``
  plus ``/tokenize``.
- vLLM: ``max_model_len`` in ``/v1/models`` is the window; ``/tokenize`` takes ``messages``.
- LM Studio: ``/api/v0/models`` gives ``max_context_length`` and, for a loaded model,
  ``loaded_context_length`` (the window); no tokenize endpoint.
- generic: ``/v1/models`` names only; the window is what the user entered.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from ollm_desktop.backend.errors import BackendError, model_not_found
from ollm_desktop.backend.models import ModelDetails, ModelInfo

WINDOW_TTL = 30.0  # seconds a server's window is trusted (a restart may change -c)
NO_WINDOW = ("The server at {host} cannot say the context size it serves {model} with: enter "
             "it for this connection in Preferences ▸ Other servers. Until then this chat plans "
             "with its own size, and a request over the server's real size is refused.")
# Where listings of other servers name a model's context (vLLM-like, OpenRouter-like, Groq).
LISTED_WINDOW = ("max_model_len", "context_length", "context_window")
NOT_LOADED = ("{server} has not loaded {model} yet: it loads with your first message, and its "
              "context size is read then. Until then this chat plans with {size}.")

GetJson = Callable[[str], Awaitable[Any]]


def format_params(count: Any) -> str | None:
    """llama.cpp's ``n_params`` (134515008) as Ollama writes sizes ("134.52M", "8.03B")."""
    if not isinstance(count, int | float) or count <= 0:
        return None
    if count >= 1e9:
        return f"{count / 1e9:.2f}B"
    if count >= 1e6:
        return f"{count / 1e6:.2f}M"
    return f"{count / 1e3:.2f}K"


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _positive(value: Any) -> int | None:
    return int(value) if isinstance(value, int | float) and value > 0 else None


def template_tools(props: dict[str, Any]) -> bool | None:
    """llama.cpp's word on tools: ``chat_template_caps`` (newer builds: a template without
    tools takes ``tools`` and silently drops them), else whether its Jinja template reads
    ``tools`` at all; None when it sends neither."""
    caps = props.get("chat_template_caps")
    if isinstance(caps, dict) and "supports_tools" in caps:
        return bool(caps.get("supports_tools")) and caps.get("supports_tool_calls") is not False
    template = props.get("chat_template")
    return "tools" in template if isinstance(template, str) and template else None


class ModelCatalog:
    """Model listings and windows of one server, fetched through ``get_json`` (which raises
    ``BackendError``), with windows cached for ``WINDOW_TTL``."""

    def __init__(self, kind: str, label: str, host: str, get_json: GetJson,
                 user_window: int | None = None) -> None:
        self.kind, self.label, self.host = kind, label, host
        self._get_json = get_json
        self.user_window = user_window
        self._windows: dict[str, tuple[float, int | None]] = {}

    # ---------------------------------------------------------------- listing
    async def entries(self) -> list[dict[str, Any]]:
        """The raw model entries (LM Studio: its own listing, embedding models left out)."""
        path = "/api/v0/models" if self.kind == "lmstudio" else "/v1/models"
        payload = await self._get_json(path)
        data = payload.get("data") if isinstance(payload, dict) else None
        if not isinstance(data, list):
            raise BackendError("http", f"The server at {self.host} ({self.label}) sent no model "
                               "list.", detail=str(payload)[:300])
        rows = [e for e in data if isinstance(e, dict) and isinstance(e.get("id"), str)]
        if self.kind == "lmstudio":
            rows = [e for e in rows if e.get("type") not in ("embeddings", "embedding")]
        return rows

    async def list_models(self) -> list[ModelInfo]:
        """The listing, with the context and capabilities it names (unknown where it names
        none); llama.cpp's vision and tools are in ``/props``, so its rows ask :meth:`show`."""
        models = []
        for entry in await self.entries():
            meta = _dict(entry.get("meta"))
            vision = tools = None
            if self.kind == "lmstudio":
                listed = entry.get("capabilities")
                vision = entry.get("type") == "vlm"
                tools = isinstance(listed, list) and "tool_use" in listed
            models.append(ModelInfo(
                name=entry["id"], parameter_size=format_params(meta.get("n_params")),
                family=entry.get("arch") if isinstance(entry.get("arch"), str) else None,
                quantization=(entry.get("quantization")
                              if isinstance(entry.get("quantization"), str) else None),
                size=_positive(meta.get("size")), context_length=self._listed_context(entry),
                vision=vision, tools=tools, described=self.kind != "llama.cpp"))
        return models

    def _listed_context(self, entry: dict[str, Any]) -> int | None:
        """The trained context (llama.cpp, LM Studio) or the served one (vLLM, others)."""
        if self.kind == "llama.cpp":
            return _positive(_dict(entry.get("meta")).get("n_ctx_train"))
        if self.kind == "lmstudio":
            return _positive(entry.get("max_context_length"))
        return next((w for key in LISTED_WINDOW if (w := _positive(entry.get(key)))), None)

    async def entry(self, model: str) -> dict[str, Any]:
        for entry in await self.entries():
            aliases = entry.get("aliases")
            if entry["id"] == model or (isinstance(aliases, list) and model in aliases):
                return entry
        raise model_not_found(model, None, self.label, self.host)

    # ---------------------------------------------------------------- details
    async def show(self, model: str) -> ModelDetails:
        entry = await self.entry(model)
        meta = _dict(entry.get("meta"))
        capabilities = ["completion"]
        trained: int | None = None
        note: str | None = None
        tools: bool | None = None  # vLLM, generic: unknown until a call is refused
        vision: bool | None = None
        if self.kind == "llama.cpp":
            trained = _positive(meta.get("n_ctx_train"))
            props = await self._props()
            modalities = props.get("modalities") if isinstance(props, dict) else None
            if isinstance(modalities, dict):
                vision = bool(modalities.get("vision"))
            tools = template_tools(props)
        elif self.kind == "lmstudio":
            trained = _positive(entry.get("max_context_length"))
            vision = entry.get("type") == "vlm"
            listed = entry.get("capabilities")
            tools = isinstance(listed, list) and "tool_use" in listed
        if vision:
            capabilities.append("vision")
        if tools:
            capabilities.append("tools")
        window = await self.window(model, entry)
        if self.kind == "generic" and window is None:
            note = NO_WINDOW.format(host=self.host, model=model)
        if self.kind == "lmstudio" and window is None:
            size = f"{trained:,} tokens at most" if trained else "the chat's own size"
            note = NOT_LOADED.format(server=self.label, model=model, size=size)
        return ModelDetails(
            name=model, context_length=trained, parameter_size=format_params(meta.get("n_params")),
            family=entry.get("arch") if isinstance(entry.get("arch"), str) else None,
            quantization=(entry.get("quantization")
                          if isinstance(entry.get("quantization"), str) else None),
            capabilities=capabilities, window=window, note=note, tools=tools, vision=vision)

    async def _props(self) -> dict[str, Any]:
        props = await self._get_json("/props")
        return props if isinstance(props, dict) else {}

    # ----------------------------------------------------------------- window
    def remember_window(self, model: str, window: int | None) -> None:
        self._windows[model] = (time.monotonic(), window)

    async def window(self, model: str, entry: dict[str, Any] | None = None) -> int | None:
        """The context the server serves ``model`` with (cached a little while)."""
        if self.kind == "generic" and self.user_window:
            return self.user_window  # what the user entered wins
        cached = self._windows.get(model)
        if cached is not None and time.monotonic() - cached[0] < WINDOW_TTL:
            return cached[1]
        window: int | None = None
        if self.kind == "llama.cpp":
            settings = (await self._props()).get("default_generation_settings")
            window = _positive(settings.get("n_ctx")) if isinstance(settings, dict) else None
            if window is None:  # older builds: the slot size only in /v1/models meta
                entry = entry or await self.entry(model)
                meta = _dict(entry.get("meta"))
                window = _positive(meta.get("n_ctx"))
        else:
            entry = entry or await self.entry(model)
            if self.kind == "vllm":
                window = _positive(entry.get("max_model_len"))
            elif self.kind == "generic":  # only where its listing names it
                window = next((w for key in LISTED_WINDOW
                               if (w := _positive(entry.get(key)))), None)
            elif self.kind == "lmstudio" and entry.get("state") == "loaded":
                window = _positive(entry.get("loaded_context_length"))
        if self.kind == "lmstudio" and window is None:
            return None  # not loaded: asked again next time (it loads with the first send)
        self.remember_window(model, window)
        return window
