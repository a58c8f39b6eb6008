"""The memory benchmark's precision figures (issue 28): the classifier and the run's records.

These check the instrument: a ledger entry of each class is put in that class, repeated text
counts as a duplicate, the ground truth follows the generator (a later fact with the same
question replaces the earlier one), and a short loopback run records the ledger at the
precision turns with its cost figures.
"""

from __future__ import annotations

import json

import pytest

from bench.memory import cli, precision, precision_report
from bench.memory.generator import generate
from bench.memory.ledger_text import Entry


def _truth() -> precision.Truth:
    return precision.Truth(
        user=["8443", "PostgreSQL 16"], assistant=["v2.3.1"], stale=["9000"],
        invented=["lib/models_3.py"], user_decisions=["PostgreSQL 16"],
        user_text="the api listens on 8443. we go with postgresql 16. let me think about it.",
        assistant_text="a rewrite is tempting, but it would hide the bug rather than explain "
                       "it. try lib/models_3.py.")


def _entry(text: str, *notes: str, section: str = "stated by the user:") -> Entry:
    return Entry(section, text, tuple(notes))


@pytest.mark.parametrize(("text", "expected"), [
    ("api port: 8443", "user"),
    ("api port: 9000", "replaced_current"),
    ("api port: 8443 (replaced 9000)", "user"),
    ("tool: v2.3.1", "assistant_fact"),
    ("try opening: lib/models_3.py", "assistant_invented"),
    ("A rewrite is tempting, but it would hide the bug rather than explain it.",
     "assistant_filler"),
    ("Let me think about it.", "user_other"),
    ("something nobody said", "other"),
])
def test_classify(text: str, expected: str) -> None:
    assert precision.classify(text, _truth())[0] == expected


def test_duplicates_and_notes() -> None:
    hedge = "A rewrite is tempting, but it would hide the bug rather than explain it."
    rows = precision.classify_ledger([
        _entry("api port: 8443"), _entry("port: 8443"),
        _entry(hedge, f"earlier, now replaced: {hedge}", "earlier, now replaced: api port 9000",
               "earlier, now replaced: api port 9000"),
    ], _truth())
    assert [r["class"] for r in rows] == ["user", "duplicate", "assistant_filler", "duplicate",
                                          "replaced_note", "duplicate"]
    assert all(r["tokens"] > 0 for r in rows)


def test_record_and_false_supersession() -> None:
    conversation = generate("coding", 40, 1, "short")
    answer = conversation.facts[0].answer
    messages = [{"role": "system", "content": "Facts of this conversation:\nStated by the "
                 f"user:\n- x: 1 (replaced {answer})\n"}]
    turn = conversation.facts[0].turn
    played = [("user", t.user) for t in conversation.turns[: turn + 1]]
    rec = precision.record(conversation, messages, turn, played, [], [])
    assert rec["turn"] == turn + 1 and rec["ledger_tokens"] > 0
    if conversation.facts[0].stale is None:
        assert conversation.facts[0].answer in rec["false_supersessions"]


def test_a_later_fact_with_the_same_question_replaces_the_earlier() -> None:
    """...when it has the authority to: the user's later value replaces anything; a reply's
    later value replaces a reply's, never the user's (the ledger is the user's)."""
    checked = set()
    for seed in range(1, 6):
        conversation = generate("coding", 150, seed, "short")
        truth = precision.truth_at(conversation, 149, [], [])
        for earlier in conversation.facts:
            # every later statement of the question: a fact's value, or the stale value a
            # later fact corrects, said after this one (turn order, not the correction's)
            later = [(f.turn, f.speaker) for f in conversation.facts
                     if f.question == earlier.question and f.turn > earlier.turn
                     and f.answer != earlier.answer] + \
                [(f.stale_turn, f.stale_speaker or "user") for f in conversation.facts
                 if f.question == earlier.question and f.stale_turn is not None
                 and f.stale_turn > earlier.turn and f.stale != earlier.answer]
            if not later:
                continue
            if any(speaker == "user" for _, speaker in later) or \
                    earlier.speaker == "assistant":
                assert earlier.answer in truth.stale
                assert earlier.answer not in truth.user + truth.assistant
                checked.add("replaced")
            else:
                assert earlier.answer in truth.user and earlier.answer not in truth.stale
                checked.add("kept")
    assert checked == {"replaced", "kept"}


