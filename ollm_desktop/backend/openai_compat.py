"""Chatting with an OpenAI-compatible server: llama.cpp's server, LM Studio, vLLM, any other.

httpx and a small SSE reader, not the ``openai`` package: its default retries would re-run a
generation, and it hides what these servers add (``timings``, error events). Every chat request
says ``stream: true`` with ``stream_options.include_usage`` (``usage.prompt_tokens`` is the
server's own count, which calibration learns from) and always sets ``max_tokens``: the smaller
of the reply cap and the window minus the prompt (vLLM refuses a prompt plus ``max_tokens``
over ``max_model_len``). ``truncate_prompt_tokens`` is never sent: nothing is cut silently.

Where the server counts (llama.cpp, vLLM), the prompt is counted exactly before it goes; one
over the window is refused here, as the server would, without sending it. Stop is cancelling
the task that iterates :meth:`OpenAICompatServer.chat_stream`: the stream's connection
closes, which stops generation on the server.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import hashlib
import json
import ssl
import time
from collections.abc import AsyncGenerator, AsyncIterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx

from ollm_desktop.backend.errors import (
    BackendError,
    context_overflow,
    stream_cut,
    tools_unsupported,
)
from ollm_desktop.backend.models import ChatChunk, ChatDone, ModelDetails, ModelInfo, PullProgress
from ollm_desktop.backend.openai_errors import (
    Where,
    completion_room,
    http_error,
    map_transport,
    parse_error,
    stream_error,
)
from ollm_desktop.backend.openai_models import ModelCatalog
from ollm_desktop.backend.openai_wire import rough_count, to_openai
from ollm_desktop.backend.protocol import KIND_LABELS, Messages, ServerActions, ServerKind
from ollm_desktop.backend.sse import sse_events
from ollm_desktop.backend.tool_wire import StreamedCalls, refuses_tools

COUNTING_KINDS = frozenset({"llama.cpp", "vllm"})
THINKING_SWITCH_KINDS = frozenset({"llama.cpp", "vllm"})  # take chat_template_kwargs
COUNT_CACHE = 16
MIN_REPLY = 16  # max_tokens never below this when only a rough count is known
# The detail of an over-length error found by the server's count before anything was sent.
COUNTED_BEFORE_SENDING = "counted before sending"


class OpenAICompatServer:
    """One connection pool to one OpenAI-compatible server of a known kind."""

    def __init__(self, url: str, kind: ServerKind = "generic", *, api_key: str | None = None,
                 ca_file: str | None = None, timeout: float = 10.0,
                 window: int | None = None) -> None:
        from ollm_desktop.backend.probe import api_root

        self.host = api_root(url)
        self.kind: ServerKind = kind
        self.label = KIND_LABELS[kind]
        self.timeout = timeout
        self._api_key = api_key or None
        self._ca_file = ca_file or None
        self._http: httpx.AsyncClient | None = None
        self._counts: collections.OrderedDict[str, int] = collections.OrderedDict()
        self._input_tokens: bool | None = None  # llama.cpp's count endpoint (None: untried)
        self.catalog = ModelCatalog(kind, self.label, self.host, self._get_json, window)
        self.where = Where(self.host, self.label, bool(self._api_key))

    @property
    def actions(self) -> ServerActions:
        return ServerActions(count=self.kind in COUNTING_KINDS)

    # ------------------------------------------------------------- plumbing
    def _client(self) -> httpx.AsyncClient:
        if self._http is None:
            import httpx

            verify: ssl.SSLContext | bool = True
            if self._ca_file:
                try:
                    verify = ssl.create_default_context(cafile=self._ca_file)
                except (OSError, ssl.SSLError) as exc:
                    raise BackendError("invalid", f"The CA file {self._ca_file} could not be "
                                       f"read: {exc}", detail=str(exc)) from exc
            headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
            # read=None: a model load before the first token can take minutes; short calls get
            # an overall deadline of ``timeout`` instead. trust_env=False: no system proxy.
            self._http = httpx.AsyncClient(
                base_url=self.host, headers=headers, verify=verify, trust_env=False,
                timeout=httpx.Timeout(self.timeout, read=None))
        return self._http

    @contextlib.asynccontextmanager
    async def _short_call(self) -> AsyncIterator[None]:
        try:
            async with asyncio.timeout(self.timeout):
                yield
        except (asyncio.CancelledError, BackendError):
            raise
        except Exception as exc:
            raise map_transport(exc, self.where, self.timeout) from exc

    async def _get_json(self, path: str) -> Any:
        async with self._short_call():
            response = await self._client().get(path)
            if response.status_code != 200:
                raise http_error(response.status_code, response.text, self.where)
            return response.json()

    async def _post_json(self, path: str, body: Mapping[str, Any], *,
                         model: str | None = None) -> tuple[int, Any]:
        async with self._short_call():
            response = await self._client().post(path, json=body)
            if response.status_code in (401, 403):
                raise http_error(response.status_code, response.text, self.where)
            if response.status_code != 200:
                return response.status_code, response.text
            return 200, response.json()

    # ------------------------------------------------------------ the catalog
    async def version(self) -> str:
        """Reachable, and the key (if any) accepted: the model listing answers."""
        await self.catalog.entries()
        if self.kind == "llama.cpp":
            with contextlib.suppress(BackendError):
                props = await self._get_json("/props")
                return str(props.get("build_info") or "") if isinstance(props, dict) else ""
        if self.kind == "vllm":
            with contextlib.suppress(BackendError):
                answer = await self._get_json("/version")
                return str(answer.get("version") or "") if isinstance(answer, dict) else ""
        return ""

    async def list_models(self) -> list[ModelInfo]:
        return await self.catalog.list_models()

    async def show(self, model: str) -> ModelDetails:
        self._check_model(model)
        return await self.catalog.show(model)

    async def window(self, model: str) -> int | None:
        return await self.catalog.window(model)

    async def running(self) -> list[Any]:
        return []

    @staticmethod
    def _check_model(model: str) -> None:
        if not model or not model.strip():
            raise BackendError("invalid", "Choose a model first.")

    # --------------------------------------------------------------- counting
    async def count(self, model: str, messages: Messages,
                    tools: Sequence[Mapping[str, Any]] = ()) -> int | None:
        """The server's count of the templated prompt; None where it cannot count (other
        kinds, pictures, an endpoint that is missing or failing; tools, where only the
        template-and-tokenize route is left, which cannot render them)."""
        if self.kind not in COUNTING_KINDS or any(m.get("images") for m in messages):
            return None
        sent = to_openai(messages)
        if tools and self.kind == "llama.cpp" and self._input_tokens is False:
            return None
        key = hashlib.sha256(json.dumps([model, sent, list(tools)],
                                        sort_keys=True).encode()).hexdigest()
        if key in self._counts:
            self._counts.move_to_end(key)
            return self._counts[key]
        try:
            counted = await (self._count_llama(model, sent, tools) if self.kind == "llama.cpp"
                             else self._count_vllm(model, sent, tools))
        except BackendError as exc:
            if exc.kind == "unauthorized":
                raise
            return None
        if counted is not None:
            self._counts[key] = counted
            while len(self._counts) > COUNT_CACHE:
                self._counts.popitem(last=False)
        return counted

    async def _count_llama(self, model: str, sent: list[dict[str, Any]],
                           tools: Sequence[Mapping[str, Any]] = ()) -> int | None:
        if self._input_tokens is not False:
            status, answer = await self._post_json(
                "/v1/chat/completions/input_tokens",
                {"model": model, "messages": sent, **({"tools": list(tools)} if tools else {})})
            if status == 200 and isinstance(answer, dict) and isinstance(
                    answer.get("input_tokens"), int):
                self._input_tokens = True
                return int(answer["input_tokens"])
            self._input_tokens = False  # an older build: template and tokenize instead
        if tools:
            return None
        status, templated = await self._post_json("/apply-template", {"messages": sent})
        if status != 200 or not isinstance(templated, dict) or "prompt" not in templated:
            return None
        status, tokens = await self._post_json("/tokenize", {
            "content": templated["prompt"], "add_special": True, "parse_special": True})
        if status != 200 or not isinstance(tokens, dict):
            return None
        return len(tokens.get("tokens") or [])

    async def _count_vllm(self, model: str, sent: list[dict[str, Any]],
                          tools: Sequence[Mapping[str, Any]] = ()) -> int | None:
        status, answer = await self._post_json("/tokenize", {
            "model": model, "messages": sent, "add_generation_prompt": True,
            **({"tools": list(tools)} if tools else {})})
        if status != 200 or not isinstance(answer, dict):
            return None
        window = answer.get("max_model_len")
        if isinstance(window, int) and window > 0:
            self.catalog.remember_window(model, window)
        count = answer.get("count")
        return count if isinstance(count, int) else len(answer.get("tokens") or [])

    # --------------------------------------------------------------- chatting
    async def _plan(self, model: str, messages: Messages, num_ctx: int,
                    options: Mapping[str, Any], tools: Sequence[Mapping[str, Any]] = (),
                    ) -> tuple[int, int | None, int]:
        """(max_tokens, the exact prompt count or None, the window the request must fit)."""
        try:
            served = await self.window(model)
        except BackendError as exc:
            if exc.kind in ("unauthorized", "model_not_found", "unreachable"):
                raise
            served = None
        window = min(num_ctx, served) if served else num_ctx
        exact = await (self.count(model, messages, tools) if tools
                       else self.count(model, messages))
        cap = options.get("num_predict")
        cap = int(cap) if isinstance(cap, int | float) and cap > 0 else None
        if exact is not None:
            if exact >= window:
                raise context_overflow(
                    f"{COUNTED_BEFORE_SENDING}: the request ({exact} tokens) exceeds the "
                    f"context size ({window} tokens)",
                    num_ctx=window, server=self.label, numbers=(exact, window))
            room = window - exact
        else:
            room = max(MIN_REPLY, window - rough_count(messages, tools))
        return (min(cap, room) if cap else room), exact, window

    def _body(self, model: str, messages: Messages, options: Mapping[str, Any],
              max_tokens: int, think: bool | None,
              tools: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": model, "messages": to_openai(messages), "stream": True,
            "stream_options": {"include_usage": True}, "max_tokens": int(max_tokens)}
        if tools:
            body["tools"] = [dict(tool) for tool in tools]
        for name in ("temperature", "top_p", "seed"):
            if options.get(name) is not None:
                body[name] = options[name]
        if think is False and self.kind in THINKING_SWITCH_KINDS:
            body["chat_template_kwargs"] = {"enable_thinking": False}
        return body

    async def chat_stream(self, model: str, messages: Messages, *, num_ctx: int,
                          options: Mapping[str, Any] | None = None,
                          keep_alive: str | None = None, think: bool | None = None,
                          tools: Sequence[Mapping[str, Any]] | None = None,
                          ) -> AsyncGenerator[ChatChunk | ChatDone, None]:
        """Yield ChatChunk per piece, then exactly one ChatDone; raise BackendError otherwise.

        ``num_ctx``: the chat's budget; the request fits the smaller of it and the server's
        window. ``keep_alive`` is Ollama's and ignored here. ``tools``: the entries the model
        may call; a server that refuses them raises ``tools_unsupported``.
        """
        self._check_model(model)
        options = options or {}
        tools = tools or ()
        try:
            max_tokens, exact, window = await self._plan(model, messages, int(num_ctx), options,
                                                         tools)
            body = self._body(model, messages, options, max_tokens, think, tools)
            async for event in self._stream(model, body, exact, window):
                yield event
        except (asyncio.CancelledError, GeneratorExit, BackendError):
            raise
        except Exception as exc:
            raise map_transport(exc, self.where) from exc

    async def _stream(self, model: str, body: dict[str, Any], exact: int | None,
                      window: int) -> AsyncGenerator[ChatChunk | ChatDone, None]:
        started = time.monotonic()
        first: float | None = None
        parts: list[str] = []
        thinking: list[str] = []
        usage: dict[str, Any] = {}
        timings: dict[str, Any] = {}
        finish: str | None = None
        ended = False
        calls = StreamedCalls()
        for attempt in (1, 2):
            async with self._client().stream("POST", "/v1/chat/completions",
                                             json=body) as response:
                if response.status_code != 200:
                    text = (await response.aread()).decode(errors="replace")
                    room = completion_room(parse_error(text)) if attempt == 1 else None
                    if response.status_code == 400 and room and room < body["max_tokens"]:
                        # Refused before generating (the prompt fits, the reply cap did not):
                        # safe to send again with the room the server named.
                        body = {**body, "max_tokens": room}
                        continue
                    if body.get("tools") and refuses_tools(response.status_code, text):
                        raise tools_unsupported(model, self.label, text[:300])
                    raise http_error(response.status_code, text, self.where, model=model,
                                     window=window)
                async for event in sse_events(response.aiter_lines()):
                    if event.event == "error":
                        raise stream_error(event.data, self.where, window)
                    if event.data.strip() == "[DONE]":
                        ended = True
                        break
                    payload = json.loads(event.data)
                    if not isinstance(payload, dict):
                        continue
                    if payload.get("error"):
                        raise stream_error(payload, self.where, window)
                    usage = payload.get("usage") or usage
                    timings = payload.get("timings") or timings
                    for choice in payload.get("choices") or []:
                        finish = choice.get("finish_reason") or finish
                        delta = choice.get("delta") or {}
                        calls.add(delta.get("tool_calls"))
                        text = delta.get("content") or ""
                        thought = delta.get("reasoning_content") or delta.get("reasoning") or ""
                        if text or thought:
                            first = first or time.monotonic()
                            parts.append(text)
                            thinking.append(thought)
                            yield ChatChunk(text, thought)
            break
        if not ended and finish is None:
            raise stream_cut("the stream ended without a finish reason or [DONE]", self.label)
        done = self._done(body["model"], parts, thinking, usage, timings, finish, exact,
                          started, first)
        yield dataclasses.replace(done, tool_calls=tuple(calls.calls())) if calls else done

    @staticmethod
    def _done(model: str, parts: list[str], thinking: list[str], usage: dict[str, Any],
              timings: dict[str, Any], finish: str | None, exact: int | None, started: float,
              first: float | None) -> ChatDone:
        now = time.monotonic()
        prompt = usage.get("prompt_tokens") if isinstance(usage.get("prompt_tokens"), int) \
            else exact
        details = usage.get("prompt_tokens_details") or {}
        cached = timings.get("cache_n") if isinstance(timings.get("cache_n"), int) else (
            details.get("cached_tokens") if isinstance(details, dict) else None)
        prompt_ms, predicted_ms = timings.get("prompt_ms"), timings.get("predicted_ms")
        reading = int(prompt_ms * 1e6) if isinstance(prompt_ms, int | float) else \
            int(((first or now) - started) * 1e9)
        writing = int(predicted_ms * 1e6) if isinstance(predicted_ms, int | float) else \
            int((now - (first or now)) * 1e9)
        completion = usage.get("completion_tokens")
        return ChatDone(
            content="".join(parts), prompt_eval_count=prompt,
            eval_count=completion if isinstance(completion, int) else None,
            done_reason="length" if finish == "length" else "stop",
            total_duration=int((now - started) * 1e9), prompt_eval_duration=reading,
            eval_duration=writing, model=model, thinking="".join(thinking),
            prompt_eval_cached_count=cached if isinstance(cached, int) else None)

    async def chat(self, model: str, messages: Messages, *, num_ctx: int,
                   options: Mapping[str, Any] | None = None,
                   keep_alive: str | None = None, think: bool | None = None,
                   tools: Sequence[Mapping[str, Any]] | None = None) -> ChatDone:
        """A whole reply at once (summaries), streamed underneath so a cut is detected."""
        async with contextlib.aclosing(self.chat_stream(
                model, messages, num_ctx=num_ctx, options=options, think=think,
                tools=tools)) as stream:
            async for event in stream:
                if isinstance(event, ChatDone):
                    return event
        raise stream_cut("no final chunk", self.label)  # pragma: no cover

    # ------------------------------------------------------------------ other
    async def embed(self, model: str, texts: Sequence[str]) -> list[list[float]]:
        self._check_model(model)
        async with self._short_call():
            response = await self._client().post("/v1/embeddings",
                                                 json={"model": model, "input": list(texts)})
            if response.status_code != 200:
                raise http_error(response.status_code, response.text, self.where, model=model)
            rows = response.json().get("data") or []
        rows = sorted(rows, key=lambda row: row.get("index", 0))
        return [[float(x) for x in row.get("embedding") or []] for row in rows]

    async def pull(self, model: str) -> AsyncGenerator[PullProgress, None]:
        """No OpenAI-compatible server downloads models through this API."""
        raise BackendError("invalid", f"The server at {self.host} ({self.label}) cannot "
                           "download models from here: add them on the server.")
        yield  # pragma: no cover - makes this an async generator

    async def delete(self, model: str) -> None:
        """No OpenAI-compatible server deletes models through this API."""
        raise BackendError("invalid", f"The server at {self.host} ({self.label}) cannot "
                           "delete models from here: remove them on the server.")

    async def close(self) -> None:
        if self._http is not None:
            with contextlib.suppress(Exception):
                await self._http.aclose()
            self._http = None
