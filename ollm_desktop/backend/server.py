"""One call that turns a connection into a :class:`ChatServer` the session can use.

A connection of known kind gets its module's client at once; one whose kind is not known yet
(``--host URL``, a new connection) gets a :class:`ProbingServer`, which asks the address what
it is on first use (``probe``) and from then on passes every call to that kind's client. The
session never needs to know which it holds.
"""

from __future__ import annotations

import contextlib
import urllib.parse
from collections.abc import AsyncGenerator, Callable, Mapping, Sequence
from typing import Any

from ollm_desktop.backend.client import DEFAULT_PORT, OllamaBackend
from ollm_desktop.backend.connection import Connection
from ollm_desktop.backend.models import ChatChunk, ChatDone, ModelDetails, ModelInfo, PullProgress
from ollm_desktop.backend.openai_compat import OpenAICompatServer
from ollm_desktop.backend.probe import probe
from ollm_desktop.backend.protocol import ChatServer, Messages, ServerActions, ServerKind

OnProbed = Callable[[ServerKind], None]


def open_server(connection: Connection, *, api_key: str | None = None, timeout: float = 10.0,
                keep_alive: str | None = "10m", on_probed: OnProbed | None = None,
                ) -> ChatServer:
    """The client for ``connection`` (``api_key``: from the keyring or the environment)."""
    if connection.kind is None:
        return ProbingServer(connection, api_key=api_key, timeout=timeout,
                             keep_alive=keep_alive, on_probed=on_probed)
    return _client(connection, connection.kind, connection.url, api_key, timeout, keep_alive)


def _client(connection: Connection, kind: ServerKind, url: str, api_key: str | None,
            timeout: float, keep_alive: str | None) -> ChatServer:
    if kind == "ollama":
        return OllamaBackend(url or None, timeout=timeout, keep_alive=keep_alive)
    return OpenAICompatServer(url, kind, api_key=api_key, ca_file=connection.ca_file,
                              timeout=timeout, window=connection.window)


class ProbingServer:
    """A server of unknown kind: probed on first use, then every call goes to its client.

    A failed probe (down, refused key) raises and is tried again on the next call.
    """

    def __init__(self, connection: Connection, *, api_key: str | None, timeout: float,
                 keep_alive: str | None, on_probed: OnProbed | None = None) -> None:
        self._connection = connection
        self._api_key = api_key
        self._timeout = timeout
        self._keep_alive = keep_alive
        self._on_probed = on_probed
        self._inner: ChatServer | None = None
        # Shown before the probe: Ollama's resolved form for a bare "host:port"-like address.
        self.host = OllamaBackend.resolve_host(connection.url or None)

    @property
    def label(self) -> str:
        return self._inner.label if self._inner is not None else "The server"

    @property
    def actions(self) -> ServerActions:
        """Before the probe: Ollama's actions when the address looks like Ollama's (its port),
        so "Start Ollama" is offered for a local Ollama that is not running yet."""
        if self._inner is not None:
            return self._inner.actions
        port = urllib.parse.urlsplit(self.host).port
        looks_ollama = port == DEFAULT_PORT
        return ServerActions(pull=looks_ollama, start=looks_ollama, sets_window=looks_ollama,
                             delete=looks_ollama)

    async def server(self) -> ChatServer:
        if self._inner is None:
            found = await probe(self.host, api_key=self._api_key,
                                ca_file=self._connection.ca_file, timeout=self._timeout)
            url = self.host if found.kind == "ollama" else found.root
            self._inner = _client(self._connection, found.kind, url, self._api_key,
                                  self._timeout, self._keep_alive)
            self.host = self._inner.host
            if self._on_probed is not None:
                self._on_probed(found.kind)
        return self._inner

    async def version(self) -> str:
        return await (await self.server()).version()

    async def list_models(self) -> list[ModelInfo]:
        return await (await self.server()).list_models()

    async def show(self, model: str) -> ModelDetails:
        return await (await self.server()).show(model)

    async def chat_stream(self, model: str, messages: Messages, *, num_ctx: int,
                          options: Mapping[str, Any] | None = None,
                          keep_alive: str | None = None, think: bool | None = None,
                          tools: Sequence[Mapping[str, Any]] | None = None,
                          ) -> AsyncGenerator[ChatChunk | ChatDone, None]:
        server = await self.server()
        async with contextlib.aclosing(server.chat_stream(
                model, messages, num_ctx=num_ctx, options=options, keep_alive=keep_alive,
                think=think, tools=tools)) as stream:
            async for event in stream:
                yield event

    async def chat(self, model: str, messages: Messages, *, num_ctx: int,
                   options: Mapping[str, Any] | None = None, keep_alive: str | None = None,
                   think: bool | None = None,
                   tools: Sequence[Mapping[str, Any]] | None = None) -> ChatDone:
        return await (await self.server()).chat(model, messages, num_ctx=num_ctx,
                                                options=options, keep_alive=keep_alive,
                                                think=think, tools=tools)

    async def count(self, model: str, messages: Messages) -> int | None:
        return await (await self.server()).count(model, messages)

    async def window(self, model: str) -> int | None:
        return await (await self.server()).window(model)

    async def embed(self, model: str, texts: Sequence[str]) -> list[list[float]]:
        return await (await self.server()).embed(model, texts)

    async def pull(self, model: str) -> AsyncGenerator[PullProgress, None]:
        server = await self.server()
        async with contextlib.aclosing(server.pull(model)) as stream:
            async for progress in stream:
                yield progress

    async def delete(self, model: str) -> None:
        await (await self.server()).delete(model)

    async def close(self) -> None:
        if self._inner is not None:
            await self._inner.close()
