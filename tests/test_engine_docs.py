"""docs/engine.md cannot rot: its example runs, its tables match the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ollm_desktop.engine import EngineConfig, level_targets, tier_for, usable_tokens

DOC = Path(__file__).resolve().parents[1] / "docs" / "engine.md"


def _example() -> str:
    text = DOC.read_text(encoding="utf-8")
    marker = text.index("<!-- runnable-example")
    match = re.search(r"```python\n(.*?)\n```", text[marker:], re.DOTALL)
    assert match, "the runnable example block is missing"
    return match.group(1)


def test_the_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(_example(), str(DOC), "exec"), {"__name__": "docs_example"})
    out = capsys.readouterr().out
    assert "compacted -" in out
    assert "Minimal" in out
    assert "The last compaction was undone." in out


def _table_rows(heading: str) -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index(heading) :]
    rows = []
    for line in section.splitlines()[1:]:
        if line.startswith("## "):
            break
        if line.startswith("|") and not line.startswith("|--"):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows[1:]  # without the header


def _size(label: str) -> int:
    return int(label.rstrip("K")) * 1024


def _budget_row(label: str) -> list[str]:
    """The row the code implies for ``label``: num_ctx | usable | level 3 / 2 / 1 target."""
    config = EngineConfig(context_size=_size(label))
    targets = level_targets(config)
    return [label, f"{usable_tokens(config):,}",
            " / ".join(f"{targets[level]:,}" for level in (3, 2, 1))]


def test_budget_table_matches_the_code() -> None:
    rows = [r for r in _table_rows("## Budget") if r[0].endswith("K")]
    assert len(rows) == 5
    # Whole rows, so a stale doc fails with the exact rows to write.
    assert rows == [_budget_row(label) for label, *_ in rows]


def test_tier_table_matches_the_code() -> None:
    rows = _table_rows("## Tiers")
    assert len(rows) == 5
    for number, (tier, ctx, checkpoints, _) in enumerate(rows, start=1):
        assert tier.startswith(str(number))
        top = re.findall(r"(\d+)K", ctx)[-1]
        spec = tier_for(int(top) * 1024)
        assert spec.tier == number
        assert int(checkpoints.split(",")[0]) == spec.max_checkpoints
