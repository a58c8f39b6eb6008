"""Async access to one Ollama server through the official ``ollama`` client.

Every call returns our own value types and raises only :class:`BackendError`. Stopping a reply
is done by cancelling the task that iterates :meth:`OllamaBackend.chat_stream`: the
cancellation travels into the client's ``async with`` block and closes the HTTP connection,
which is the only way to make Ollama stop generating.

Every ``/api/chat`` says ``"truncate": false`` and ``"shift": false``: a prompt over num_ctx is
then an HTTP 400 (``context_overflow``) instead of Ollama silently dropping the oldest
messages, and generation stops at the window instead of shifting it. The client's ``chat()``
has no such parameters, so the request goes through its lower-level ``_request`` with the same
body plus those two fields; replies are still parsed into the client's ``ChatResponse``.
Servers that predate the fields ignore them.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import os
import urllib.parse
from collections.abc import AsyncGenerator, AsyncIterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported on first use: ollama and httpx cost ~1 s of a cold start
    import ollama

from ollm_desktop.backend.errors import BackendError, map_exception, stream_cut
from ollm_desktop.backend.models import (
    ChatChunk,
    ChatDone,
    ModelDetails,
    ModelInfo,
    PullProgress,
    RunningModel,
)
from ollm_desktop.backend.protocol import ServerActions
from ollm_desktop.backend.tool_wire import ollama_calls, ollama_message

DEFAULT_HOST = "http://127.0.0.1:11434"
DEFAULT_PORT = 11434

Messages = Sequence[Mapping[str, Any]]
# Sent on every chat: refuse over-long prompts (HTTP 400) and never shift the window.
NO_SILENT_CUTS: dict[str, bool] = {"truncate": False, "shift": False}


def _generator[T](stream: AsyncIterator[T]) -> AsyncGenerator[T, None]:
    """The client's streams, typed as iterators, are async generators: closable at once."""
    if not isinstance(stream, AsyncGenerator):
        raise TypeError(f"expected an async generator from ollama, got {type(stream).__name__}")
    return stream


@functools.cache
def _chat_part_type() -> type[ollama.ChatResponse]:
    """``ollama.ChatResponse`` plus Ollama's cache figure (PR #17943), which the client's own
    model drops; made on first use, after ``ollama`` is imported."""
    import ollama

    class ChatPart(ollama.ChatResponse):
        prompt_eval_cached_count: int | None = None

    return ChatPart


def _client_address(hostname: str) -> str:
    """A listen-on-all address (what people put in OLLAMA_HOST for the server) -> loopback."""
    try:
        address = ipaddress.ip_address(hostname)
    except ValueError:
        return hostname
    if address.is_unspecified:
        return "[::1]" if address.version == 6 else "127.0.0.1"
    return f"[{hostname}]" if address.version == 6 else hostname