def test_a_replys_correction_leaves_the_users_value_current() -> None:
    """The generator's reply that corrects the user's value ("we target v7.14.9 instead; v6.30.9
    is superseded", the old value stated by the user): by the issue's rule the user's value
    stands until the user adopts the reply's, so it is a user fact, not a replaced one."""
    found = 0
    for seed in range(1, 6):
        conversation = generate("coding", 150, seed, "short")
        truth = precision.truth_at(conversation, 149, [], [])
        later = {(f.question, f.turn) for f in conversation.facts}
        for fact in conversation.facts:
            if fact.stale is None or fact.stale_turn is None or fact.speaker != "assistant" \
                    or (fact.stale_speaker or "user") != "user" \
                    or any(q == fact.question and t > fact.turn for q, t in later) \
                    or any(f.question == fact.question and f.stale_speaker == "user"
                           and (f.stale_turn or 0) > fact.stale_turn for f in conversation.facts):
                continue  # (the user moved on from it: 20456, then 36581, of one port)
            assert fact.stale in truth.user and fact.stale not in truth.stale
            assert fact.answer in truth.assistant
            found += 1
    assert found > 0


def test_a_short_run_records_precision(tmp_path) -> None:
    assert cli.main(["--loopback", "--summariser", "fact-free", "--replies", "noisy",
                     "--ctx", "2048", "--turns", "30", "--seeds", "1", "--kinds", "coding",
                     "--filler", "short", "--strategies", "ollm", "--out", str(tmp_path),
                     "--label", "p"]) == 0
    data = json.loads((tmp_path / "memory-p.json").read_text())
    run = data["runs"][0]
    assert [p["turn"] for p in run["precision"]] == [25, 30]
    for point in run["precision"]:
        assert point["junk_share"] is None or 0 <= point["junk_share"] <= 1
        assert set(point["tokens"]) <= set(precision.CLASSES)
        assert point["panel"]["rows"] >= point["panel"]["shown"]
    assert run["cost"]["compactions"] == len(run["cost"]["compaction_cpu_s"])
    assert run["cost"]["message_versions"] >= 60
    figures = data["precision"]["2048"]
    assert set(figures["turns"]) == {"25", "30"}
    text = precision_report.table(data["precision"])
    assert "| 2K |" in text and "extractions per message version" in text


@pytest.mark.parametrize("kind", ["coding", "research"])
def test_the_chat_draws_the_users_phrasings_from_both_halves(kind: str) -> None:
    from bench.memory.generator import verify

    halves: set[str] = set()
    for seed in (1, 2, 3):
        conversation = generate(kind, 150, seed, "short")
        assert verify(conversation) == []
        drawn = [f for f in conversation.facts if f.half]
        assert len({f.phrasing for f in drawn}) >= 4
        for fact in drawn:
            halves.add(fact.half)
            said = " ".join(conversation.turns[t].user for t in fact.also_turns)
            assert fact.answer in said and all(d in said for d in fact.decoys)
            assert fact.speaker == "user" and fact.subject in fact.paraphrase
    assert halves == {"dev", "heldout"}


def test_noisy_replies_hedge_suggest_and_rival_the_users_values() -> None:
    from bench.memory import noisy

    conversation = generate("coding", 150, 1, "short")
    texts = " ".join(text for text, _ in noisy.replies(conversation))
    assert sum(h in texts for h in noisy.HEDGES) >= 3
    assert any(t.split("{x}")[0] in texts for t in noisy.SUGGESTIONS)
    subjects = {s for s, _ in noisy._user_subjects(conversation, 150)}
    assert any(f"For {s}, " in texts or f"put {s} on" in texts for s in subjects)


