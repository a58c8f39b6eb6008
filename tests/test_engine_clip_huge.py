"""A text many times longer than what is kept is clipped from its ends (issue 29: a 500 KB
reply was tokenised whole on every layout of the request)."""

from __future__ import annotations

import re

from ollm_desktop.engine.tokens import CLIP_MARKER, clip_middle, count_tokens

LINE = "".join(f"{i:07d}|" for i in range(64_000))  # 512 KB, no whitespace at all
PROSE = " ".join(f"Line {i}: the exporter writes row {i} of the report to disk." for i in
                 range(12_000))


def _omitted(clipped: str) -> int:
    match = re.search(r"\[\.\.\. ([\d,]+) tokens", clipped)
    assert match is not None
    return int(match.group(1).replace(",", ""))


def test_a_huge_text_keeps_its_two_ends_within_the_limit() -> None:
    for text in (LINE, PROSE):
        clipped = clip_middle(text, 2000)
        assert count_tokens(clipped) <= 2000
        head, _, tail = clipped.partition(CLIP_MARKER.split("{")[0])
        assert text.startswith(head.rstrip()[:1000]) and len(head) > 1000
        assert text.rstrip().endswith(tail.rstrip()[-1000:])


def test_the_omitted_count_of_a_huge_text_is_close_to_the_exact_one() -> None:
    for text in (LINE, PROSE):
        clipped = clip_middle(text, 2000)
        kept = count_tokens(clipped) - count_tokens(CLIP_MARKER.format(omitted=_omitted(clipped)))
        exact = count_tokens(text) - kept
        assert abs(_omitted(clipped) - exact) <= 0.05 * exact


def test_a_text_not_much_longer_than_the_limit_is_counted_exactly() -> None:
    text = PROSE[:40_000]  # about 10,000 tokens, kept 4,000: read whole
    clipped = clip_middle(text, 4000)
    kept = count_tokens(clipped) - count_tokens(CLIP_MARKER.format(omitted=_omitted(clipped)))
    assert abs(_omitted(clipped) - (count_tokens(text) - kept)) <= 4  # seams only
