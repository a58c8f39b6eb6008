"""cl100k counts for the bench's own bookkeeping and for the peers' (truncate, rolling) fitting.

The text count comes from the engine's ``count_tokens`` (cl100k, shipped vocabulary). The
per-message overhead of the peers is frozen here at 4, what ``count_message_tokens`` did before
issue 11, so ``truncate`` and ``rolling`` behave identically whichever engine is imported: a
before/after comparison then moves only the ``ollm`` rows.
"""

from __future__ import annotations

from collections.abc import Iterable

PEER_MESSAGE_OVERHEAD = 4


def cl100k_text(text: str) -> int:
    from ollm_desktop.engine.tokens import count_tokens

    return int(count_tokens(text))


def peer_message_tokens(content: str) -> int:
    """What a typical Python client counts for one message: cl100k plus 4."""
    return cl100k_text(content) + PEER_MESSAGE_OVERHEAD


def cl100k_messages(messages: Iterable[dict[str, str]]) -> int:
    return sum(peer_message_tokens(str(m.get("content", ""))) for m in messages)
