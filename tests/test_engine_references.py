"""Critical identifiers survive a summary: the engine appends what the model dropped."""

from __future__ import annotations

from ollm_desktop.engine import ContextEngine, EngineConfig
from ollm_desktop.engine.references import extract_references, key_references_line
from ollm_desktop.engine.tokens import count_tokens
from tests.engine_fakes import GoodSummarizer, ScriptedSummarizer, compact, text_of_tokens, words

REFS = ["src/app/main.py", "https://example.com/docs/setup", "load_config()", "250 ms", "Phoenix"]


def _engine(summarizer: GoodSummarizer | ScriptedSummarizer) -> ContextEngine:
    engine = ContextEngine(EngineConfig(context_size=8192, min_messages=2), summarizer)
    engine.add(
        "user",
        "The entry point is src/app/main.py and the guide is at "
        "https://example.com/docs/setup. Let's call it Phoenix.",
    )
    engine.add("assistant", "Then `load_config()` must return within 250 ms. " + words(200))
    for turn in range(8):
        engine.add("user", f"question {turn}")
        engine.add("assistant", words(200, turn))
    return engine


def test_extraction_finds_each_kind() -> None:
    found = extract_references(
        [
            "Edit src/app/main.py, see https://example.com/docs/setup, run `load_config()`,"
            " it takes 250 ms. I named it Phoenix."
        ]
    )
    for ref in REFS:
        assert ref in found


def test_dropped_identifiers_are_appended_and_recall_reported() -> None:
    engine = _engine(GoodSummarizer())  # mentions none of them
    report = compact(engine, force=True)
    assert report.status == "compacted"
    assert report.recall == 0.0
    group = engine.groups[0]
    assert "Key references: " in group.summary
    for ref in REFS:
        assert ref in group.summary
        assert ref in group.key_references
    assert report.missing_references == []
    assert group.recall == 0.0


def test_recall_counts_what_the_model_kept_itself() -> None:
    def keeps_two(prompt: list[dict[str, str]]) -> str:
        return "## Key Information\n- src/app/main.py and Phoenix\n" + text_of_tokens(40, "")

    engine = _engine(ScriptedSummarizer(keeps_two))
    report = compact(engine, force=True)
    assert report.status == "compacted"
    assert report.recall is not None
    total = len(engine.groups[0].key_references)
    assert report.recall == 1 - (total - 2) / total
    line = engine.groups[0].summary.split("Key references: ")[1]
    assert "Phoenix" not in line and "250 ms" in line


def test_references_line_respects_its_token_cap() -> None:
    many = [f"src/pkg{i}/module_{i}.py" for i in range(40)]
    line, added = key_references_line(many, 60)
    assert count_tokens(line) <= 60
    assert 0 < len(added) < len(many)
    assert added == many[: len(added)]
    assert key_references_line(many, 5) == ("", [])


def test_unfitting_references_are_reported_missing() -> None:
    summarizer = GoodSummarizer()
    engine = ContextEngine(EngineConfig(context_size=4096, min_messages=2), summarizer)
    for turn in range(10):
        paths = " ".join(f"src/area{turn}/part{i}/file_{turn}_{i}.py" for i in range(6))
        engine.add("user", f"look at {paths}")
        engine.add("assistant", words(120, turn))
    report = compact(engine, force=True)
    assert report.status == "compacted"
    assert report.missing_references  # cap reached: the report says which
    summary = engine.groups[0].summary
    assert all(ref not in summary for ref in report.missing_references)


def test_sentence_punctuation_is_not_part_of_a_path() -> None:
    found = extract_references(["Open src/app/main.py. Then see /etc/hosts, and ./run.sh!"])
    assert "src/app/main.py" in found and "src/app/main.py." not in found
    assert "/etc/hosts" in found and "./run.sh" in found
