"""The one-slot prefix model: how much of each request a server could take from its KV cache.

Ollama and llama.cpp keep one prompt per slot (one slot per model by default) and re-read only
what follows the longest common prefix with what the slot holds: the previous request and the
reply generated after it. The in-process runs send no turn requests, so the runner tells this
model every request the app would send, in order (each turn's chat request and its reply, then
the summaries of a compaction), and it counts, per kind, the prompt tokens, those a server
could take from its cache (``prefix``), and the highest share any layout could reach
(``possible``: the prompt less the tokens the slot did not hold at all). Tokens are cl100k of a
simple chat template; the real figures come from llama.cpp's ``timings`` (``--app``).
"""

from __future__ import annotations

import difflib
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any


def _ids(text: str) -> list[int]:
    from ollm_desktop.engine.tokens import encoding

    return list(encoding().encode(text, disallowed_special=()))


def template(messages: Sequence[dict[str, Any]]) -> list[int]:
    """The request as a server would tokenise it: role markers, contents, generation prompt."""
    text = "".join(f"<|{m.get('role', 'user')}|>\n{m.get('content', '')}<|end|>\n"
                   for m in messages)
    return _ids(text + "<|assistant|>\n")


def prefix_figures(held: Sequence[Hashable], prompt: Sequence[Hashable]) -> tuple[int, int]:
    """(longest common prefix, tokens of ``prompt`` that ``held`` contains in order)."""
    prefix = 0
    for mine, theirs in zip(prompt, held, strict=False):
        if mine != theirs:
            break
        prefix += 1
    matcher = difflib.SequenceMatcher(None, held, prompt, autojunk=False)
    possible = sum(block.size for block in matcher.get_matching_blocks())
    return prefix, max(prefix, possible)


@dataclass
class Kind:
    requests: int = 0
    prompt: int = 0
    prefix: int = 0
    possible: int = 0

    def add(self, prompt: int, prefix: int, possible: int) -> None:
        self.requests += 1
        self.prompt += prompt
        self.prefix += prefix
        self.possible += possible

    def figures(self) -> dict[str, Any]:
        return {"requests": self.requests, "prompt_tokens": self.prompt,
                "cached_tokens": self.prefix, "read_tokens": self.prompt - self.prefix,
                "cache_share": self.prefix / self.prompt if self.prompt else None,
                "possible_share": self.possible / self.prompt if self.prompt else None}


@dataclass
class Slot:
    held: list[int] = field(default_factory=list)
    kinds: dict[str, Kind] = field(default_factory=dict)

    def observe(self, kind: str, messages: Sequence[dict[str, Any]], reply: str) -> int:
        """One request and the reply it generated; returns the tokens the server reads."""
        prompt = template(messages)
        prefix, possible = prefix_figures(self.held, prompt)
        self.kinds.setdefault(kind, Kind()).add(len(prompt), prefix, possible)
        self.held = prompt + _ids(reply)
        return len(prompt) - prefix

    def figures(self) -> dict[str, Any]:
        return {kind: figures.figures() for kind, figures in sorted(self.kinds.items())}
