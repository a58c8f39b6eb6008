"""What OpenAI-compatible servers answer when something is wrong, as one ``BackendError``.

Each server words its errors its own way: llama.cpp ``{"error": {"code", "message", "type",
"n_prompt_tokens", "n_ctx"}}``, vLLM ``{"object": "error", "message", "type", "code"}`` (newer:
inside ``"error"``), LM Studio ``{"error": "text"}``, FastAPI-based servers ``{"detail": ...}``.
An over-length prompt arrives as an HTTP 400 (llama.cpp's ``exceed_context_size_error``, vLLM's
"maximum context length is N tokens"), as an error event inside a 200 stream, or as a bare
``error:`` line; all of them become one ``context_overflow``.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass
from typing import Any

from ollm_desktop.backend.errors import (
    BackendError,
    context_overflow,
    is_context_overflow,
    model_not_found,
    stream_cut,
    unauthorized,
    unreachable,
)

# vLLM: "... maximum context length is 2048 tokens. However, you requested 2100 tokens (1900 in
# the messages, 200 in the completion)": the prompt fits, only max_tokens was too large.
_VLLM_SPLIT = re.compile(r"maximum context length is (\d+).*?\((\d+) in the messages",
                         re.IGNORECASE | re.DOTALL)


@dataclass(frozen=True, slots=True)
class ServerError:
    """One error as the server said it: the text, its type and any numbers it gave."""

    message: str
    type: str = ""
    prompt_tokens: int | None = None
    window: int | None = None


def parse_error(payload: Any) -> ServerError:
    """The message, type and counts from any of the shapes servers use (or the raw text)."""
    if isinstance(payload, str):
        try:
            payload = json.loads(payload)
        except ValueError:
            return ServerError(payload.strip()[:500])
    if not isinstance(payload, dict):
        return ServerError(str(payload)[:500])
    inner = payload.get("error", payload)
    if isinstance(inner, str):
        return ServerError(inner)
    if not isinstance(inner, dict):
        inner = payload
    message = inner.get("message") or inner.get("detail") or payload.get("detail") or ""
    if not isinstance(message, str):
        message = json.dumps(message)
    kind = str(inner.get("type") or "")
    return ServerError(message or json.dumps(payload)[:500], kind,
                       _positive(inner.get("n_prompt_tokens")), _positive(inner.get("n_ctx")))


def _positive(value: Any) -> int | None:
    return value if isinstance(value, int) and value > 0 else None


def is_overflow(error: ServerError) -> bool:
    return error.type == "exceed_context_size_error" or is_context_overflow(error.message)


def completion_room(error: ServerError) -> int | None:
    """vLLM refused prompt + max_tokens although the prompt fits: the room left for the reply
    (max_model_len minus the prompt); None for any other error."""
    match = _VLLM_SPLIT.search(error.message)
    if match is None:
        return None
    window, prompt = int(match.group(1)), int(match.group(2))
    return window - prompt if prompt < window else None


@dataclass(frozen=True, slots=True)
class Where:
    """What an error message says about where it happened."""

    host: str
    label: str
    has_key: bool = False


def http_error(status: int, body: str, where: Where, *, model: str | None = None,
               window: int | None = None) -> BackendError:
    """An HTTP error answer (before any output) as a BackendError."""
    error = parse_error(body)
    if status in (401, 403):
        return unauthorized(where.host, where.label, where.has_key, error.message, status)
    if is_overflow(error):
        return overflow(error, where, status, window)
    text = error.message.lower()
    if model and (status == 404 or ("model" in text and ("not found" in text
                                                         or "does not exist" in text))):
        return model_not_found(model, error.message, where.label, where.host)
    if status == 404:
        return BackendError("http", f"The server at {where.host} ({where.label}) does not "
                            f"offer this (HTTP 404): {error.message}", detail=error.message,
                            status_code=status)
    return BackendError("http", f"{where.label} answered with an error (HTTP {status}): "
                        f"{error.message}", detail=error.message, status_code=status)


def overflow(error: ServerError, where: Where, status: int | None = None,
             window: int | None = None) -> BackendError:
    numbers = (error.prompt_tokens, error.window) if error.prompt_tokens else None
    return context_overflow(error.message, num_ctx=window, status_code=status,
                            server=where.label, numbers=numbers)


def stream_error(payload: Any, where: Where, window: int | None = None) -> BackendError:
    """An error event or line inside a 200 stream."""
    error = parse_error(payload)
    if is_overflow(error):
        return overflow(error, where, None, window)
    return BackendError("stream_error", f"{where.label} stopped with an error while "
                        f"answering: {error.message}", detail=error.message, status_code=-1)


def map_transport(exc: BaseException, where: Where, timeout: float | None = None,
                  ) -> BackendError:
    """A failure of the connection itself (httpx, TLS, timeouts, broken JSON)."""
    if isinstance(exc, BackendError):
        return exc
    import httpx

    if isinstance(exc, httpx.TimeoutException | TimeoutError | asyncio.TimeoutError):
        after = f" within {timeout:g} seconds" if timeout else ""
        return BackendError("timeout", f"{where.label} at {where.host} did not answer{after}. "
                            "Retry?", detail=str(exc) or type(exc).__name__)
    text = str(exc)
    if "CERTIFICATE_VERIFY_FAILED" in text or "certificate verify failed" in text.lower():
        return BackendError("unreachable", f"The certificate of {where.host} could not be "
                            "verified. If the server uses a private certificate authority, "
                            "give this connection its CA file in Preferences.", detail=text)
    if isinstance(exc, httpx.ConnectError):
        return unreachable(where.host, where.label)
    if isinstance(exc, httpx.RemoteProtocolError | httpx.ReadError | httpx.WriteError
                  | ConnectionResetError | BrokenPipeError | json.JSONDecodeError):
        return stream_cut(text or type(exc).__name__, where.label)
    if isinstance(exc, httpx.UnsupportedProtocol | httpx.InvalidURL):
        return BackendError("invalid", f"The address {where.host} is not a valid URL.",
                            detail=text)
    if isinstance(exc, httpx.HTTPError | OSError):
        return unreachable(where.host, where.label)
    return BackendError("http", f"Unexpected error talking to {where.label}: {exc}",
                        detail=repr(exc))
