"""map_exception: every client/transport failure lands in one user-facing kind."""

from __future__ import annotations

import json

import httpx
import ollama
import pydantic
import pytest

from ollm_desktop.backend import CONTEXT_OVERFLOW, BackendError
from ollm_desktop.backend.errors import map_exception, overflow_numbers

HOST = "http://127.0.0.1:11434"


def _validation_error() -> pydantic.ValidationError:
    try:
        ollama._types.ChatRequest(model="", messages=[])
    except pydantic.ValidationError as exc:
        return exc
    raise AssertionError("the client accepted an empty model name")


def _json_error() -> json.JSONDecodeError:
    try:
        json.loads('{"model":')
    except json.JSONDecodeError as exc:
        return exc
    raise AssertionError("unreachable")


@pytest.mark.parametrize(("exc", "kind"), [
    (ConnectionError("Failed to connect to Ollama"), "unreachable"),
    (httpx.ConnectError("refused"), "unreachable"),
    (ollama.ResponseError('{"error":"model \'x\' not found"}', 404), "model_not_found"),
    (ollama.ResponseError("model 'x' not found, try pulling it first", 400), "model_not_found"),
    (ollama.ResponseError("out of memory", 500), "http"),
    (ollama.ResponseError("bad request", 400), "http"),
    (ollama.ResponseError("runner crashed"), "stream_error"),
    (httpx.RemoteProtocolError("incomplete chunked read"), "stream_cut"),
    (httpx.ReadError("reset"), "stream_cut"),
    (ConnectionResetError("reset by peer"), "stream_cut"),
    (_json_error(), "stream_cut"),
    (httpx.ReadTimeout("slow"), "timeout"),
    (httpx.ConnectTimeout("slow"), "timeout"),
    (TimeoutError(), "timeout"),
    (_validation_error(), "invalid"),
    (httpx.UnsupportedProtocol("ftp://"), "invalid"),
])
def test_kinds(exc: BaseException, kind: str) -> None:
    error = map_exception(exc, host=HOST, model="x", timeout=10)
    assert isinstance(error, BackendError)
    assert error.kind == kind
    assert error.message and error.message[0].isupper()  # a sentence, not a repr


def test_messages_name_what_the_user_can_act_on() -> None:
    down = map_exception(ConnectionError(), host=HOST)
    assert down.message == (f"Ollama is not reachable at {HOST}. "
                            "Start it with `ollama serve`, then Retry.")
    missing = map_exception(ollama.ResponseError("not found", 404), host=HOST, model="qwen3:8b")
    assert missing.message == "The model 'qwen3:8b' is not installed. Pull it?"
    slow = map_exception(httpx.ReadTimeout("x"), host=HOST, timeout=2.5)
    assert "2.5 seconds" in slow.message and HOST in slow.message
    server = map_exception(ollama.ResponseError('{"error":"no space left"}', 500), host=HOST)
    assert "HTTP 500" in server.message and "no space left" in server.message
    assert server.status_code == 500


def test_backend_errors_pass_through() -> None:
    original = BackendError("stream_cut", "Cut.")
    assert map_exception(original, host=HOST) is original
    assert str(original) == "Cut."


@pytest.mark.parametrize(("error", "prompt", "window"), [
    ("the input length exceeds the context length", None, 4096),
    ("the request exceeds the available context size (4,096 tokens), try increasing it",
     None, 4096),
    ("request (5,120 tokens) exceeds the available context size (4,096 tokens)", 5120, 4096),
    ('{"error":"prompt is too long for qwen2.5:3b: 5120 tokens, num_ctx 4096"}', 5120, 4096),
    ("input length 5120, exceeds the context length", 5120, 4096),
])
def test_an_over_length_prompt_is_a_context_overflow_with_its_numbers(
        error: str, prompt: int | None, window: int) -> None:
    mapped = map_exception(ollama.ResponseError(error, 400), host=HOST, model="qwen2.5:3b",
                           num_ctx=4096)
    assert mapped.kind == "context_overflow" == CONTEXT_OVERFLOW
    assert (mapped.prompt_tokens, mapped.num_ctx) == (prompt, window)
    assert mapped.status_code == 400
    assert mapped.message[0].isupper() and "context" in mapped.message
    assert mapped.detail == (json.loads(error)["error"] if error.startswith("{") else error)


@pytest.mark.parametrize("error", ["bad request", "model requires more system memory (5.2 GiB) "
                                   "than is available (3 GiB)", "invalid options"])
def test_other_client_errors_are_not_overflows(error: str) -> None:
    assert map_exception(ollama.ResponseError(error, 400), host=HOST,
                         num_ctx=4096).kind == "http"


def test_overflow_numbers_without_the_window_we_sent() -> None:
    assert overflow_numbers("request (9,000 tokens) exceeds the context (8,192 tokens)") == (
        9000, 8192)
    assert overflow_numbers("the input length exceeds the context length") == (None, None)
    assert overflow_numbers("llama3.2:3b: 9000 > 8192", 8192) == (9000, 8192)
