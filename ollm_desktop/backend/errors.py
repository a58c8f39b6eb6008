"""One exception type for everything that can go wrong talking to a server (Ollama or an
OpenAI-compatible one).

The ollama client and httpx raise a zoo of exceptions (builtin ``ConnectionError`` for plain
calls but raw ``httpx.ConnectError`` for streams, ``ResponseError`` with ``status_code == -1``
for an error line mid-stream, ...). The UI needs a small set of kinds it can react to and a
sentence it can show, so they are folded here in one place.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Literal

ErrorKind = Literal[
    "unreachable", "model_not_found", "http", "stream_error", "stream_cut", "timeout", "invalid",
    "context_overflow", "unauthorized", "tools_unsupported",
]
# The prompt is longer than num_ctx and the request said ``truncate: false``: Ollama refused it
# instead of silently dropping the oldest messages. The controller fits and retries once.
CONTEXT_OVERFLOW: ErrorKind = "context_overflow"

# Integers that stand alone (not part of a model name such as "llama3.2:3b" or "qwen2.5").
_NUMBER = re.compile(r"(?<![\w.])(?<!\d,)(?:\d{1,3}(?:,\d{3})+|\d+)(?![\w.]|,\d)")


class BackendError(Exception):
    """A failed Ollama call: ``kind`` drives the UI's reaction, ``message`` is shown as is."""

    def __init__(self, kind: ErrorKind, message: str, *, detail: str | None = None,
                 status_code: int | None = None, prompt_tokens: int | None = None,
                 num_ctx: int | None = None) -> None:
        super().__init__(message)
        self.kind: ErrorKind = kind
        self.message = message
        self.detail = detail  # the raw error text, for logs
        self.status_code = status_code
        # context_overflow only: the model's count of the refused prompt and the window, when
        # the server's message names them (Ollama's own wording does not; llama.cpp's does).
        self.prompt_tokens = prompt_tokens
        self.num_ctx = num_ctx

    def __repr__(self) -> str:
        return f"BackendError({self.kind!r}, {self.message!r})"


def tools_unsupported(model: str, server: str, detail: str | None = None) -> BackendError:
    """A server that refused a request for carrying tools: the chat sends none after this."""
    return BackendError("tools_unsupported", f"{model} on {server} cannot use tools: the "
                        "server refused them. This chat goes on without tools.", detail=detail,
                        status_code=400)


def unreachable(host: str, server: str = "Ollama") -> BackendError:
    hint = "Start it with `ollama serve`, then Retry." if server == "Ollama" else (
        "Check the address and that the server runs, then Retry.")
    return BackendError("unreachable", f"{server} is not reachable at {host}. {hint}")


def model_not_found(model: str, detail: str | None = None, server: str = "Ollama",
                    host: str = "") -> BackendError:
    text = (f"The model '{model}' is not installed. Pull it?" if server == "Ollama" else
            f"The server at {host} ({server}) has no model '{model}'. Choose one it "
            "serves.")
    return BackendError("model_not_found", text, detail=detail, status_code=404)


def unauthorized(host: str, server: str, has_key: bool, detail: str | None = None,
                 status_code: int = 401) -> BackendError:
    """HTTP 401/403: the server wants an API key, or another one."""
    if has_key:
        text = (f"The server at {host} ({server}) refused the API key (HTTP {status_code}). "
                "Enter the right key for this connection in Preferences.")
    else:
        text = (f"The server at {host} ({server}) wants an API key (HTTP {status_code}). Add "
                "it to this connection in Preferences, or start the app with --api-key-env "
                "NAME.")
    return BackendError("unauthorized", text, detail=detail, status_code=status_code)


def stream_cut(detail: str | None = None, server: str = "Ollama") -> BackendError:
    return BackendError(
        "stream_cut",
        f"The connection to {server} broke before the reply was complete. Retry?",
        detail=detail,
    )


def is_context_overflow(error: str) -> bool:
    """Does a server error say the prompt is longer than the context? (Matched loosely.)

    Ollama: "the input length exceeds the context length"; llama.cpp: "the request exceeds the
    available context size"; others say "prompt is too long" or "too many tokens".
    """
    text = error.lower()
    about_input = any(word in text for word in ("context", "input", "prompt", "token",
                                                "request"))
    too_big = any(word in text for word in ("exceed", "too long", "too large", "too many",
                                            "larger than", "context length", "input length"))
    return about_input and too_big


