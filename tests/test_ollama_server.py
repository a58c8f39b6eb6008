"""The fake server itself speaks Ollama's wire format (so backend tests mean something)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import ollama
import pytest

from tests.ollama_server import (
    INPUT_TOO_LONG,
    PER_MESSAGE,
    PER_REQUEST,
    FakeOllama,
    LlamaCppBackend,
    Reply,
    free_port,
    llama_cpp_model,
    model_tokens,
)

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


# ----------------------------------------------------------- realistic prompt counts
SAMPLE = """I looked at the deployment logs from last night and the migration step timed out again
after about 45 seconds. Could you check whether the connection pool is exhausted, or whether the
lock on the ledger table is held by the nightly reconciliation job? We need this fixed before
Friday's release.

Sure. The timeout comes from the advisory lock: the nightly job acquires it at 02:00 and holds it
for the whole run, so the migration waits until statement_timeout kills it. I would split the job
into batches of 5,000 rows and release the lock between batches. That keeps the migration's wait
under a second and doesn't change the job's results.

```python
def reconcile_ledger_entries(session, batch_size=5000):
    \"\"\"Reconcile in batches so the advisory lock is released between them.\"\"\"
    offset = 0
    while True:
        rows = session.execute(
            select(Ledger).order_by(Ledger.id).offset(offset).limit(batch_size)
        ).scalars().all()
        if not rows:
            break
        for row in rows:
            row.balance = compute_balance(row)
        session.commit()
        offset += batch_size
```

Only one setting: set `pool_size: 20` and `max_overflow: 10` in config/settings.yaml so the
batches don't starve the web workers. I'd ship it as v2.14.3 now; it is a contained change, and
the release notes can mention that the nightly run takes roughly 10% longer.
"""


def test_model_counter_is_about_1_2x_cl100k_on_chat_text() -> None:
    from ollm_desktop.engine.tokens import count_tokens

    ratio = model_tokens(SAMPLE) / count_tokens(SAMPLE)
    assert 1.1 <= ratio <= 1.35, ratio
    prose = SAMPLE.split("```")[0]
    assert 1.1 <= model_tokens(prose) / count_tokens(prose) <= 1.35


def test_prompt_count_adds_template_overhead_per_message_and_request() -> None:
    fake = FakeOllama()
    empty = [{"role": "user", "content": ""}] * 3
    assert fake.prompt_count(empty, None) == (3 * PER_MESSAGE + PER_REQUEST, False)
    fake.per_message, fake.per_request = 8, 16
    assert fake.prompt_count(empty, None) == (3 * 8 + 16, False)
    fake.prompt_scale = 2.0
    assert fake.prompt_count(empty, None) == (2 * (3 * 8 + 16), False)
    fake.counter = "words"  # the legacy count: word pieces + 4 per message, nothing per request
    fake.prompt_scale = 1.0
    words = [{"role": "user", "content": "two words"}]
    assert fake.prompt_count(words, None) == (2 + 4, False)


def _post_chat(fake: FakeOllama, body: dict[str, object]) -> httpx.Response:
    return httpx.post(f"{fake.url}/api/chat", json=body, trust_env=False, timeout=10)


def test_truncate_false_over_num_ctx_is_refused_like_ollama() -> None:
    long_text = "word " * 400
    body: dict[str, object] = {"model": "llama3.2:3b", "stream": False,
                               "messages": [{"role": "user", "content": long_text}],
                               "options": {"num_ctx": 256}}
    with FakeOllama() as fake:
        fake.script("kept for the retry")
        refused = _post_chat(fake, {**body, "truncate": False})
        assert refused.status_code == 400
        assert refused.json() == {"error": INPUT_TOO_LONG}
        assert [(r.prompt_tokens, r.num_ctx) for r in fake.rejected] == [
            (400 + PER_MESSAGE + PER_REQUEST, 256)]
        assert fake.streams == []  # nothing generated, the scripted reply is still queued
        fitting = _post_chat(fake, {**body, "truncate": False,
                                    "messages": [{"role": "user", "content": "short"}]})
        assert fitting.status_code == 200
        assert fitting.json()["message"]["content"] == "kept for the retry"
        # Without truncate: false the prompt is accepted (Ollama cuts it silently).
        fake.truncate_to_num_ctx = True
        cut = _post_chat(fake, body)
        assert cut.status_code == 200
        assert cut.json()["prompt_eval_count"] <= 256
        assert len(fake.rejected) == 1


def test_num_predict_cuts_the_reply_and_says_length() -> None:
    with FakeOllama() as fake:
        fake.script("one two three four five six", "one two three")
        reply = _post_chat(fake, {"model": "llama3.2:3b", "stream": False,
                                  "messages": [{"role": "user", "content": "x"}],
                                  "options": {"num_predict": 3}}).json()
        assert reply["message"]["content"] == "one two three"
        assert (reply["done_reason"], reply["eval_count"]) == ("length", 3)
        assert fake.streams[-1].num_predict == 3
        client = ollama.Client(fake.url, trust_env=False)
        parts = list(client.chat("llama3.2:3b", [{"role": "user", "content": "x"}],
                                 options={"num_predict": 5}, stream=True))
        client.close()
        assert parts[-1].done_reason == "stop"  # shorter than the limit: not cut
        assert "".join(p.message.content or "" for p in parts) == "one two three"


# ------------------------------------------------------------------ llama.cpp adapter
class _FakeLlamaCpp(BaseHTTPRequestHandler):
    """llama.cpp's server, as far as the adapter uses it: a token is a word."""

    protocol_version = "HTTP/1.1"
    calls: list[tuple[str, dict[str, object]]] = []

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _send(self, status: int, payload: object) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.calls.append((self.path, body))
        if self.path == "/apply-template":
            prompt = " ".join(f"<|{m['role']}|> {m['content']}" for m in body["messages"])
            self._send(200, {"prompt": prompt + " <|assistant|>"})
        elif self.path == "/tokenize":
            self._send(200, {"tokens": list(range(len(body["content"].split())))})
        elif self.path == "/v1/chat/completions":
            prompt = sum(len(m["content"].split()) + 1 for m in body["messages"]) + 1
            words = ["alpha", " beta", " gamma", " delta"][: body.get("max_tokens", 4)]
            finish = "length" if body.get("max_tokens", 99) <= len(words) else "stop"
            usage = {"prompt_tokens": prompt, "completion_tokens": len(words)}
            if not body.get("stream"):
                self._send(200, {"choices": [{"message": {"content": "".join(words)},
                                              "finish_reason": finish}], "usage": usage})
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            events = [{"choices": [{"delta": {"content": w}, "finish_reason": None}]}
                      for w in words]
            events.append({"choices": [{"delta": {}, "finish_reason": finish}]})
            events.append({"choices": [], "usage": usage})
            for event in events:
                self.wfile.write(b"data: " + json.dumps(event).encode() + b"\n\n")
            self.wfile.write(b"data: [DONE]\n\n")
            self.close_connection = True
        else:
            self._send(404, {"error": "not found"})


