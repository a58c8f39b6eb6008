"""``sanitise.norm`` reads a long text (a summary's material) in pieces cut at whitespace, so
that no single regular-expression call holds the GIL for tens of ms while the window's thread
waits (issue 29): the words are the same as one pass over the whole text."""

from __future__ import annotations

import random
import re

from ollm_desktop.engine.sanitise import PIECE, norm


def _one_pass(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def test_a_long_text_normalises_as_in_one_pass() -> None:
    rng = random.Random(29)
    alphabet = "abcXYZİ_9 \n\t.,é-"  # İ lower-cases to two characters
    for _ in range(60):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(PIECE, 3 * PIECE)))
        assert norm(text) == _one_pass(text)


def test_a_long_run_without_whitespace_stays_one_word() -> None:
    text = "w" * (2 * PIECE) + " tail " + "z" * PIECE
    assert norm(text) == _one_pass(text)
    assert norm(text).split() == ["w" * (2 * PIECE), "tail", "z" * PIECE]
