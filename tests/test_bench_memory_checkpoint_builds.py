"""The issue's measure of the code-built checkpoints (issue 28, point 6): a user's decision
counts as summarised by the build that folded its message, and as kept when that build's
decisions section carries it, or a later build that folds that build does."""

from __future__ import annotations

from bench.memory import checkpoint_builds
from bench.memory.checkpoint_builds import Build, Recorder
from bench.memory.generator import generate


def _decision_and_message():
    conversation = generate("coding", 150, 1, "short")
    decision = next(f for f in conversation.facts if f.type == "decision" and f.speaker == "user")
    return conversation, decision, conversation.turns[decision.turn].user


def test_a_decision_kept_by_a_later_build_that_folds_the_build_counts_as_kept() -> None:
    conversation, decision, message = _decision_and_message()
    first = Build([("user", message)], "*Built from the messages.*\n\n## Key Information\n- x")
    carried = f"*Built from the messages.*\n\n## Decisions & Conclusions\n- {decision.sentence}"
    folding = Build([("user", "Hello there.")], carried, previous=first.text)
    figures = checkpoint_builds.figures(conversation, Recorder(builds=[first, folding]))
    assert figures["user_decisions_in_span"] == 1 and figures["user_decisions_kept"] == 1
    # a later build that does not fold it (another chat's, or a fresh one) does not count
    unrelated = Build([("user", "Hello there.")], carried, previous=None)
    figures = checkpoint_builds.figures(conversation, Recorder(builds=[first, unrelated]))
    assert figures["user_decisions_kept"] == 0 and figures["missing_examples"] == [decision.answer]


def test_folding_is_followed_through_several_rolls_and_only_forward() -> None:
    a = Build([], "A")
    b = Build([], "B", previous="A")
    c = Build([], "C", previous="B")
    d = Build([], "D", previous=None)
    assert checkpoint_builds.folded_by([a, b, c, d]) == [[1, 2], [2], [], []]