def test_each_code_built_checkpoint_is_scored_on_the_decisions_it_summarised() -> None:
    """The recorder sees every code-built checkpoint of a run (the engine's own function) and
    scores it on the user's decisions of the messages it was built from; it puts the engine's
    function back when stopped."""
    from bench.memory import checkpoint_builds
    from ollm_desktop.engine import extractive

    conversation = generate("coding", 150, 1, "short")
    decision = next(f for f in conversation.facts if f.type == "decision" and f.speaker == "user")
    original = extractive.extractive_checkpoint
    recorder = checkpoint_builds.start()
    try:
        span = [("user", conversation.turns[decision.turn].user),
                ("assistant", "A rewrite is tempting, but it would hide the bug rather than "
                              "explain it.")]
        extractive.extractive_checkpoint(span, target_tokens=300)
        extractive.extractive_checkpoint([("user", "Hello there.")], target_tokens=300)
    finally:
        recorder.stop()
    assert extractive.extractive_checkpoint is original
    figures = checkpoint_builds.figures(conversation, recorder)
    assert figures["builds"] == 2
    assert figures["user_decisions_in_span"] == 1 and figures["user_decisions_kept"] == 1
    assert figures["filler_lines"] == 0
    recorder.builds[0].text = "## Decisions & Conclusions\n- A rewrite is tempting, but it " \
        "would hide the bug rather than explain it."
    figures = checkpoint_builds.figures(conversation, recorder)
    assert figures["user_decisions_kept"] == 0 and figures["filler_lines"] == 1


@pytest.mark.parametrize(("text", "expected"), [
    ("constraint: Fridays", "user_part"),  # of "no deploys on Fridays"
    ("p99 latency: 796 ms", "user_part"),  # of "p99 latency stays under 796 ms"
    ("day: Fridays (replaced Mondays)", "user_part"),
    ("setting: read", "user_other"),  # a word of the user's, no value of theirs
    ("deploys: no", "user_other"),  # too short to be a value's part
    ("p99 latency: 900 ms", "other"),  # not the user's number
])
def test_a_part_of_the_users_value_is_the_users(text: str, expected: str) -> None:
    """A classifier fix (issue 28's panel and junk figures): an entry whose value is a
    distinctive part of a user's value (a name, a number with its unit) is the user's fact in
    fewer words, not text of no fact."""
    truth = precision.Truth(user=["no deploys on Fridays", "p99 latency stays under 796 ms"],
                            stale=["Mondays"], user_text="setting it to read only. deploys: no.")
    assert precision.classify(text, truth)[0] == expected


def test_the_panel_share_counts_adopted_rows_and_the_users_parts() -> None:
    truth = precision.Truth(user=["no deploys on Fridays"], assistant=["v2.3.1"])
    rows = [{"text": "constraint: Fridays", "shown": True, "source": "user", "status": "current"},
            {"text": "tool: v2.3.1", "shown": True, "source": "adopted", "status": "current"},
            {"text": "setting: read", "shown": True, "source": "user", "status": "current"},
            {"text": "tool: v9", "shown": False, "source": "assistant", "status": "current"}]
    figures = precision.panel_figures(rows, truth)
    assert figures["shown"] == 3 and figures["user_or_adopted"] == 2


def test_a_replaced_value_marked_with_its_replacement_is_not_shown_as_current() -> None:
    """As ``retention``'s strict check reads a ledger entry: a replaced value whose own note
    says "(possibly) replaced by" the value that replaced it is marked, not current (and not
    junk); marked with another value, or not marked, it is shown as current."""
    truth = precision.Truth(user=["tarpon-vault"], stale=["merlin-gate"],
                            replacements={"merlin-gate": ["tarpon-vault"]})
    assert precision.classify("parameter sweep: merlin-gate (possibly replaced by "
                              "tarpon-vault (turn 54))", truth)[0] == "replaced_marked"
    assert precision.classify("parameter sweep: merlin-gate (possibly replaced by "
                              "heron-gate (turn 54))", truth)[0] == "replaced_current"
    assert precision.classify("parameter sweep: merlin-gate", truth)[0] == "replaced_current"
    conversation = generate("coding", 150, 1, "short")
    truth = precision.truth_at(conversation, 149, [], [])
    assert set(truth.replacements) <= set(truth.stale) and truth.replacements


def test_the_panel_reader_reads_an_adopted_row_as_adopted() -> None:
    """The engine's row says who stated the value ("assistant") and whether the user made it
    theirs (``Fact.users``): the reader reports such a row as adopted."""
    from types import SimpleNamespace

    from bench.memory.ledger_text import panel_rows

    def row(source: str, users: bool) -> SimpleNamespace:
        fact = SimpleNamespace(users=users)
        return SimpleNamespace(status="current", subject="tool", value="v2", source=source,
                               fact=fact, shown_by_default=True)

    engine = SimpleNamespace(facts_view=lambda: SimpleNamespace(
        rows=[row("assistant", True), row("assistant", False), row("user", True)]))
    assert [r["source"] for r in panel_rows(engine)] == ["adopted", "assistant", "user"]


