"""Token counting with tiktoken's cl100k vocabulary loaded from the shipped file.

Never calls ``tiktoken.get_encoding``: that downloads the vocabulary, which fails
offline and leaks a network request from a local app.

Known bias: cl100k is OpenAI's tokenizer. Llama 3, Qwen and Gemma vocabularies
are of similar size and land within about 10-20 % on English prose and code, but
small-vocabulary models (Llama 2, Mistral 7B v0.1) and non-Latin scripts can count
noticeably more tokens. The engine therefore keeps a 15 % reserve (``usable_ratio``),
prefers counts reported by Ollama, and applies the per-model ``estimate_scale``
learned from ``prompt_eval_count``.
"""

from __future__ import annotations

import base64
import hashlib
import threading
from functools import cache
from pathlib import Path

import tiktoken

from ollm_desktop.resources_path import resource

VOCAB_FILE = "cl100k_base.tiktoken"
VOCAB_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
PAT_STR = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+|"""
    r""" ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
SPECIAL_TOKENS = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}
# Chat templates wrap every message in role markers (Llama 3: 5 tokens) and every request in
# a few more (begin-of-text, the generation header). Defaults err high; the backend learns
# each model's real overhead from Ollama's prompt_eval_count.
MESSAGE_OVERHEAD = 8
REQUEST_OVERHEAD = 16


class VocabularyError(RuntimeError):
    """The shipped vocabulary is missing or altered."""


def _parse_ranks(data: bytes) -> dict[bytes, int]:
    ranks: dict[bytes, int] = {}
    for line in data.splitlines():
        if not line:
            continue
        token, rank = line.split()
        ranks[base64.b64decode(token)] = int(rank)
    return ranks


def load_vocabulary(path: Path | None = None) -> dict[bytes, int]:
    """Read and verify the vocabulary; parsing ourselves avoids tiktoken's temp cache."""
    path = path or resource(VOCAB_FILE)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise VocabularyError(f"Tokenizer vocabulary not readable at {path}: {exc}") from exc
    digest = hashlib.sha256(data).hexdigest()
    if digest != VOCAB_SHA256:
        raise VocabularyError(
            f"Tokenizer vocabulary at {path} is damaged (SHA-256 {digest[:12]}…, "
            f"expected {VOCAB_SHA256[:12]}…). Reinstall the app."
        )
    return _parse_ranks(data)


_lock = threading.Lock()


@cache
def _encoding_cached() -> tiktoken.Encoding:
    return tiktoken.Encoding(
        name="cl100k_base_offline",
        pat_str=PAT_STR,
        mergeable_ranks=load_vocabulary(),
        special_tokens=SPECIAL_TOKENS,
    )


def encoding() -> tiktoken.Encoding:
    with _lock:
        return _encoding_cached()


# Counts already made, by text (a count depends on the text alone): the same messages,
# summaries and ledger lines are counted again by every layout of the request, every recount
# after a calibration and every compaction, which made counting most of the engine's CPU at
# 32K-128K (and tens of ms on the event loop after each compaction). Looking a text up costs
# its hash (cached by ``str``) and, on a hit, one comparison; a miss is counted as before.
# Bounded by the characters it holds (the least recently used go first); the texts are
# mostly the chat's own strings, held anyway.
COUNT_CACHE_CHARS = 4_000_000
_counts: dict[str, int] = {}
_counted_chars = 0
_counts_lock = threading.Lock()


def count_tokens(text: str) -> int:
    """Tokens of ``text`` (special-token strings in chat text count as plain text)."""
    if not text:
        return 0
    with _counts_lock:
        known = _counts.pop(text, None)
        if known is not None:
            _counts[text] = known  # the most recently used again
            return known
    count = len(encoding().encode(text, disallowed_special=()))
    if len(text) <= COUNT_CACHE_CHARS // 8:
        _remember(text, count)
    return count


def forget_counts() -> None:
    """Empty the count cache (a test that must tokenise for real)."""
    global _counted_chars
    with _counts_lock:
        _counts.clear()
        _counted_chars = 0


