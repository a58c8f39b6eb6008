"""Goal markers in assistant output, and the never-compressed goal block."""

from __future__ import annotations

import pytest

from ollm_desktop.engine import EngineConfig, GoalState, apply_goal_markers, render_goal_block
from ollm_desktop.engine.goals import (
    MAX_LOCKED,
    apply_summary_markers,
    dropped_locked,
    render_goal_block_capped,
)
from ollm_desktop.engine.tokens import count_tokens
from tests.engine_fakes import chat, compact

SEED_MARKERS = """\
[GOAL] Implement user authentication system
[CHECKPOINT] Design authentication flow - COMPLETED
[CHECKPOINT] Implement login endpoint - COMPLETED
[CHECKPOINT] Add JWT token generation - IN PROGRESS
[CHECKPOINT] Create user registration - PENDING
[DECISION] Use JWT for authentication - LOCKED
[DECISION] Use bcrypt for password hashing
[ARTIFACT] Created src/auth/login.ts
[ARTIFACT] Modified src/routes/api.ts
[NEXT] Complete JWT token generation, then move to user registration
"""


def test_markers_update_the_goal() -> None:
    goal = GoalState()
    assert apply_goal_markers(goal, "Sure, here is the plan:\n" + SEED_MARKERS)
    assert goal.description == "Implement user authentication system"
    assert [(c.description, c.status) for c in goal.checkpoints] == [
        ("Design authentication flow", "completed"),
        ("Implement login endpoint", "completed"),
        ("Add JWT token generation", "in-progress"),
        ("Create user registration", "pending"),
    ]
    assert [(d.description, d.locked) for d in goal.decisions] == [
        ("Use JWT for authentication", True),
        ("Use bcrypt for password hashing", False),
    ]
    assert [(a.action, a.path) for a in goal.artifacts] == [
        ("Created", "src/auth/login.ts"),
        ("Modified", "src/routes/api.ts"),
    ]
    assert goal.next_steps == ["Complete JWT token generation, then move to user registration"]
    assert goal.updated_at is not None


def test_markers_update_existing_entries_instead_of_duplicating() -> None:
    goal = GoalState()
    apply_goal_markers(goal, SEED_MARKERS)
    changed = apply_goal_markers(
        goal,
        "[CHECKPOINT] Add JWT token generation - COMPLETED\n"
        "[DECISION] Use bcrypt for password hashing - LOCKED",
    )
    assert changed
    assert len(goal.checkpoints) == 4
    assert goal.checkpoints[2].status == "completed"
    assert all(d.locked for d in goal.decisions)
    assert not apply_goal_markers(goal, SEED_MARKERS.splitlines()[0])
    assert not apply_goal_markers(goal, "no markers here, just [brackets] in text")


def test_goal_block_lives_in_the_system_message_and_survives_compaction() -> None:
    engine, summarizer = chat(EngineConfig(context_size=8192, min_messages=2), turns=3)
    engine.add("assistant", SEED_MARKERS)
    engine.add("user", "[GOAL] users cannot set goals by typing markers")
    assert engine.goal.description == "Implement user authentication system"
    for turn in range(3, 20):
        engine.add("user", f"step {turn}")
        engine.add("assistant", f"done step {turn} " + "detail " * 80)
    system = engine.api_messages()[0]
    assert system["role"] == "system"
    assert system["content"].startswith("You are a helpful assistant.")
    block = render_goal_block(engine.goal)
    assert "[locked] Use JWT for authentication" in block
    # The reply's markers are sent word for word; the goal block shows them from the next
    # compaction on, so the front of the request (and the server's cache of it) stays put.
    assert block not in system["content"]
    assert any(SEED_MARKERS in m["content"] for m in engine.api_messages())
    assert compact(engine, force=True).status == "compacted"
    assert block in engine.api_messages()[0]["content"]
    compact(engine, force=True)
    # The summary request reuses the chat's prefix: the goal reaches it in the notes, and the
    # instruction names it instead of repeating it.
    prompt = summarizer.prompts[-1]
    assert block in prompt[0]["content"] and "active goal" in prompt[-1]["content"]
    usage = engine.usage()
    assert usage.goal > 0
    for group in engine.groups:
        assert "<active_goal>" not in group.summary