def overflow_numbers(error: str, num_ctx: int | None = None) -> tuple[int | None, int | None]:
    """(prompt tokens, num_ctx) named in an overflow message; None where it names none.

    A refused prompt is by definition larger than the window, so of two numbers the larger is
    the prompt; a single number is the prompt only when it is above the ``num_ctx`` we sent.
    """
    numbers = [int(n.replace(",", "")) for n in _NUMBER.findall(error)]
    numbers = [n for n in numbers if n > 0]
    if num_ctx and num_ctx in numbers:
        above = [n for n in numbers if n > num_ctx]
        return (max(above) if above else None), num_ctx
    if len(numbers) >= 2 and max(numbers) > min(numbers):
        return max(numbers), min(numbers)
    if len(numbers) == 1 and num_ctx and numbers[0] > num_ctx:
        return numbers[0], num_ctx
    return None, num_ctx


def context_overflow(error: str, *, num_ctx: int | None = None,
                     status_code: int | None = None, server: str = "Ollama",
                     numbers: tuple[int | None, int | None] | None = None) -> BackendError:
    """``numbers``: (prompt tokens, window) when the server gave them as fields."""
    prompt, window = numbers if numbers and numbers[0] else overflow_numbers(error, num_ctx)
    if prompt and window:
        size = f" ({prompt:,} tokens for a context of {window:,})"
    elif window:
        size = f" (the context holds {window:,} tokens)"
    else:
        size = ""
    return BackendError(
        CONTEXT_OVERFLOW,
        f"The conversation is longer than the model's context{size}, so {server} refused it.",
        detail=error, status_code=status_code, prompt_tokens=prompt, num_ctx=window)


def _is_not_found(error: str) -> bool:
    text = error.lower()
    return "not found" in text or "file does not exist" in text


def map_exception(exc: BaseException, *, host: str, model: str | None = None,
                  timeout: float | None = None, num_ctx: int | None = None) -> BackendError:
    """Translate any exception raised by an ollama/httpx call into a :class:`BackendError`.

    Order matters: ``httpx.ConnectTimeout`` is both a timeout and a connect failure (timeout
    wins), and builtin ``ConnectionResetError`` is a ``ConnectionError`` that means the stream
    was cut, not that the server is down.
    """
    if isinstance(exc, BackendError):
        return exc
    import httpx  # loaded by then: only a call through the client raises what is mapped here
    import ollama
    import pydantic

    if isinstance(exc, ollama.ResponseError):
        error = str(exc.error)
        status = exc.status_code
        if status == -1:
            if model and _is_not_found(error):
                return model_not_found(model, error)
            return BackendError("stream_error",
                                f"Ollama stopped with an error while answering: {error}",
                                detail=error, status_code=status)
        if status == 404 or (status >= 400 and _is_not_found(error) and model):
            return model_not_found(model or "?", error)
        if status >= 400 and is_context_overflow(error):
            return context_overflow(error, num_ctx=num_ctx, status_code=status)
        return BackendError("http", f"Ollama answered with an error (HTTP {status}): {error}",
                            detail=error, status_code=status)
    if isinstance(exc, httpx.TimeoutException | TimeoutError | asyncio.TimeoutError):
        after = f" within {timeout:g} seconds" if timeout else ""
        return BackendError("timeout", f"Ollama at {host} did not answer{after}. Retry?",
                            detail=str(exc) or type(exc).__name__)
    if isinstance(exc, httpx.ConnectError):
        return unreachable(host)
    if isinstance(exc, httpx.RemoteProtocolError | httpx.ReadError | httpx.WriteError
                  | ConnectionResetError | BrokenPipeError | json.JSONDecodeError):
        return stream_cut(str(exc) or type(exc).__name__)
    if isinstance(exc, ConnectionError):  # the ollama client's wrapper of httpx.ConnectError
        return unreachable(host)
    if isinstance(exc, httpx.UnsupportedProtocol | httpx.InvalidURL):
        return BackendError("invalid", f"The Ollama address {host} is not a valid URL.",
                            detail=str(exc))
    if isinstance(exc, pydantic.ValidationError):
        if model is not None and not model.strip():
            return BackendError("invalid", "Choose a model first.", detail=str(exc))
        return BackendError("invalid", f"Ollama sent or was sent malformed data: {exc}",
                            detail=str(exc))
    if isinstance(exc, httpx.HTTPError | OSError):
        return unreachable(host)
    return BackendError("http", f"Unexpected error talking to Ollama: {exc}", detail=repr(exc))