class OllamaBackend:
    """One connection pool to one Ollama host (a ``ChatServer``: ``backend.protocol``)."""

    label = "Ollama"
    # No tokenize endpoint (ollama #6774): counts are learned from prompt_eval_count.
    actions = ServerActions(pull=True, start=True, count=False, sets_window=True, delete=True)

    def __init__(self, host: str | None = None, *, timeout: float = 10.0,
                 keep_alive: str | None = "10m") -> None:
        self.host = self.resolve_host(host)
        self.timeout = timeout
        self.keep_alive = keep_alive or None
        self._client_instance: ollama.AsyncClient | None = None

    @property
    def _client(self) -> ollama.AsyncClient:
        """The official client, created (and imported) on first use, after the window has
        shown the chat: nothing on the way to the first usable window needs it."""
        if self._client_instance is None:
            import httpx
            import ollama

            # read=None: a model load before the first token can take minutes; short calls
            # (version, tags, show, ps) get an overall deadline of ``timeout`` instead.
            self._client_instance = ollama.AsyncClient(
                self.host, timeout=httpx.Timeout(self.timeout, read=None), trust_env=False)
        return self._client_instance

    # ------------------------------------------------------------------ host
    @staticmethod
    def resolve_host(host: str | None) -> str:
        """Explicit host, else ``$OLLAMA_HOST``, else the default, as ``scheme://host:port``.

        Accepts the forms people write ("localhost:11434", ":11434", "0.0.0.0",
        "http://[::1]:11434/") and turns listen-on-all addresses into loopback.
        """
        raw = (host or "").strip() or os.environ.get("OLLAMA_HOST", "").strip()
        if not raw:
            return DEFAULT_HOST
        scheme, sep, rest = raw.partition("://")
        port = DEFAULT_PORT
        if not sep:
            scheme, rest = "http", raw
        else:
            scheme = scheme.lower()
            port = 443 if scheme == "https" else 80
        split = urllib.parse.urlsplit(f"{scheme}://{rest}")
        with contextlib.suppress(ValueError):  # "host:notaport" keeps the default port
            port = split.port or port
        hostname = _client_address(split.hostname or "127.0.0.1")
        path = split.path.strip("/")
        url = f"{scheme}://{hostname}:{port}"
        return f"{url}/{path}" if path else url

    # ---------------------------------------------------------------- errors
    def _error(self, exc: BaseException, model: str | None = None,
               timeout: float | None = None, num_ctx: int | None = None) -> BackendError:
        return map_exception(exc, host=self.host, model=model, timeout=timeout, num_ctx=num_ctx)

    @contextlib.asynccontextmanager
    async def _short_call(self, model: str | None = None) -> AsyncIterator[None]:
        """Deadline + error mapping for calls that should answer quickly."""
        try:
            async with asyncio.timeout(self.timeout):
                yield
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            raise self._error(exc, model, self.timeout) from exc

    @staticmethod
    def _check_model(model: str) -> None:
        if not model or not model.strip():
            raise BackendError("invalid", "Choose a model first.")

    # ----------------------------------------------------------------- calls
    async def version(self) -> str:
        async with self._short_call():
            # The client has no version() method; _request_raw maps HTTP and connect errors.
            response = await self._client._request_raw("GET", "/api/version")
            return str(response.json().get("version", ""))

    async def list_models(self) -> list[ModelInfo]:
        async with self._short_call():
            listing = await self._client.list()
        models = []
        for entry in listing.models:
            details = entry.details
            models.append(ModelInfo(
                name=entry.model or "",
                size=int(entry.size) if entry.size is not None else None,
                parameter_size=details.parameter_size if details else None,
                family=details.family if details else None,
                quantization=details.quantization_level if details else None,
                modified_at=entry.modified_at,
                digest=entry.digest,
            ))
        return [m for m in models if m.name]

    async def show(self, model: str) -> ModelDetails:
        self._check_model(model)
        async with self._short_call(model):
            info = await self._client.show(model)
        modelinfo = dict(info.modelinfo or {})
        architecture = modelinfo.get("general.architecture")
        context_length = None
        if architecture:
            value = modelinfo.get(f"{architecture}.context_length")
            if isinstance(value, int | float) and value > 0:
                context_length = int(value)
        details = info.details
        listed = list(info.capabilities or [])
        return ModelDetails(
            name=model,
            context_length=context_length,
            parameter_size=details.parameter_size if details else None,
            family=(details.family if details else None) or architecture,
            quantization=details.quantization_level if details else None,
            architecture=architecture,
            capabilities=listed,
            tools="tools" in listed,
            # An Ollama before capabilities (0.6) says nothing: unknown, not "cannot".
            vision="vision" in listed if listed else None,
            thinking="thinking" in listed if listed else None,
        )

    async def running(self) -> list[RunningModel]:
        async with self._short_call():
            response = await self._client.ps()
        return [
            RunningModel(
                name=entry.model or entry.name or "",
                context_length=entry.context_length,
                size=int(entry.size) if entry.size is not None else None,
                size_vram=int(entry.size_vram) if entry.size_vram is not None else None,
                expires_at=entry.expires_at,
            )
            for entry in response.models
        ]

    async def chat_stream(self, model: str, messages: Messages, *, num_ctx: int,
                          options: Mapping[str, Any] | None = None,
                          keep_alive: str | None = None, think: bool | None = None,
                          tools: Sequence[Mapping[str, Any]] | None = None,
                          ) -> AsyncGenerator[ChatChunk | ChatDone, None]:
        """Yield ChatChunk per piece, then exactly one ChatDone; raise BackendError otherwise.

        ``num_ctx`` always wins over ``options["num_ctx"]``: a silently different context
        would reload the model and change how much Ollama keeps. ``keep_alive``: this
        request's (a chat's own), else the backend's. ``think``: ask a thinking model for
        its reasoning separately (None: the field is not sent, for models without it).
        ``tools``: the wire's ``tools`` entries; the calls come back on ``ChatDone``.
        """
        self._check_model(model)
        sent_options = {**(options or {}), "num_ctx": int(num_ctx)}
        parts: list[str] = []
        thinking: list[str] = []
        calls: list[Any] = []
        try:
            stream = _generator(await self._client._request(
                _chat_part_type(), "POST", "/api/chat",
                json=self._chat_body(model, messages, sent_options, keep_alive, think, tools),
                stream=True))
            async with contextlib.aclosing(stream):
                async for part in stream:
                    text = part.message.content or ""
                    thought = part.message.thinking or ""
                    calls.extend(part.message.tool_calls or [])  # whole, in one chunk
                    if part.done:
                        if text:
                            parts.append(text)
                            yield ChatChunk(text, thought)
                        thinking.append(thought)
                        done = ChatDone(
                            content="".join(parts),
                            prompt_eval_count=part.prompt_eval_count,
                            eval_count=part.eval_count,
                            done_reason=part.done_reason,
                            total_duration=part.total_duration,
                            load_duration=part.load_duration,
                            prompt_eval_duration=part.prompt_eval_duration,
                            eval_duration=part.eval_duration,
                            model=part.model,
                            thinking="".join(thinking),
                            prompt_eval_cached_count=getattr(
                                part, "prompt_eval_cached_count", None),
                            tool_calls=tuple(ollama_calls(calls)),
                        )
                        break
                    if text or thought:
                        parts.append(text)
                        thinking.append(thought)
                        yield ChatChunk(text, thought)
                else:
                    raise stream_cut("the stream ended without a final 'done' line")
        except (asyncio.CancelledError, GeneratorExit, BackendError):
            raise
        except Exception as exc:
            raise self._error(exc, model, num_ctx=int(num_ctx)) from exc
        yield done

    async def count(self, model: str, messages: Messages) -> int | None:
        """Ollama cannot count a prompt before it is sent (no tokenize endpoint)."""
        return None

    async def window(self, model: str) -> int | None:
        """None: the client sets the context per request (num_ctx)."""
        return None

    async def embed(self, model: str, texts: Sequence[str]) -> list[list[float]]:
        """``/api/embed``: one vector per text, never truncated silently."""
        self._check_model(model)
        async with self._short_call(model):
            response = await self._client._request_raw(
                "POST", "/api/embed", json={"model": model, "input": list(texts),
                                            "truncate": False})
            vectors = response.json().get("embeddings") or []
        return [[float(x) for x in vector] for vector in vectors]

    def _chat_body(self, model: str, messages: Messages, options: Mapping[str, Any],
                   keep_alive: str | None = None, think: bool | None = None,
                   tools: Sequence[Mapping[str, Any]] | None = None) -> dict[str, Any]:
        """The body ``AsyncClient.chat`` would send, plus ``truncate``/``shift`` set to false.

        ``tools`` go in as given, not through the client's ``Tool`` model, which keeps only a
        few JSON-schema keywords (``anyOf``, ``default``, ``additionalProperties`` would go).
        """
        # Not re-exported: what AsyncClient.chat() sends; a message's ``images`` go base64.
        from ollama._types import ChatRequest, Image

        sent = [ollama_message(m) for m in messages]
        sent = [{**m, "images": [Image(value=i) for i in m["images"]]} if m.get("images")
                else m for m in sent]
        body = ChatRequest(
            model=model, messages=sent, stream=True, options=dict(options),
            keep_alive=keep_alive or self.keep_alive, think=think,
        ).model_dump(exclude_none=True)
        if tools:
            body["tools"] = [dict(tool) for tool in tools]
        return {**body, **NO_SILENT_CUTS}

    async def chat(self, model: str, messages: Messages, *, num_ctx: int,
                   options: Mapping[str, Any] | None = None,
                   keep_alive: str | None = None, think: bool | None = None,
                   tools: Sequence[Mapping[str, Any]] | None = None) -> ChatDone:
        """A whole reply at once (summaries). Streamed underneath so a cut is detected."""
        async with contextlib.aclosing(
            self.chat_stream(model, messages, num_ctx=num_ctx, options=options,
                             keep_alive=keep_alive, think=think, tools=tools)
        ) as stream:
            async for event in stream:
                if isinstance(event, ChatDone):
                    return event
        raise stream_cut("no final chunk")  # pragma: no cover - chat_stream raises first

    async def pull(self, model: str) -> AsyncGenerator[PullProgress, None]:
        """Progress lines of ``/api/pull``; ends after the "success" line."""
        self._check_model(model)
        succeeded = False
        try:
            stream = _generator(await self._client.pull(model, stream=True))
            async with contextlib.aclosing(stream):
                async for part in stream:
                    status = part.status or ""
                    yield PullProgress(status=status, completed=part.completed,
                                       total=part.total, digest=part.digest)
                    if status == "success":
                        succeeded = True
                        break
        except (asyncio.CancelledError, GeneratorExit, BackendError):
            raise
        except Exception as exc:
            raise self._error(exc, model) from exc
        if not succeeded:
            raise stream_cut("the pull ended without 'success'")

    async def delete(self, model: str) -> None:
        """``DELETE /api/delete``: the model's files go from the server's disk."""
        self._check_model(model)
        try:
            async with self._short_call(model):
                await self._client.delete(model)
        except BackendError as exc:
            if exc.kind == "model_not_found":  # "not installed. Pull it?" would mislead here
                raise BackendError("model_not_found", f"{model} is not on the server (any "
                                   "more): nothing was deleted.", detail=exc.detail,
                                   status_code=exc.status_code) from exc
            raise

    async def close(self) -> None:
        if self._client_instance is None:
            return
        with contextlib.suppress(Exception):
            await self._client_instance.close()