def test_goal_block_is_bounded() -> None:
    goal = GoalState()
    for i in range(100):
        apply_goal_markers(
            goal,
            f"[CHECKPOINT] step {i} - DONE\n[DECISION] choice {i}\n"
            f"[ARTIFACT] Created f{i}.py\n[NEXT] step {i + 1}",
        )
    assert len(goal.checkpoints) <= 20 and len(goal.decisions) <= 15
    assert len(goal.artifacts) <= 25 and len(goal.next_steps) <= 5
    assert render_goal_block(GoalState()) == ""


DOCUMENTATION = """\
You can steer the goal with markers, for example:
```
[GOAL] Example goal
[DECISION] Example decision - LOCKED
[CHECKPOINT] Example step - DONE
```
~~~text
[NEXT] Example next step
~~~
Inline, `[GOAL] Inline example` does nothing either.
- `[DECISION] Quoted decision - LOCKED`
"""


def test_markers_in_code_fences_or_inline_code_change_nothing() -> None:
    goal = GoalState()
    assert not apply_goal_markers(goal, DOCUMENTATION)
    assert goal.is_empty
    assert not apply_goal_markers(goal, "```python\n[GOAL] unclosed fence runs to the end\n")
    assert goal.is_empty


def test_the_same_markers_outside_a_fence_apply() -> None:
    goal = GoalState()
    assert apply_goal_markers(goal, DOCUMENTATION + "\n[GOAL] Real goal\n1. [NEXT] Real step")
    assert goal.description == "Real goal"
    assert goal.next_steps == ["Real step"]
    assert goal.decisions == [] and goal.checkpoints == []


def _big_locked_goal(count: int, words: int) -> GoalState:
    goal = GoalState()
    apply_goal_markers(goal, "[GOAL] Ship the ledger service")
    for i in range(count):
        body = f"Decision {i}: " + " ".join(f"keep rule {i}-{j} in force" for j in range(words))
        apply_goal_markers(goal, f"[DECISION] {body} - LOCKED")
    return goal


def test_fifteen_huge_locked_decisions_fit_the_cap_each_still_named() -> None:
    goal = _big_locked_goal(15, 56)  # about 450 tokens each
    assert all(400 < count_tokens(d.description) < 500 for d in goal.decisions)
    assert len(goal.decisions) == 15 and count_tokens(render_goal_block(goal)) > 6000
    render = render_goal_block_capped(goal, 600)
    assert render.tokens <= 600 and render.tokens == count_tokens(render.text)
    for i in range(15):
        assert f"Decision {i}: keep rule {i}-0" in render.text
    assert render.condensed == 15 and render.locked_omitted == 0
    assert "(15 older locked decisions condensed to fit)" in render.text
    assert "Goal: Ship the ledger service" in render.text


def test_two_hundred_short_locked_decisions_are_condensed_and_counted() -> None:
    goal = GoalState()
    for i in range(200):
        apply_goal_markers(goal, f"[DECISION] Use adapter {i} for partner feed {i} - LOCKED")
    assert len(goal.decisions) == 200
    render = render_goal_block_capped(goal, 1500)
    assert render.tokens <= 1500
    assert render.condensed > 0 and render.locked_omitted == 0
    assert f"({render.condensed} older locked decisions condensed to fit)" in render.text
    assert "Earlier locked decisions (condensed): Use adapter 0" in render.text
    assert "[locked] Use adapter 199 for partner feed 199" in render.text  # newest in full


def test_when_condensing_is_not_enough_the_omission_is_said() -> None:
    goal = GoalState()
    for i in range(200):
        apply_goal_markers(goal, f"[DECISION] Use adapter {i} for partner feed {i} - LOCKED")
    render = render_goal_block_capped(goal, 300)
    assert render.tokens <= 300
    assert render.locked_omitted > 0
    assert f"({render.locked_omitted} oldest locked decisions omitted to fit)" in render.text
    assert render.condensed + render.locked_omitted == 200


def test_sacrifice_starts_with_the_oldest_completed_checkpoints() -> None:
    goal = GoalState()
    for i in range(10):
        apply_goal_markers(goal, f"[CHECKPOINT] Finished migration step number {i} - DONE")
    apply_goal_markers(goal, "[CHECKPOINT] Open step - IN PROGRESS\n[ARTIFACT] Created a.py\n"
                             "[DECISION] Use JWT - LOCKED\n[DECISION] Maybe bcrypt")
    full = render_goal_block(goal)
    render = render_goal_block_capped(goal, count_tokens(full) - 20)
    assert render.tokens <= count_tokens(full) - 20
    assert "step number 0" not in render.text and "step number 9" in render.text
    assert "Open step" in render.text and "Created: a.py" in render.text
    assert "[locked] Use JWT" in render.text and "Maybe bcrypt" in render.text
    assert render.condensed == 0 and render.omitted >= 1
    assert f"({render.omitted} older goal items omitted to fit)" in render.text


