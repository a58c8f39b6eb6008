"""The fake server itself speaks Ollama's wire format (so backend tests mean something)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import ollama
import pytest

from tests.ollama_server import FakeOllama, Reply, free_port

ROOT = Path(__file__).resolve().parent.parent


def _raw_request(port: int, body: dict[str, object]) -> bytes:
    """POST /api/chat over a bare socket; return everything the server sent until close."""
    data = json.dumps(body).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"POST /api/chat HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                     b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                     % (len(data), data))
        chunks = []
        while block := sock.recv(65536):
            chunks.append(block)
    return b"".join(chunks)


def test_stream_is_chunked_compact_ndjson() -> None:
    with FakeOllama() as fake:
        fake.script("one two")
        raw = _raw_request(fake.port, {"model": "llama3.2:3b",
                                       "messages": [{"role": "user", "content": "hi"}]})
    head, _, body = raw.partition(b"\r\n\r\n")
    assert b"Transfer-Encoding: chunked" in head
    assert b"Content-Type: application/x-ndjson" in head
    assert body.endswith(b"0\r\n\r\n")
    lines = [line for line in body.split(b"\r\n") if line.startswith(b"{")]
    assert all(b", " not in line and b": " not in line for line in lines)  # compact
    parts = [json.loads(line) for line in lines]
    assert [p["message"]["content"] for p in parts] == ["one", " two", ""]
    assert [p["done"] for p in parts] == [False, False, True]
    assert "eval_count" not in parts[0]
    assert parts[-1]["done_reason"] == "stop"
    assert parts[-1]["eval_count"] == 2
    assert parts[-1]["prompt_eval_count"] > 0


def test_sync_client_sees_models_show_and_nonstream_chat() -> None:
    with FakeOllama() as fake:
        client = ollama.Client(fake.url, trust_env=False)
        assert client.list().models[0].model == "llama3.2:3b"
        info = client.show("gemma3:270m")
        assert info.modelinfo["gemma3.context_length"] == 32768
        fake.script("whole answer here")
        reply = client.chat("llama3.2:3b", [{"role": "user", "content": "x"}], stream=False)
        assert reply.message.content == "whole answer here"
        assert reply.done and reply.eval_count == 3
        with pytest.raises(ollama.ResponseError) as caught:
            client.chat("missing", [{"role": "user", "content": "x"}])
        assert caught.value.status_code == 404
        assert "not found" in caught.value.error
        client.close()
        assert fake.requests[-1].body["stream"] is False


def test_root_and_404() -> None:
    with FakeOllama() as fake, httpx.Client(base_url=fake.url, trust_env=False) as http:
        assert http.get("/").text == "Ollama is running"
        assert http.get("/api/nothing").status_code == 404


def test_truncation_mode_caps_prompt_count_at_num_ctx() -> None:
    fake = FakeOllama()
    fake.truncate_to_num_ctx = True
    messages = [{"role": "system", "content": "rules"}] + [
        {"role": "user", "content": "word " * 100} for _ in range(5)]
    full, truncated = FakeOllama().prompt_count(messages, 250)
    kept, truncated = fake.prompt_count(messages, 250)
    assert full > 250
    assert truncated and kept <= 250
    assert kept < full


def test_stop_ends_idle_keepalive_connections_quickly() -> None:
    fake = FakeOllama().start()
    client = httpx.Client(base_url=fake.url, trust_env=False)
    assert client.get("/api/version").status_code == 200  # leaves a pooled keep-alive socket
    assert fake.stop(timeout=3) == 0
    client.close()


def test_module_runs_as_a_process() -> None:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "tests.ollama_server", "--port", str(port)],
                               cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # printed once listening
        assert f":{port}" in line
        assert httpx.get(f"http://127.0.0.1:{port}/api/version",
                         trust_env=False).json()["version"]
    finally:
        process.terminate()
        code = process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()
    assert code == 0


def test_reply_script_function_sees_the_request() -> None:
    with FakeOllama() as fake:
        fake.reply_fn = lambda request: Reply(text=request["messages"][-1]["content"].upper())
        client = ollama.Client(fake.url, trust_env=False)
        reply = client.chat("llama3.2:3b", [{"role": "user", "content": "echo me"}])
        assert reply.message.content == "ECHO ME"
        client.close()
