"""What each compaction kept of the user's facts: the evidence behind the reliability level."""

from __future__ import annotations

from ollm_desktop.engine import ContextEngine, EngineConfig, EngineState
from ollm_desktop.engine.fact_keeping import loss_shares, measure
from tests.engine_fakes import chat, compact


def test_a_fact_is_kept_in_the_summary_the_ledger_or_a_verbatim_message() -> None:
    material = [("user", "The config is /etc/app.toml and port 8443 is open."),
                ("assistant", "Then v2.1 of the service reads /etc/app.toml."),
                ("user", "Staging is called bluefin-7.")]
    result = measure(material, verbatim=["Staging is called bluefin-7."],
                     summary="## Context\nThe service reads /etc/app.toml.", ledger=["v2.1"])
    assert result.user_facts == 3 and result.user_facts_kept == 2
    assert result.lost == ["8443"]
    # the reply's v2.1 is recall's, not counted (issue 28: the ledger is the user's)
    assert result.identifiers == 3 and result.identifiers_kept == 2
    assert 0.33 < result.lost_share < 0.34
    none = measure([("assistant", "Use v3.0.")], verbatim=[], summary="", ledger=[])
    assert none.user_facts == 0 and none.lost_share == 0.0


def test_every_compaction_records_what_it_kept_and_the_record_survives_folds_and_reloads() -> None:
    config = EngineConfig(context_size=2048, min_messages=2, preserve_user_messages=False)
    engine, _ = chat(config)
    for turn in range(30):
        engine.add("user", f"Turn {turn}: please look at src/module_{turn}.py now.")
        engine.add("assistant", f"Reply {turn}: `helper_{turn}()` takes 35 ms. " + "ok " * 60)
        if engine.needs_compaction():
            assert compact(engine).status == "compacted"
    assert engine.compaction_count >= 2
    group = engine.groups[-1]  # 2K: one rolling checkpoint folds every compaction
    measured = [s for s in group.history if s.user_facts is not None]
    assert len(measured) == engine.compaction_count
    # The ledger keeps every identifier the user gave: nothing was lost, nothing costs.
    assert all(s.user_facts and s.user_facts_kept == s.user_facts for s in measured)
    assert loss_shares(engine.groups) == [0.0] * engine.compaction_count
    again = ContextEngine.from_state(EngineState.model_validate_json(
        engine.state().model_dump_json()), None, engine._summarize)
    assert again.groups[-1].history == group.history
    engine.undo_last_compaction()
    assert len(loss_shares(engine.groups)) == engine.compaction_count


def test_a_compaction_that_lost_facts_costs_in_proportion() -> None:
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2,
                                  preserve_user_messages=False), turns=8)
    assert compact(engine, force=True).status == "compacted"
    step = engine.groups[-1].history[-1]
    assert step.user_facts and not step.lost_facts
    # What a later ledger without them would mean: the step's record sets the penalty.
    step.user_facts_kept = step.user_facts // 2
    share = 1 - step.user_facts_kept / step.user_facts
    assert engine.reliability().compression_penalty == round(1 - 0.15 * share, 4)


def test_a_state_saved_before_the_measure_loads_and_costs_nothing() -> None:
    engine, _ = chat(EngineConfig(context_size=8192, min_messages=2), turns=8)
    compact(engine, force=True)
    data = engine.state().model_dump(mode="json")
    for group in data["groups"]:
        for step in group["history"]:
            for key in ("user_facts", "user_facts_kept", "identifiers", "identifiers_kept",
                        "lost_facts"):
                step.pop(key)
    old = ContextEngine.from_state(EngineState.model_validate(data), None, engine._summarize)
    assert loss_shares(old.groups) == []
    assert old.reliability().compression_penalty == 1.0