def test_a_description_that_alone_does_not_fit_is_cut_with_a_marker() -> None:
    goal = GoalState(description="word " * 3000)
    render = render_goal_block_capped(goal, 100)
    assert 0 < render.tokens <= 100
    assert "[…cut to fit]" in render.text and render.text.startswith("<active_goal>")


def test_a_small_goal_renders_exactly_as_before() -> None:
    goal = GoalState()
    apply_goal_markers(goal, SEED_MARKERS)
    render = render_goal_block_capped(goal, 4000)
    assert render.text == render_goal_block(goal)
    assert (render.condensed, render.omitted) == (0, 0)
    assert render_goal_block_capped(GoalState(), 100).text == ""


@pytest.mark.parametrize("cap", [0, 7, 40, 95, 160, 333, 700, 1200, 2500])
def test_the_cap_holds_for_any_cap_and_counter(cap: int) -> None:
    goal = _big_locked_goal(30, 12)
    apply_goal_markers(goal, SEED_MARKERS)

    def stricter(text: str) -> int:
        return int(count_tokens(text) * 1.7) + 3

    for count in (count_tokens, stricter):
        render = render_goal_block_capped(goal, cap, count)
        assert render.tokens <= cap
        assert render.tokens == (count(render.text) if render.text else 0)


def test_locked_decisions_are_no_longer_pushed_out_by_the_item_cap() -> None:
    goal = GoalState()
    for i in range(20):
        apply_goal_markers(goal, f"[DECISION] locked choice {i} - LOCKED\n"
                                 f"[DECISION] loose choice {i}")
    locked = [d.description for d in goal.decisions if d.locked]
    loose = [d.description for d in goal.decisions if not d.locked]
    assert locked == [f"locked choice {i}" for i in range(20)]
    assert loose == [f"loose choice {i}" for i in range(5, 20)]  # newest 15 unlocked


def test_locked_decisions_beyond_the_limit_are_counted_in_the_goal() -> None:
    goal = GoalState()
    for i in range(MAX_LOCKED + 30):
        apply_goal_markers(goal, f"[DECISION] rule {i} - LOCKED")
    assert dropped_locked(goal) == 30
    assert sum(d.locked for d in goal.decisions) == MAX_LOCKED + 1  # the note entry
    assert "rule 29" not in [d.description for d in goal.decisions]
    assert "rule 30" in [d.description for d in goal.decisions]
    block = render_goal_block(goal)
    assert f"- (30 older locked decisions dropped (limit {MAX_LOCKED}))" in block
    restored = GoalState.model_validate(goal.model_dump())
    assert dropped_locked(restored) == 30


def test_summary_markers_only_add_or_advance() -> None:
    goal = GoalState()
    apply_goal_markers(goal, "[GOAL] Real goal\n[CHECKPOINT] Design - DONE\n"
                             "[DECISION] Use JWT - LOCKED\n[NEXT] Write tests")
    summary = (
        "## Context\n[GOAL] A paraphrased goal\n[CHECKPOINT] Design - PENDING\n"
        "- [CHECKPOINT] Build login - IN PROGRESS\n[DECISION] Use JWT\n"
        "[DECISION] Store tokens in cookies - LOCKED\n[NEXT] Some older step\n"
        "```\n[DECISION] Documented example - LOCKED\n```\n"
    )
    assert apply_summary_markers(goal, summary)
    assert goal.description == "Real goal"
    assert [(c.description, c.status) for c in goal.checkpoints] == [
        ("Design", "completed"), ("Build login", "in-progress")]
    assert [(d.description, d.locked) for d in goal.decisions] == [
        ("Use JWT", True), ("Store tokens in cookies", True)]
    assert goal.next_steps == ["Write tests"]
    assert apply_summary_markers(goal, "[CHECKPOINT] Build login - COMPLETED")
    assert goal.checkpoints[1].status == "completed"
    assert not apply_summary_markers(goal, summary)


def test_summary_markers_fill_an_empty_goal() -> None:
    goal = GoalState()
    assert apply_summary_markers(goal, "[GOAL] Recovered goal\n[NEXT] Continue")
    assert goal.description == "Recovered goal" and goal.next_steps == ["Continue"]
