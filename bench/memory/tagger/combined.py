"""The tagger checking the rules, end to end through the corrections scorer, without changing
the engine: ``python -m bench.memory.tagger.combined --policy filter``.

The tagger is trained on every dev half; then, in this process only, the engine's per-message
extraction (``facts_extract.message_facts``) is wrapped so that the tagger checks what the rules
read in a user's message:

- ``filter``: where the tagger names new values, a value the rules read as a correction's new
  value but the tagger leaves out is kept as a plain statement (``correction=False``);
- ``veto``: where the message classifier reads no supersession and the tagger names no new
  value, the message's values are kept as statements and its replaced values dropped;
- ``both``: the two;
- ``add``: where the message supersedes (classifier) and the tagger names a new value the rules
  read nowhere, it is added as a keyless correction (key "||unit", the engine's own "refers
  back" form), with the replaced values the tagger names as its old values.

It prints each half's totals only (corrections applied, non-corrections superseding): the
held-out halves are scored here, by the scorer, and none of their rows is printed or kept.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
from dataclasses import replace

from bench.memory import corrections, corrections_report
from bench.memory.tagger.features import message_features, token_features
from bench.memory.tagger.labels import build, spans_of, tokenize
from bench.memory.tagger.probe import Model, train
from ollm_desktop.engine import facts_extract
from ollm_desktop.engine.fact_keys import unit_class
from ollm_desktop.engine.provenance import Found
from ollm_desktop.engine.references import find_references

SENTENCE_KINDS = ("correction", "decision", "question")


def _new_spans(model: Model, text: str) -> tuple[list[tuple[int, int]], bool]:
    tokens = tokenize(text)
    tags = model.tagger.predict(token_features(text, tokens, model.stacked))
    spans: list[tuple[int, int]] = []
    for (_, start, end), tag in zip(tokens, tags, strict=True):
        if tag == "B-NEW":
            spans.append((start, end))
        elif tag == "I-NEW" and spans:
            spans[-1] = (spans[-1][0], end)
    supersedes = model.classifier.predict(message_features(text, tokens, model.stacked))
    return spans, supersedes


def _added(model: Model, text: str, found: list[Found], spans: list[tuple[int, int]]
           ) -> list[Found]:
    """Keyless corrections for the tagger's new (and old) values the rules did not read."""
    tokens = tokenize(text)
    tags = model.tagger.predict(token_features(text, tokens, model.stacked))
    lower = text.lower()  # (spans_of gives lower case: the message's own spelling back)
    olds = [text[lower.find(o):lower.find(o) + len(o)] for o in
            sorted(spans_of(tokens, text, tags, "OLD"))]
    kinds = {ref.lower(): kind for ref, kind in find_references(text)}
    read = " ".join(f.value.lower() for f in found if f.value)
    out = list(found)
    for start, end in spans:
        value = text[start:end]
        if value.lower() in read:
            continue
        ref_kind = kinds.get(value.lower(), "name")
        unit = unit_class(value, ref_kind, "")
        key = f"||{unit}"
        out.append(Found("name" if ref_kind == "name" else "number", value, "", ref_kind, True,
                         key=key))
        out += [Found("name" if ref_kind == "name" else "number", old, "", ref_kind, True,
                      old=True, key=key) for old in olds if old.lower() not in read]
    return out


def checked(model: Model, policy: str, text: str, found: list[Found]) -> list[Found]:
    """The rules' facts of one user message, as the tagger lets them stand."""
    spans, supersedes = _new_spans(model, text)
    out = list(found)
    if policy == "add" and supersedes and spans:
        return _added(model, text, out, spans)
    if policy in ("veto", "both") and not supersedes and not spans:
        out = [replace(f, correction=False) for f in out if not f.old]
    if policy in ("filter", "both") and spans:
        kept = []
        for f in out:
            at = text.find(f.value) if f.value else -1
            named = at >= 0 and any(s < at + len(f.value) and e > at for s, e in spans)
            loose = f.correction and not f.old and f.kind not in SENTENCE_KINDS and at >= 0
            kept.append(replace(f, correction=False) if loose and not named else f)
        out = kept
    return out


def patch(model: Model, policy: str) -> Callable[[], None]:
    """Wrap the engine's extraction in this process; returns the undo."""
    original = facts_extract.message_facts

    def wrapped(content: str, role: str = "user") -> list[Found]:
        found = original(content, role)
        return checked(model, policy, content, found) if role == "user" else found

    facts_extract.message_facts = wrapped
    return lambda: setattr(facts_extract, "message_facts", original)


def totals(ctx: int) -> dict[str, dict[str, dict[str, int]]]:
    summary = corrections_report.summarise(asyncio.run(corrections.run_corpus(ctx)))[str(ctx)]
    return {half: {"applied": s["corrections_applied"],
                   "nonsuperseding": s["negatives_superseding"]}
            for half, s in summary.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--policy", choices=("none", "filter", "veto", "both", "add"),
                        default="filter")
    parser.add_argument("--stacked", action="store_true", help="the tagger also reads the rules")
    parser.add_argument("--ctx", type=int, default=4096)
    parser.add_argument("--without", default="", help="a dev half left out of training, so "
                        "its row is a leave-one-corpus-out figure")
    args = parser.parse_args()
    examples, _ = build()
    examples = [e for e in examples if e.half != args.without]
    model = train(examples, args.stacked)
    undo = patch(model, args.policy) if args.policy != "none" else (lambda: None)
    try:
        for half, t in totals(args.ctx).items():
            a, s = t["applied"], t["nonsuperseding"]
            print(f"{half:13} applied {a['n']}/{a['of']}  negatives superseding "
                  f"{s['n']}/{s['of']}")
    finally:
        undo()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
