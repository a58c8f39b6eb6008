"""The tagger probe (bench/memory/tagger): labels from a case's keys, and a tagger that learns."""

from __future__ import annotations

import pytest

from bench.memory.tagger.labels import example, load_half, spans_of
from bench.memory.tagger.probe import train


def _case(cid: str, text: str, new: str, old: str, supersedes: bool = True) -> dict:
    keys = [{"key": "k", "current": new, "replaced": [old] if supersedes else [],
             "not_current": []}]
    return {"id": cid, "half": "dev", "polarity": "correction" if supersedes else "negative",
            "message": {"role": "user", "text": text},
            "expect": {"supersedes": supersedes, "keys": keys}}


def test_labels_mark_new_and_old_where_the_message_names_them() -> None:
    ex = example(_case("a", "Bump the timeout from 30 s to 45 s.", "45 s", "30 s"))
    assert ex is not None
    words = [t[0] for t in ex.tokens]
    assert ex.tags[words.index("45")] == "B-NEW" and ex.tags[words.index("45") + 1] == "I-NEW"
    assert ex.tags[words.index("30")] == "B-OLD"
    assert spans_of(ex.tokens, ex.text, ex.tags, "NEW") == {"45 s"}
    assert ex.old_values == {"30 s"}


def test_a_value_inside_a_longer_number_is_not_located_and_the_case_is_skipped() -> None:
    assert example(_case("b", "Port 18443 it is.", "8443", "80")) is None


def test_a_negative_has_no_new_value() -> None:
    ex = example(_case("c", "Should we switch to port 5434?", "5432", "", supersedes=False))
    assert ex is not None and set(ex.tags) == {"O"} and not ex.supersedes


def test_held_out_halves_are_refused() -> None:
    with pytest.raises(ValueError):
        load_half("heldout-4")


def test_the_tagger_learns_new_and_old_from_a_tiny_set() -> None:
    ports = [("9443", "8443"), ("7000", "6000"), ("5434", "5432"), ("8081", "8080"),
             ("3001", "3000"), ("9201", "9200")]
    cases = []
    for n, (new, old) in enumerate(ports):
        cases.append(_case(f"n{n}", f"The port is now {new}, not {old}.", new, old))
        cases.append(_case(f"f{n}", f"Move the port from {old} to {new}.", new, old))
        cases.append(_case(f"q{n}", f"Should we move the port to {new}?", old, "",
                           supersedes=False))
    examples = [e for e in (example(c) for c in cases) if e is not None]
    model = train(examples, stacked=False, epochs=6)
    unseen = example(_case("u", "Move the port from 4040 to 4141.", "4141", "4040"))
    question = example(_case("v", "Should we move the port to 4141?", "4040", "",
                             supersedes=False))
    assert unseen is not None and question is not None
    got = model.tag(unseen)
    assert got.new == {"4141"} and got.old == {"4040"} and got.right
    assert not model.tag(question).superseding


def test_the_add_policy_gives_a_value_the_rules_did_not_read_as_a_keyless_correction() -> None:
    from bench.memory.tagger.combined import checked

    names = [("Wessex", "Shipton"), ("Marlow", "Hendon"), ("Kestrel", "Osprey"),
             ("Juniper", "Cedar"), ("Quill", "Ink"), ("Tarn", "Fell")]
    cases = [_case(f"n{n}", f"Use {new} instead of {old} from now on.", new, old)
             for n, (new, old) in enumerate(names)]
    cases += [_case(f"q{n}", f"Could we use {new} someday?", old, "", supersedes=False)
              for n, (new, old) in enumerate(names)]
    model = train([e for e in (example(c) for c in cases) if e is not None], stacked=False)
    text = "Use Brantwood instead of Ashcombe from now on."
    added = [f for f in checked(model, "add", text, []) if f.correction]
    assert [(f.value, f.old, f.key.startswith("||")) for f in added] == [
        ("Brantwood", False, True), ("Ashcombe", True, True)]
    assert checked(model, "add", "Could we use Brantwood someday?", []) == []
