"""Variants of the loopback fake Ollama used only by the fault suite.

``TokenExactOllama`` reports ``eval_count`` in cl100k tokens (the base fake counts chunks), so a
model "with our tokenizer" can stream in a few big chunks. ``RawBytesOllama`` streams a reply
whose content is given as raw bytes, e.g. invalid UTF-8, which the JSON-speaking base cannot.
"""

from __future__ import annotations

from typing import Any

from ollm_desktop.engine.tokens import count_tokens
from tests.loopback_http import LoopbackServer
from tests.ollama_server import FakeOllama, Reply, StreamRecord, _Handler, _Server


class _ExactHandler(_Handler):
    _reply_tokens: int | None = None

    def _chat_stream(self, name: str, reply: Reply, pieces: list[str], prompt: int,
                     record: StreamRecord) -> None:
        self._reply_tokens = count_tokens("".join(pieces))
        super()._chat_stream(name, reply, pieces, prompt, record)

    def _chat_whole(self, name: str, reply: Reply, pieces: list[str], prompt: int,
                    record: StreamRecord) -> None:
        self._reply_tokens = count_tokens("".join(pieces))
        super()._chat_whole(name, reply, pieces, prompt, record)

    def _metrics(self, prompt: int, evals: int) -> dict[str, Any]:
        tokens = self._reply_tokens if self._reply_tokens is not None else evals
        return super()._metrics(prompt, tokens)


class _RawHandler(_Handler):
    def _chat_stream(self, name: str, reply: Reply, pieces: list[str], prompt: int,
                     record: StreamRecord) -> None:
        raw: list[bytes] = getattr(self.fake, "raw_lines", [])
        if not raw:
            super()._chat_stream(name, reply, pieces, prompt, record)
            return
        self._start_stream()
        for line in raw:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
        self._end_stream()
        record.outcome = "done"


class TokenExactOllama(FakeOllama):
    def _server(self, address: tuple[str, int]) -> LoopbackServer[Any]:
        return _Server(address, _ExactHandler, self)


class RawBytesOllama(FakeOllama):
    """While ``raw_lines`` is set, every streamed chat reply is exactly those NDJSON lines."""

    raw_lines: list[bytes]

    def __init__(self) -> None:
        super().__init__()
        self.raw_lines = []

    def _server(self, address: tuple[str, int]) -> LoopbackServer[Any]:
        return _Server(address, _RawHandler, self)
