"""A plural in "-ies" meets its singular in "-y" ("retries" / "retry", "policies" /
"policy"): the plural was cut to "retrie", which met no "retry" key (REVIEW38b note). A
noun in "-ie" still meets its plural ("movie" / "movies"); other words keep apart."""

from __future__ import annotations

import pytest

from ollm_desktop.engine.fact_keys import stem


@pytest.mark.parametrize("a, b", [
    ("retries", "retry"), ("policies", "policy"), ("replies", "reply"),
    ("movies", "movie"), ("cookies", "cookie"), ("retries", "retried"), ("retry", "retried"),
])
def test_a_plural_in_ies_meets_its_singular(a: str, b: str) -> None:
    assert stem(a) == stem(b)


@pytest.mark.parametrize("a, b", [("retry", "entry"), ("policy", "police"), ("key", "ke")])
def test_other_words_keep_apart(a: str, b: str) -> None:
    assert stem(a) != stem(b)
