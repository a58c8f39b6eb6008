"""Leave-one-corpus-out: train on every dev half but one, test on that one, beside the rules.

The test halves are dev-5 and dev-real, whose writers had read neither the engine nor the older
corpora: testing on them while training on the rest is the nearest the dev halves come to the
held-out halves (which this probe never opens). The rules' own result per case comes from the
corrections scorer's JSON (``--rules``), of which only dev rows are read.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.memory.tagger.features import message_features, token_features
from bench.memory.tagger.labels import DEV_HALVES, Example, build, spans_of
from bench.memory.tagger.perceptron import MessageClassifier, SequenceTagger
from ollm_desktop.engine.provenance import message_facts


@dataclass
class Tagged:
    example: Example
    tags: list[str]
    supersedes: bool
    new: set[str] = field(default_factory=set)
    old: set[str] = field(default_factory=set)

    @property
    def superseding(self) -> bool:
        """The tagger would replace something: the message supersedes and names a new value."""
        return self.supersedes and bool(self.new)

    @property
    def right(self) -> bool:
        """Exactly the right (new, old) values, and the message read as superseding."""
        ex = self.example
        return self.superseding and self.new == ex.new_values and self.old == ex.old_values


def _covers(gold: set[str], found: set[str]) -> bool:
    """Each gold value overlaps a found one (one contains the other: "12" in "12 people")."""
    return all(any(g in f or f in g for f in found) for g in gold)


def found_pair(superseding: bool, new: set[str], old: set[str], ex: Example) -> bool:
    """Lenient: the message supersedes and every gold NEW and OLD value is among the values
    read as new and old (extra values allowed: keys may still keep them apart). The same
    measure for the tagger and for the rules' own reading."""
    return superseding and _covers(ex.new_values, new) and _covers(ex.old_values, old)


def rules_reading(text: str) -> tuple[bool, set[str], set[str]]:
    """What the rules read in the message (``provenance.message_facts``): whether a sentence
    corrects with a new value, its new values and its replaced values (lower case)."""
    new: set[str] = set()
    old: set[str] = set()
    for found in message_facts(text, "user"):
        if not found.value or found.kind in ("correction", "decision", "question"):
            continue
        if found.old:
            old.add(found.value.lower())
        elif found.correction:
            new.add(found.value.lower())
    return bool(new), new, old


@dataclass
class Model:
    tagger: SequenceTagger
    classifier: MessageClassifier
    stacked: bool

    def tag(self, ex: Example) -> Tagged:
        tags = self.tagger.predict(token_features(ex.text, ex.tokens, self.stacked))
        supersedes = self.classifier.predict(message_features(ex.text, ex.tokens, self.stacked))
        return Tagged(ex, tags, supersedes, spans_of(ex.tokens, ex.text, tags, "NEW"),
                      spans_of(ex.tokens, ex.text, tags, "OLD"))


def train(examples: list[Example], stacked: bool, epochs: int = 8, seed: int = 28) -> Model:
    tagger = SequenceTagger()
    tagger.train([(token_features(e.text, e.tokens, stacked), e.tags) for e in examples], epochs,
                 seed)
    classifier = MessageClassifier()
    classifier.train([(message_features(e.text, e.tokens, stacked), e.supersedes)
                      for e in examples], epochs + 2, seed)
    return Model(tagger, classifier, stacked)


def token_f1(tagged: list[Tagged], kind: str) -> tuple[float, float, float]:
    """Token-level precision, recall and F1 of ``kind`` (NEW or OLD), B and I alike."""
    tp = fp = fn = 0
    for t in tagged:
        for g, p in zip(t.example.tags, t.tags, strict=True):
            gk, pk = g.endswith(kind), p.endswith(kind)
            tp += gk and pk
            fp += pk and not gk
            fn += gk and not pk
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    return prec, rec, 2 * prec * rec / (prec + rec) if prec + rec else 0.0


def rules_rows(path: Path) -> dict[str, dict[str, Any]]:
    """The scorer's per-case rows of the dev halves only (held-out rows are never read)."""
    cases = json.loads(path.read_text(encoding="utf-8"))["cases"]
    return {c["id"]: c for c in cases if c["half"] in DEV_HALVES}


