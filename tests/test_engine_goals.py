"""Goal markers in assistant output, and the never-compressed goal block."""

from __future__ import annotations

from ollm_desktop.engine import EngineConfig, GoalState, apply_goal_markers, render_goal_block
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
    assert block in system["content"]
    assert "[locked] Use JWT for authentication" in block
    assert compact(engine, force=True).status == "compacted"
    assert block in engine.api_messages()[0]["content"]
    assert (
        "ACTIVE GOAL: Implement user authentication system" in summarizer.prompts[0][-1]["content"]
    )
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
