"""A comparison is not a correction (issue 28, sentence layer): "A is faster than B", "I'm
more used to A than B" state no value of a key, and "than B" names no replaced value unless
the sentence prefers ("rather than") or changes something. Bounds ("under 40 days", "no later
than Friday") keep their value. The sentences are new words, not the corpus's; the negatives
failed on 655f768.
"""

from __future__ import annotations

import pytest

from tests.fact_ledger import check_after, current_after

# (the earlier fact, a comparison, the value that stays, the compared value never current)
COMPARISONS = [
    ("Our editor is Neovim.", "Honestly Helix feels snappier than Neovim.", "Neovim", "Helix"),
    ("Our git host is GitHub.", "To be fair, Codeberg is friendlier than GitHub.",
     "GitHub", "Codeberg"),
    ("The shop's courier is DPD.", "Evri is a lot cheaper than DPD.", "DPD", "Evri"),
]


@pytest.mark.parametrize(("fact", "message", "stays", "never"), COMPARISONS)
def test_a_comparison_replaces_nothing(fact: str, message: str, stays: str,
                                       never: str) -> None:
    check_after(fact, message, stays, never)


# (the earlier fact, a change that gives its reason by a comparison, the new value, the old)
CHANGES = [
    ("Our CI runs on Jenkins.", "We moved CI to Buildkite because it is faster than Jenkins.",
     "Buildkite", "Jenkins"),
    ("Our CI runs on Jenkins.", "We use Buildkite rather than Jenkins now.",
     "Buildkite", "Jenkins"),
]


@pytest.mark.parametrize(("fact", "message", "new", "old"), CHANGES)
def test_a_change_with_a_comparison_still_replaces(fact: str, message: str, new: str,
                                                   old: str) -> None:
    check_after(fact, message, new, old)


def test_a_bound_keeps_its_value() -> None:
    now = current_after("The grace period is 30 days.", "The grace period is less than 45 days.")
    assert "45 days" in now, now


# (the earlier fact, a message that weighs a value and turns it down, the value that stays,
# the value turned down)
JUDGED = [
    ("The batch size is 32.", "Honestly 128 is far too big for this card.", "32", "128"),
    ("The poll interval is 30 seconds.", "It works, but 5 seconds seems too short for it.",
     "30 seconds", "5 seconds"),
]


@pytest.mark.parametrize(("fact", "message", "stays", "never"), JUDGED)
def test_a_value_turned_down_as_too_much_is_not_current(fact: str, message: str, stays: str,
                                                        never: str) -> None:
    check_after(fact, message, stays, never)


def test_a_value_complained_of_is_still_stated() -> None:
    assert "£1,150" in current_after("The rent of £1,150 is too high for us.", "Noted, thanks.")


def test_a_turned_down_value_leaves_the_next_clause_stated() -> None:
    now = current_after("The lunch slot is 45 minutes.",
                        "30 minutes is too short, the walk alone takes 20 minutes.")
    assert "30 minutes" not in now, now
    assert "20 minutes" in now, now


@pytest.mark.parametrize(("fact", "message", "stays", "never"), [
    ("The package manager is npm.", "pnpm 9 is pretty good, so probably no need for npm "
     "anymore.", "npm", "pnpm 9"),
    ("Our test runner is Jest.", "Vitest 2 is really nice, so maybe we won't need Jest "
     "anymore.", "Jest", "Vitest 2"),
])
def test_a_graded_value_with_a_hedged_change_replaces_nothing(fact: str, message: str,
                                                              stays: str, never: str) -> None:
    check_after(fact, message, stays, never)
