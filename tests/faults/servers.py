"""Variants of the loopback fake Ollama used only by the fault suite.

``TokenExactOllama`` reports ``eval_count`` in cl100k tokens (the base fake counts chunks), so a
model "with our tokenizer" can stream in a few big chunks. ``RawBytesOllama`` streams a reply
whose content is given as raw bytes, e.g. invalid UTF-8, which the JSON-speaking base cannot.
"""

from __future__ import annotations

import threading
from typing import Any

from ollm_desktop.engine.tokens import count_tokens
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


def _serve(fake: FakeOllama, handler: type[_Handler], port: int, host: str) -> None:
    fake._httpd = _Server((host, port), handler, fake)
    fake._thread = threading.Thread(target=fake._httpd.serve_forever,
                                    kwargs={"poll_interval": 0.05}, name="fake-ollama",
                                    daemon=True)
    fake._thread.start()


class TokenExactOllama(FakeOllama):
    def start(self, port: int = 0, host: str = "127.0.0.1") -> TokenExactOllama:
        _serve(self, _ExactHandler, port, host)
        return self


class RawBytesOllama(FakeOllama):
    """While ``raw_lines`` is set, every streamed chat reply is exactly those NDJSON lines."""

    raw_lines: list[bytes]

    def __init__(self) -> None:
        super().__init__()
        self.raw_lines = []

    def start(self, port: int = 0, host: str = "127.0.0.1") -> RawBytesOllama:
        _serve(self, _RawHandler, port, host)
        return self
