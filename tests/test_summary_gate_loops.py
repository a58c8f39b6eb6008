"""The summary gate's cheap test for a looped phrase (``_may_loop``) never passes over a line
that ``_NGRAM_LOOP`` would fold: it only spares the search where no loop can be."""

from __future__ import annotations

import random

from ollm_desktop.engine.summary_gate import _NGRAM_LOOP, _may_loop, collapse_repetition


def _folded(line: str) -> bool:
    return _NGRAM_LOOP.sub(r"\1", line + " ")[:-1] != line


def test_every_line_the_search_folds_is_one_the_cheap_test_lets_through() -> None:
    rng = random.Random(28)
    words = ["a", "b", "ab", "the", "x.", "b,", "port", "9443"]
    gaps = [" ", " ", "  ", "\t", ""]
    lines = []
    for _ in range(20000):
        phrase = "".join(rng.choice(words) + rng.choice(gaps) for _ in range(rng.randint(1, 9)))
        loop = phrase * rng.randint(1, 5)  # sometimes said four times or more
        around = ["".join(rng.choice(words) + rng.choice(gaps) for _ in range(rng.randint(0, 4)))
                  for _ in range(2)]
        lines.append(around[0] + loop + around[1])
    folded = [line for line in lines if _folded(line)]
    assert len(folded) > 500  # the sample holds loops of every length
    assert all(_may_loop(line) for line in folded)
    assert not all(_may_loop(line) for line in lines)  # and it does spare some


def test_a_looped_phrase_is_still_folded() -> None:
    text = "So the port is 9443 and " * 5 + "that is all."
    collapsed, changed = collapse_repetition(text)
    assert changed and collapsed.count("9443") == 1
    assert not _may_loop("The API listens on 9443 behind the proxy, as the user said.")