def _remember(text: str, count: int) -> None:
    global _counted_chars
    with _counts_lock:
        if text in _counts:
            return
        _counts[text] = count
        _counted_chars += len(text)
        while _counted_chars > COUNT_CACHE_CHARS:
            oldest = next(iter(_counts))
            del _counts[oldest]
            _counted_chars -= len(oldest)


def scaled(raw: int, scale: float = 1.0) -> int:
    """A cl100k count converted to the model's tokens (rounded up: never under-count)."""
    return int(raw * scale + 0.999)


def count_message_tokens(text: str, scale: float = 1.0, overhead: int = MESSAGE_OVERHEAD) -> int:
    """Estimated tokens of one chat message including the template overhead."""
    return scaled(count_tokens(text), scale) + overhead


def truncate_to_tokens(text: str, max_tokens: int) -> str:
    """The longest prefix of ``text`` within ``max_tokens``, cut at a line or word if possible."""
    if max_tokens <= 0:
        return ""
    enc = encoding()
    ids = enc.encode(text, disallowed_special=())
    if len(ids) <= max_tokens:
        return text
    prefix = enc.decode(ids[:max_tokens])
    for sep in ("\n", ". ", " "):
        cut = prefix.rfind(sep)
        if cut > len(prefix) * 0.6:
            return prefix[: cut + (1 if sep != "\n" else 0)].rstrip()
    return prefix.rstrip()


CLIP_MARKER = "\n\n[... {omitted:,} tokens of this message are left out here to fit the context; " \
    "the full text stays in the chat history ...]\n\n"


def clip_middle(text: str, max_tokens: int) -> str:
    """Head and tail of ``text`` within ``max_tokens``, with a visible marker where it was cut.

    A long paste keeps its beginning (what it is) and its end (usually the question). A text
    many times longer than what is kept (a 500 KB reply) is read at its ends only.
    """
    enc = encoding()
    head_ids, tail_ids, total = _ends(text, max_tokens)
    if total <= max_tokens:
        return text
    marker_tokens = count_tokens(CLIP_MARKER.format(omitted=total))
    room = max(0, max_tokens - marker_tokens - 2)
    if room <= 0:
        return truncate_to_tokens(text, max_tokens)
    head_n = (room * 2) // 3
    tail_n = room - head_n
    head = enc.decode(head_ids[:head_n])
    tail = enc.decode(tail_ids[len(tail_ids) - tail_n:]) if tail_n else ""
    omitted = total - head_n - tail_n
    clipped = head.rstrip() + CLIP_MARKER.format(omitted=omitted) + tail.lstrip()
    while count_tokens(clipped) > max_tokens and head_n > 0:  # decode seams can add a token
        head_n = max(0, head_n - 4)
        head = enc.decode(head_ids[:head_n])
        clipped = head.rstrip() + CLIP_MARKER.format(omitted=omitted) + tail.lstrip()
    return clipped


HUGE_SHARE = 8  # a text this many times longer than what is kept is read at its ends only
CHARS_PER_TOKEN = 4  # about, for English and code (cl100k): sizes the ends that are read


def _ends(text: str, max_tokens: int) -> tuple[list[int], list[int], int]:
    """The tokens of ``text``'s start and end (each at least ``max_tokens`` long, or all of
    it) and its count: exact, except for a text ``HUGE_SHARE`` times longer than
    ``max_tokens`` tokens, whose middle is never tokenised (counted at its ends' rate)."""
    enc = encoding()
    span = (max_tokens + 64) * CHARS_PER_TOKEN
    if len(text) > HUGE_SHARE * span:
        while 2 * span < len(text):
            head = enc.encode(text[:span], disallowed_special=())
            tail = enc.encode(text[-span:], disallowed_special=())
            if min(len(head), len(tail)) > max_tokens:
                middle = (len(text) - 2 * span) * (len(head) + len(tail)) / (2 * span)
                return head, tail, len(head) + len(tail) + int(middle + 0.999)
            span *= 2
    ids = enc.encode(text, disallowed_special=())
    return ids, ids, len(ids)