def _keyed_truth() -> precision.Truth:
    """Two keys: a port the user moved (20456, then 36581; a reply claims 41581) and a venue;
    a learning rate and a batch size."""
    return precision.Truth(
        user=["36581", "Hotel Flandria", "1e-3", "0.1", "Pulumi"], assistant=["41581"],
        stale=["20456", "Terraform 1.5"], question_of={
            "36581": "port", "20456": "port", "41581": "port", "hotel flandria": "venue",
            "1e-3": "lr", "0.1": "dropout", "pulumi": "iac", "terraform 1.5": "iac"})


@pytest.mark.parametrize(("ledger", "expected"), [
    # the reply's unconfirmed claim beside the user's value of its own key: not sent as a
    # value, no false supersession (the first measure counted 41581)
    (["gateway port: 36581 (replaced 20456) (a reply said replaced by 41581; unconfirmed)",
      "venue: Hotel Flandria", "learning rate: 1e-3", "dropout: 0.1", "iac: Pulumi"], []),
    # a venue replaced by an IaC tool: another key's value
    (["gateway port: 36581", "Pulumi (replaced Hotel Flandria, Terraform 1.5)",
      "learning rate: 1e-3", "dropout: 0.1"], ["Hotel Flandria"]),
    # a user's value of another key absorbed as a possible replacement, not its own entry
    (["gateway port: 36581", "venue: Hotel Flandria", "iac: Pulumi",
      "learning rate: 1e-3 (possibly replaced by 0.1 (turn 55))"], ["0.1"]),
    # ... and as a replacement of a line that is no value at all
    (["gateway port: 36581", "venue: Hotel Flandria", "iac: Pulumi", "dropout: 0.1",
      "control (possibly replaced by 1e-3 (turn 9))"], ["1e-3"]),
    # the same value shown as current elsewhere: not lost
    (["gateway port: 36581", "venue: Hotel Flandria", "iac: Pulumi", "dropout: 0.1",
      "learning rate: 1e-3", "control (possibly replaced by 1e-3 (turn 9))"], []),
    # a value missing from the ledger is a recall miss, not a supersession
    (["gateway port: 36581"], []),
])
def test_a_false_supersession_is_a_value_replaced_by_another_keys(
        ledger: list[str], expected: list[str]) -> None:
    entries = [_entry(text) for text in ledger]
    assert precision.false_supersessions(entries, [], _keyed_truth()) == expected


def test_a_panel_row_holding_another_keys_value_in_its_history_is_a_false_supersession() -> None:
    truth = _keyed_truth()
    rows = [{"text": "iac: Pulumi", "shown": True, "status": "current", "source": "user",
             "history": ["Terraform 1.5", "Hotel Flandria"]},
            {"text": "gateway port: 36581", "shown": True, "status": "current",
             "source": "user", "history": ["20456", "41581"]}]
    everything = [_entry(f"x: {v}") for v in ("36581", "Hotel Flandria", "1e-3", "0.1",
                                              "Pulumi", "41581")]
    assert precision.false_supersessions(everything, rows, truth) == ["Hotel Flandria"]


def test_a_questions_statements_are_replayed_in_the_order_they_were_said() -> None:
    """Coding seed 1: the user gives the gateway 20456 (turn 100), 10291 (109) and 36581
    (115); replies correct them later (41990 at 120, 21968 at 133, 41581 at 140). The user's
    last value is current, the reply's last one is an assistant fact."""
    conversation = generate("coding", 150, 1, "short")
    truth = precision.truth_at(conversation, 149, [], [])
    assert "36581" in truth.user and "41581" in truth.assistant
    assert {"20456", "10291", "41990", "21968"} <= set(truth.stale)
    assert "20456" not in truth.user
    assert truth.question_of["20456"] == truth.question_of["41581"]


def test_a_replaced_value_is_replaced_by_every_later_value_of_its_question() -> None:
    """A line naming the newest value beside an older one ("meeting: room X (possibly
    replaced by room Z)", with room Y said in between) shows the older as replaced."""
    conversation = generate("coding", 150, 1, "short")
    truth = precision.truth_at(conversation, 149, [], [])
    assert {"10291", "36581"} <= set(truth.replacements["20456"])
    assert "41581" not in truth.replacements["20456"]  # (a reply's never replaces the user's)
