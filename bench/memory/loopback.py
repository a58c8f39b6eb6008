"""The in-process loopback model of ``--smoke`` and ``--loopback`` runs: two summarisers.

- ``keep-facts`` (the smoke default): keeps the chat's sentences that carry digits or names.
  It keeps the facts *for* the engine, so it flatters every summarising strategy.
- ``refusing``: refuses every summary, so every checkpoint is built by code.
- ``fact-free``: a plausible Markdown summary of realistic length (about 80 % of the target the
  prompt asks for) that holds no planted value: the worst case of a small model. What is then
  retained is what the engine keeps by code (ledger, kept messages, extractive fallbacks).

Both are deterministic. The fact-free text is made only of the sentences below: no digits, no
identifiers, none of the generator's value vocabularies (a test checks every conversation).
"""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Callable
from typing import Any

SUMMARISERS = ("keep-facts", "fact-free", "refusing")
SMOKE_MODEL = "smoke:tiny"

_TARGET = re.compile(r"at most (\d+) tokens")
_FILTER = re.compile(r"summar|at most|checkpoint|words|tokens", re.I)

CONTEXT = [
    "The user and the assistant kept working through the open questions of the project.",
    "The conversation went on with more discussion of the current plan and its risks.",
    "Both sides went over the recent changes and what they mean for the next steps.",
    "The exchange continued in the same practical tone, one question at a time.",
]
_SUBJECTS = ["the current plan", "the main open question", "the recent changes", "the review",
             "the remaining work", "the earlier proposal", "the trade-offs", "the risks",
             "the overall approach", "the rough edges", "the timeline", "the simpler option"]
_TAKES = ["was discussed again in some detail", "came up several times",
          "was weighed against the alternatives", "was clarified after a few questions",
          "still needs a closer look", "was broadly agreed on", "raised a couple of concerns",
          "was revisited with more context", "got a short explanation from the assistant",
          "was left partly open"]
KEY = [f"{subject[0].upper()}{subject[1:]} {take}." for subject in _SUBJECTS
       for take in _TAKES]
DECISIONS = [
    "Some choices were discussed, though the details were not kept here.",
    "The user seemed to prefer the simpler option where there was a choice.",
    "A few points were settled, others were left open for later.",
    "Nothing was locked in beyond what the conversation already states.",
    "Earlier preferences seemed to hold, with small adjustments.",
]
ACTIONS = [
    "Continue with whatever the user asks next.",
    "Check the remaining open points before moving on.",
    "Keep answers short and focused on the next concrete step.",
    "Revisit the earlier concerns if they come up again.",
    "Confirm the details with the user before acting on them.",
    "Follow up on anything that was left partly open.",
]


def _prompt_text(body: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content", "")) for m in body.get("messages") or [])


def keep_facts_reply(body: dict[str, Any]) -> str:
    """Keeps the chat's sentences that carry digits or names (the smoke summariser)."""
    text = "\n".join(str(m.get("content", "")) for m in body.get("messages") or []
                     if m.get("role") != "system")
    sentences = [s for s in re.split(r"(?<=[.!?])\s+|\n+", text) if not _FILTER.search(s)]
    keep = [s for s in sentences if re.search(r"\d|_|[A-Z]{3,}", s)]
    return "## Summary\n" + " ".join(keep or sentences[:3])


def fact_free_reply(body: dict[str, Any]) -> str:
    """A generic summary of about 80 % of the asked target, without a single fact."""
    prompt = _prompt_text(body)
    targets = _TARGET.findall(prompt)
    target = int(targets[-1]) if targets else 200
    rng = random.Random(zlib.crc32(prompt.encode("utf-8")))
    words = max(30, int(target * 0.8 / 1.3))  # cl100k: about 1.3 tokens per English word
    sections = [("Context", CONTEXT, 1), ("Key Information", KEY, None),
                ("Decisions & Conclusions", DECISIONS, 2), ("Action Items", ACTIONS, 2)]
    out: list[str] = []
    used = 0
    for title, bank, most in sections:
        chosen = rng.sample(bank, len(bank))[: most or len(bank)]
        lines = []
        for sentence in chosen:
            if used >= words and lines:
                break
            lines.append(sentence if title == "Context" else f"- {sentence}")
            used += len(sentence.split())
        out += [f"## {title}", *lines, ""]
        if used >= words:
            break
    return "\n".join(out).strip()


def refusing_reply(body: dict[str, Any]) -> str:
    """A small model that refuses: every summary is unusable, so every checkpoint is built by
    code (the check of issue 28 on the code-built checkpoints' decisions)."""
    return "I'm sorry, but I can't help with summarising this conversation."


REPLIES: dict[str, Callable[[dict[str, Any]], str]] = {
    "keep-facts": keep_facts_reply, "fact-free": fact_free_reply,
    "refusing": refusing_reply}


def server(summariser: str = "keep-facts") -> Any:
    """A started loopback server (tests.ollama_server) whose model summarises as chosen."""
    from tests.ollama_server import FakeModel, FakeOllama

    fake = FakeOllama([FakeModel(SMOKE_MODEL, "llama", "135M", 32768, "Q4_1", 98_000_000,
                                 parameter_count=135_000_000)])
    fake.reply_fn = REPLIES[summariser]
    return fake.start()