@pytest.fixture
def llama_adapter() -> Iterator[tuple[FakeOllama, list[tuple[str, dict[str, object]]]]]:
    upstream = ThreadingHTTPServer(("127.0.0.1", 0), _FakeLlamaCpp)
    _FakeLlamaCpp.calls = []
    thread = threading.Thread(target=upstream.serve_forever, daemon=True)
    thread.start()
    fake = FakeOllama([llama_cpp_model("smollm2:135m", 8192)])
    fake.llama_cpp = LlamaCppBackend(f"http://127.0.0.1:{upstream.server_address[1]}")
    fake.start()
    try:
        yield fake, _FakeLlamaCpp.calls
    finally:
        fake.stop()
        fake.llama_cpp.close()
        upstream.shutdown()
        upstream.server_close()


def test_adapter_forwards_chat_and_reports_llama_cpp_counts(llama_adapter) -> None:
    fake, calls = llama_adapter
    client = ollama.Client(fake.url, trust_env=False)
    messages = [{"role": "system", "content": "be brief"},
                {"role": "user", "content": "three words here"}]
    reply = client.chat("smollm2:135m", messages, stream=False,
                        options={"num_ctx": 2048, "num_predict": 2, "temperature": 0.1,
                                 "seed": 7, "top_p": 0.5})
    forwarded = next(body for path, body in calls if path == "/v1/chat/completions")
    assert forwarded["max_tokens"] == 2
    assert (forwarded["temperature"], forwarded["seed"], forwarded["top_p"]) == (0.1, 7, 0.5)
    assert forwarded["messages"] == messages and forwarded["stream"] is False
    assert reply.message.content == "alpha beta"
    assert (reply.prompt_eval_count, reply.eval_count) == ((2 + 1) + (3 + 1) + 1, 2)
    assert reply.done_reason == "length"
    assert reply.total_duration is not None and reply.total_duration > 0
    parts = list(client.chat("smollm2:135m", messages, stream=True, options={"num_ctx": 2048}))
    assert [p.message.content for p in parts[:-1]] == ["alpha", " beta", " gamma", " delta"]
    assert parts[-1].done and parts[-1].prompt_eval_count == 8 and parts[-1].eval_count == 4
    assert parts[-1].done_reason == "stop"
    stream_body = [body for path, body in calls if path == "/v1/chat/completions"][-1]
    # Without num_predict the reply may fill the window, no more (Ollama with shift: false)
    assert stream_body["stream"] is True and 0 < stream_body["max_tokens"] < 2048
    client.close()


def test_adapter_refuses_or_cuts_a_prompt_over_num_ctx(llama_adapter) -> None:
    fake, calls = llama_adapter
    messages = [{"role": "system", "content": "rules"}] + [
        {"role": "user", "content": f"message {i} " + "word " * 30} for i in range(6)]
    body: dict[str, object] = {"model": "smollm2:135m", "messages": messages, "stream": False,
                               "options": {"num_ctx": 100}}
    refused = _post_chat(fake, {**body, "truncate": False})
    assert refused.status_code == 400 and refused.json() == {"error": INPUT_TOO_LONG}
    assert fake.rejected[-1].num_ctx == 100 and fake.rejected[-1].prompt_tokens > 100
    assert not any(path == "/v1/chat/completions" for path, _ in calls)
    cut = _post_chat(fake, body)  # Ollama's default: drop the oldest, keep system and the last
    assert cut.status_code == 200
    forwarded = [b for path, b in calls if path == "/v1/chat/completions"][-1]["messages"]
    assert forwarded[0]["content"] == "rules"
    assert forwarded[-1]["content"].startswith("message 5")
    assert len(forwarded) < len(messages)
    assert fake.streams[-1].truncated


def test_adapter_lists_the_model_with_its_context_and_size(llama_adapter) -> None:
    fake, _ = llama_adapter
    client = ollama.Client(fake.url, trust_env=False)
    listed = client.list().models
    assert [m.model for m in listed] == ["smollm2:135m"]
    assert listed[0].details is not None and listed[0].details.parameter_size == "135M"
    info = client.show("smollm2:135m")
    assert info.modelinfo["llama.context_length"] == 8192
    assert info.modelinfo["general.parameter_count"] == 135_000_000
    client.close()
