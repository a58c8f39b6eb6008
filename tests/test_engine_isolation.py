"""The engine is pure Python: no Qt imports, no network, even for the tokenizer."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ollm_desktop.engine import tokens

ROOT = Path(__file__).resolve().parents[1]


def _python(code: str, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_importing_the_engine_loads_no_qt() -> None:
    out = _python("""
        import json, sys
        import ollm_desktop.engine
        from ollm_desktop.engine import ContextEngine, EngineConfig
        async def summarize(prompt):
            return "summary"
        engine = ContextEngine(EngineConfig(), summarize, "sys")
        engine.add("user", "hello")
        engine.api_messages()
        banned = ("PySide6", "qasync", "shiboken6")
        print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in banned)))
    """)
    assert json.loads(out) == []


def test_token_counting_with_sockets_blocked(monkeypatch: pytest.MonkeyPatch) -> None:
    attempts: list[object] = []

    def refuse(*args: object, **kwargs: object) -> None:
        attempts.append(args)
        raise OSError("network disabled in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)  # a download would resolve first
    tokens._encoding_cached.cache_clear()  # force a fresh load of the vocabulary
    tokens.forget_counts()  # and real counting, not the counts cached by text
    try:
        assert tokens.count_tokens("hello world") == 2
        assert tokens.count_tokens("The quick brown fox jumps over the lazy dog.") == 10
        assert tokens.count_tokens("<|endoftext|>") > 1  # plain text, never a special token
    finally:
        tokens._encoding_cached.cache_clear()
    assert attempts == []


def test_fresh_process_with_empty_tiktoken_cache_opens_no_socket(tmp_path: Path) -> None:
    cache = tmp_path / "tiktoken-cache"
    cache.mkdir()
    env = {
        **os.environ,
        "TIKTOKEN_CACHE_DIR": str(cache),
        "DATA_GYM_CACHE_DIR": str(cache),
        "TMPDIR": str(tmp_path),
    }
    out = _python(
        """
        import json, socket
        attempts = []
        def refuse(*args, **kwargs):
            attempts.append(repr(args))
            raise OSError("network disabled")
        socket.socket.connect = refuse
        socket.create_connection = refuse
        socket.getaddrinfo = refuse
        from ollm_desktop.engine.tokens import count_message_tokens, count_tokens
        counts = [count_tokens("hello world"), count_message_tokens("hello world")]
        print(json.dumps({"counts": counts, "attempts": attempts}))
    """,
        env=env,
    )
    result = json.loads(out)
    assert result == {"counts": [2, 2 + tokens.MESSAGE_OVERHEAD], "attempts": []}
    assert list(cache.iterdir()) == []  # no cache written, nothing downloaded


def test_damaged_vocabulary_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    bad = tmp_path / "cl100k_base.tiktoken"
    bad.write_bytes(b"aGVsbG8= 0\n")
    with pytest.raises(tokens.VocabularyError, match="damaged"):
        tokens.load_vocabulary(bad)
    with pytest.raises(tokens.VocabularyError, match="not readable"):
        tokens.load_vocabulary(tmp_path / "missing.tiktoken")


def test_a_count_is_cached_by_text_and_bounded() -> None:
    """The same text is tokenised once (a layout, a recount, a compaction reread it); the
    cache holds at most ``COUNT_CACHE_CHARS`` characters, the least recently used go."""
    tokens.forget_counts()
    text = "The exporter on port 8443 fails in src/export.py. " * 40
    first = tokens.count_tokens(text)
    assert tokens.count_tokens("".join([text])) == first  # an equal text, another object
    assert text in tokens._counts
    for i in range(tokens.COUNT_CACHE_CHARS // 50_000 + 2):
        tokens.count_tokens(f"{i} " + "x " * 25_000)
    assert tokens._counted_chars <= tokens.COUNT_CACHE_CHARS
    assert text not in tokens._counts  # the oldest went first
    assert tokens.count_tokens(text) == first
