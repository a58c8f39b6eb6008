"""The memory benchmark talks to OpenAI-compatible servers directly (issue 24, its benchmark point).

Against the loopback stand-in (``tests.openai_server``, which counts with its own tokenizer):
the host's kind is found by asking, counts come from the server, ``max_tokens`` is always set,
and a prompt over the window is an ``Overflow`` (refused before sending where the server counts,
else by the server in each of its shapes), never a silent cut. A short run of the benchmark and
of ``--app`` pointed at the stand-in closes the loop. Loopback only; no sleeps.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.memory import cli, loopback
from bench.memory.host import Host, Overflow
from bench.memory.openai_host import Counts, OpenAIServer, api_root, detect
from bench.memory.relay import Relay
from tests.ollama_server import INPUT_TOO_LONG, FakeOllama
from tests.openai_server import FakeOpenAI, ServedModel, prompt_tokens

MODEL = "smollm2-135m"
SHORT = [{"role": "system", "content": "You are brief."},
         {"role": "user", "content": "Name one colour."}]
LONG = [{"role": "user", "content": "lorem ipsum dolor sit amet " * 150}]  # ~1,000 tokens


def _fake(flavour: str = "llama.cpp", window: int = 2048) -> FakeOpenAI:
    return FakeOpenAI(flavour, [ServedModel(MODEL, window=window)])


@pytest.fixture
def llama() -> Iterator[FakeOpenAI]:
    fake = _fake().start()
    try:
        yield fake
    finally:
        assert fake.stop() == 0


def _chat(url: str, messages: list[dict[str, Any]], *, num_ctx: int = 2048,
          num_predict: int | None = 8) -> tuple[Any, Host]:
    async def go() -> tuple[Any, Host]:
        host = Host(url, MODEL)
        try:
            return await host.chat(messages, num_ctx=num_ctx, num_predict=num_predict), host
        finally:
            await host.close()
    return asyncio.run(go())


def _counts(host: Host) -> Counts:
    return host.counts[""]


# ------------------------------------------------------------------------- the kind
@pytest.mark.parametrize(("flavour", "kind"), [("llama.cpp", "llama.cpp"), ("vllm", "vllm"),
                                               ("lmstudio", "lmstudio"), ("generic", "openai")])
def test_the_kind_is_found_by_asking_with_or_without_v1(flavour, kind):
    with _fake(flavour) as fake:
        assert detect(fake.url) == kind
        assert detect(fake.url + "/v1/") == kind
        if flavour == "llama.cpp":  # asked before /tokenize could make it look like vLLM
            assert fake.paths()[:2] == ["/api/version", "/props"]


def test_ollama_is_asked_first_and_keeps_its_own_api():
    with FakeOllama() as fake:
        assert detect(fake.url + "/v1") == "ollama"
    assert api_root("http://h:8000/v1/chat/completions") == "http://h:8000"
    assert api_root("127.0.0.1:8096/") == "http://127.0.0.1:8096"


# ------------------------------------------------------------------- chat and counts
def test_a_chat_counts_with_the_server_and_always_sets_max_tokens(llama):
    answer, host = _chat(llama.url + "/v1", SHORT)
    served = llama.streams[-1]
    assert answer.prompt_eval_count == served.prompt_tokens == prompt_tokens(SHORT)
    assert answer.eval_count == served.sent and answer.content
    body = llama.chat_requests()[-1]
    assert body["max_tokens"] == 8 and "truncate_prompt_tokens" not in body
    assert body["stream_options"] == {"include_usage": True}
    assert {"/apply-template", "/tokenize"} <= set(llama.paths())
    assert _counts(host) == Counts(requests=1, counted=1, usage_reported=1)


def test_without_a_reply_cap_max_tokens_is_the_room_left(llama):
    _chat(llama.url, SHORT, num_ctx=4096, num_predict=None)
    assert llama.chat_requests()[-1]["max_tokens"] == 2048 - prompt_tokens(SHORT)


def test_models_and_the_window_come_from_the_server():
    async def ask(url: str) -> tuple[list[str], int | None]:
        host = Host(url, MODEL)
        try:
            return await host.models(), await host.context_length()
        finally:
            await host.close()

    for flavour, window in (("llama.cpp", 2048), ("vllm", 2048), ("generic", None)):
        with _fake(flavour) as fake:
            assert asyncio.run(ask(fake.url)) == ([MODEL], window), flavour


# --------------------------------------------------------------------- over-length
def test_a_prompt_over_the_window_is_refused_before_it_is_sent(llama):
    with pytest.raises(Overflow, match="refused before sending"):
        _chat(llama.url, LONG, num_ctx=512)  # the chat's size rules when it is smaller
    assert llama.chat_requests() == [] and llama.refusals == []


def test_the_servers_window_rules_when_it_is_smaller_than_the_chats():
    with _fake(window=512) as fake:
        server = OpenAIServer(fake.url, "llama.cpp")
        counts = Counts()
        with pytest.raises(Overflow):
            server.complete(MODEL, LONG, num_ctx=8192, num_predict=8, seed=1, counts=counts)
        server.close()
        assert counts.refused_before_sending == 1 and fake.chat_requests() == []


@pytest.mark.parametrize("shape", [None, "event", "line"])
def test_each_llama_cpp_overflow_shape_from_the_server_is_an_overflow(shape):
    with _fake(window=512) as fake:
        fake.counting, fake.overflow_in_stream = False, shape  # nothing counts before sending
        server = OpenAIServer(fake.url, "llama.cpp")
        counts = Counts()
        with pytest.raises(Overflow):
            server.complete(MODEL, LONG, num_ctx=512, num_predict=8, seed=1, counts=counts)
        server.close()
        assert fake.refusals and counts.server_overflows == 1


def test_vllms_maximum_context_length_is_an_overflow_and_a_too_large_cap_is_retried():
    with _fake("vllm", window=512) as fake:
        fake.counting = False
        server = OpenAIServer(fake.url, "vllm")
        counts = Counts()
        with pytest.raises(Overflow, match="maximum context length"):
            server.complete(MODEL, LONG, num_ctx=512, num_predict=8, seed=1, counts=counts)
        fake.scale = 3.0  # a hungrier tokenizer than the rough guess: prompt + cap too long
        done = server.complete(MODEL, SHORT, num_ctx=512, num_predict=600, seed=1,
                               counts=counts)
        server.close()
        first, second = [b["max_tokens"] for b in fake.chat_requests()][-2:]
        assert done.content and second == 512 - round(prompt_tokens(SHORT) * 3) < first
        assert counts.server_overflows == 1


# ------------------------------------------------------------------ the benchmark
def test_a_short_run_of_the_benchmark_against_llama_server_directly(llama, tmp_path):
    llama.reply_fn = loopback.keep_facts_reply  # summaries that keep the facts
    out = tmp_path / "run"
    assert cli.main(["--host", llama.url, "--model", MODEL, "--ctx", "2048", "--turns", "12",
                     "--kinds", "coding", "--strategies", "ollm,truncate", "--probe-every",
                     "6", "--out", str(out)]) == 0
    payload = json.loads((out / "memory.json").read_text(encoding="utf-8"))
    server = payload["params"]["server"]
    assert server["kind"] == "llama.cpp" and server["window"] == 2048
    assert payload["params"]["model_context"] == 2048
    for strategy in ("ollm", "truncate"):
        figures = payload["summary"][strategy]["2048"]
        assert figures["overflow_requests"] == 0 and figures["turn_requests"] == 12
        counts = server["runs"][f"coding s1 2048 {strategy}"]
        assert counts["server_overflows"] == counts["refused_before_sending"] == 0
        assert counts["usage_reported"] == counts["requests"] == counts["counted"]
        assert counts["count_differs"] == 0
    assert payload["summary"]["ollm"]["2048"]["summarizer_calls"] > 0  # it compacted
    assert llama.refusals == []
    assert all(isinstance(b.get("max_tokens"), int) and "truncate_prompt_tokens" not in b
               for b in llama.chat_requests())
    assert max(s.prompt_tokens for s in llama.streams) < 2048


def test_the_app_relay_streams_an_openai_host_as_ollamas_pieces_and_figures(llama):
    relay = Relay(llama.url, MODEL, replies="scripted", summariser="keep-facts")
    try:
        summary = [*SHORT, {"role": "user", "content": "Compress the chat history above."}]
        reply = relay({"model": MODEL, "messages": summary,
                       "options": {"num_ctx": 2048, "num_predict": 30}})
        text = "".join(reply.stream)
        refused = relay({"model": MODEL, "messages": [*LONG, *summary],
                         "options": {"num_ctx": 512}})
    finally:
        relay.close()
    served = llama.streams[-1]
    assert text and reply.final["prompt_eval_count"] == served.prompt_tokens
    assert reply.final["eval_count"] == served.sent and "timings" in reply.final
    assert reply.final["prompt_eval_cached_count"] >= 0
    assert llama.chat_requests()[-1]["max_tokens"] == 30
    assert (refused.http_status, refused.error) == (400, INPUT_TOO_LONG)
    assert [e.outcome for e in relay.log] == ["done", "refused"]
    assert relay.counts.refused_before_sending == 1 and len(llama.streams) == 1


def test_the_relay_passes_an_overflow_inside_the_stream_on_in_ollamas_words():
    with _fake(window=512) as fake:
        fake.counting, fake.overflow_in_stream = False, "event"
        relay = Relay(fake.url, MODEL, replies="scripted", summariser="keep-facts")
        try:
            reply = relay({"model": MODEL, "messages": LONG,
                           "options": {"num_ctx": 512, "num_predict": 8}})
            with pytest.raises(RuntimeError, match=INPUT_TOO_LONG):
                "".join(reply.stream)
        finally:
            relay.close()
    assert relay.log[-1].outcome == "refused" and relay.counts.server_overflows == 1


def test_app_mode_runs_against_an_openai_compatible_host(llama, tmp_path: Path):
    out = tmp_path / "app"
    # its own qasync loop: in a process of its own, not beside pytest's
    done = subprocess.run([sys.executable, "-m", "bench.memory", "--app", "--host", llama.url,
                           "--model", MODEL, "--ctx", "2048", "--turns", "12", "--kinds",
                           "coding", "--think-s", "0", "--probe-every", "6", "--out", str(out)],
                          capture_output=True, text=True, timeout=600,
                          cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    payload = json.loads((out / "memory-app.json").read_text(encoding="utf-8"))
    assert payload["summary"]["ollm-app"]["2048"]["overflow_requests"] == 0
    assert llama.chat_requests() and llama.refusals == []  # the summaries went to the host