def _share(n: int, of: int) -> str:
    return f"{n}/{of} ({100 * n / of:.0f} %)" if of else "-"


def evaluate(test_half: str, examples: list[Example], rules: dict[str, dict[str, Any]],
             stacked: bool) -> dict[str, Any]:
    train_set = [e for e in examples if e.half != test_half]
    test_set = [e for e in examples if e.half == test_half]
    model = train(train_set, stacked)
    started = time.process_time()
    tagged = [model.tag(e) for e in test_set]
    cpu_ms = 1000 * (time.process_time() - started) / max(len(test_set), 1)
    corrections = [t for t in tagged if t.example.supersedes]
    pairs = [t for t in corrections if t.example.old_values]
    negatives = [t for t in tagged if not t.example.supersedes]
    applied = {t.example.case_id: bool(rules.get(t.example.case_id, {}).get("applied"))
               for t in corrections}
    rule_super = {t.example.case_id: bool(rules.get(t.example.case_id, {}).get("superseded"))
                  for t in negatives}
    failures = [t for t in corrections if not applied[t.example.case_id]]
    union = sum(1 for t in corrections if applied[t.example.case_id] or t.right)
    reading = {t.example.case_id: rules_reading(t.example.text) for t in tagged}
    rules_found = {t.example.case_id: found_pair(*reading[t.example.case_id], t.example)
                   for t in corrections}
    # the tagger can help only where the rules did not even read the values: a failure whose
    # values the rules read is a failure of keys or of the ledger, not of reading
    gated = sum(1 for t in corrections if applied[t.example.case_id] or
                (t.right and not rules_found[t.example.case_id]))
    lenient = {t.example.case_id: found_pair(t.superseding, t.new, t.old, t.example)
               for t in corrections}
    added_wrong = [t.example.case_id for t in negatives
                   if t.superseding and not rule_super[t.example.case_id]]
    return {
        "half": test_half, "stacked": stacked, "train": len(train_set), "test": len(test_set),
        "new_f1": token_f1(tagged, "NEW"), "old_f1": token_f1(tagged, "OLD"),
        "supersedes_acc": _share(sum(t.supersedes == t.example.supersedes for t in tagged),
                                 len(tagged)),
        "tagger_right": _share(sum(t.right for t in corrections), len(corrections)),
        "tagger_pairs": _share(sum(t.right for t in pairs), len(pairs)),
        "rules_pairs": _share(sum(applied[t.example.case_id] for t in pairs), len(pairs)),
        "rules_applied": _share(sum(applied.values()), len(corrections)),
        "rule_failures_tagger_right": _share(sum(t.right for t in failures), len(failures)),
        "fixed_ids": [t.example.case_id for t in failures if t.right],
        "union_applied": _share(union, len(corrections)),
        "gated_applied": _share(gated, len(corrections)),
        "tagger_found_lenient": _share(sum(lenient.values()), len(corrections)),
        "rules_read_lenient": _share(sum(rules_found.values()), len(corrections)),
        "rule_failures_read_by_rules": _share(
            sum(rules_found[t.example.case_id] for t in failures), len(failures)),
        "rule_failures_found_by_tagger_lenient": _share(
            sum(lenient[t.example.case_id] for t in failures), len(failures)),
        "nonsuperseding_tagger_superseding": _share(sum(t.superseding for t in negatives),
                                               len(negatives)),
        "nonsuperseding_rules_superseding": _share(sum(rule_super.values()), len(negatives)),
        "nonsuperseding_added_by_tagger": added_wrong,
        "cpu_ms_per_message": round(cpu_ms, 2),
        "weights": model.tagger.size() + model.classifier.size(),
    }


def run(rules_json: Path, halves: tuple[str, ...] = ("dev-5", "dev-real", "dev-4", "dev-3"),
        stacked_modes: tuple[bool, ...] = (False, True)) -> list[dict[str, Any]]:
    examples, skipped = build()
    rules = rules_rows(rules_json)
    print(f"examples {len(examples)}, skipped (change not in the message) {skipped}")
    results = []
    for stacked in stacked_modes:
        for half in halves:
            results.append(evaluate(half, examples, rules, stacked))
    return results
