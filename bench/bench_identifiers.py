"""Identifier retention and the cost of a failing summarizer (docs/engine.md's figures).

1. Identifier retention: 150 turns with a summarizer that paraphrases (keeps no identifier at
   all, as small models do); the share of identifiers from summarised assistant messages still
   present anywhere in the request, at 8K, 16K and 32K, and the newest checkpoint's share.
2. A summarizer that always fails (raises) over 320 turns at 8K: its input tokens over the
   conversation's tokens (every message once).

Run: ``.venv/bin/python bench/bench_identifiers.py``. Deterministic (no model, no clock).
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``tests`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ollm_desktop.engine import EngineConfig
from ollm_desktop.engine.tokens import count_tokens
from tests.engine_fakes import RaisingSummarizer, chat, compact, exchange
from tests.test_engine_guarantees import identifier_retention


def failing_cost(turns: int = 320, context_size: int = 8192) -> float:
    engine, summarizer = chat(EngineConfig(context_size=context_size), RaisingSummarizer())
    conversation = 0
    for turn in range(turns):
        exchange(engine, turn)
        conversation += sum(count_tokens(m.content) for m in engine.display_messages()[-2:])
        if engine.needs_compaction():
            compact(engine)
    return summarizer.input_tokens / conversation


def main() -> None:
    print("identifier retention after 150 turns, paraphrasing summarizer")
    for size in (8192, 16384, 32768):
        kept, newest = identifier_retention(size)
        print(f"  {size // 1024}K: {kept:.0%} of summarised identifiers in the request; "
              f"newest checkpoint {newest:.0%}")
    print(f"failing summarizer, 320 turns at 8K: input / conversation tokens "
          f"{failing_cost():.2f}x")


if __name__ == "__main__":
    main()
