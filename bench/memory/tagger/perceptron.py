"""An averaged structured perceptron (Collins 2002) with first-order Viterbi, in pure Python,
and an averaged binary perceptron for the message-level label.

Weights are kept as {feature: {tag: weight}}; averaging uses the usual lazy timestamps, so a
training step costs only the features it touches. The model is a few thousand weights: as
JSON it would ship in ``resources/`` in well under a megabyte.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence

from bench.memory.tagger.labels import TAGS


def _allowed(prev: str, tag: str) -> bool:
    """I-X only after B-X or I-X: the BIO constraint, so a span never starts inside."""
    return not tag.startswith("I-") or (prev[2:] == tag[2:] and prev != "O")


class _Averaged:
    def __init__(self) -> None:
        self.w: dict[str, dict[str, float]] = defaultdict(dict)
        self._total: dict[tuple[str, str], float] = defaultdict(float)
        self._stamp: dict[tuple[str, str], int] = defaultdict(int)
        self.step = 0

    def update(self, feat: str, tag: str, delta: float) -> None:
        key = (feat, tag)
        old = self.w[feat].get(tag, 0.0)
        self._total[key] += (self.step - self._stamp[key]) * old
        self._stamp[key] = self.step
        self.w[feat][tag] = old + delta

    def average(self) -> None:
        for (feat, tag), total in self._total.items():
            weight = self.w[feat].get(tag, 0.0)
            total += (self.step - self._stamp[(feat, tag)]) * weight
            self.w[feat][tag] = total / max(self.step, 1)
        self.w = defaultdict(dict, {f: {t: v for t, v in d.items() if v} for f, d in
                                    self.w.items()})

    def size(self) -> int:
        return sum(len(d) for d in self.w.values())


class SequenceTagger(_Averaged):
    """BIO tags for NEW and OLD values."""

    def _scores(self, feats: list[str]) -> dict[str, float]:
        out = dict.fromkeys(TAGS, 0.0)
        for f in feats:
            for tag, v in self.w.get(f, {}).items():
                out[tag] += v
        return out

    def predict(self, features: Sequence[list[str]]) -> list[str]:
        if not features:
            return []
        trans = {(p, t): self.w.get(f"T={p}", {}).get(t, 0.0) for p in (*TAGS, "<s>")
                 for t in TAGS}
        best: list[dict[str, tuple[float, str]]] = []
        first = self._scores(features[0])
        best.append({t: (first[t] + trans[("<s>", t)], "") if not t.startswith("I-")
                     else (float("-inf"), "") for t in TAGS})
        for feats in features[1:]:
            here = self._scores(feats)
            col: dict[str, tuple[float, str]] = {}
            for t in TAGS:
                options = [(best[-1][p][0] + trans[(p, t)], p) for p in TAGS if _allowed(p, t)]
                score, prev = max(options)
                col[t] = (score + here[t], prev)
            best.append(col)
        tag = max(TAGS, key=lambda t: best[-1][t][0])
        out = [tag]
        for col in reversed(best[1:]):
            tag = col[tag][1]
            out.append(tag)
        return out[::-1]

    def train(self, data: Sequence[tuple[list[list[str]], list[str]]], epochs: int = 8,
              seed: int = 28) -> None:
        order = list(range(len(data)))
        rng = random.Random(seed)
        for _ in range(epochs):
            rng.shuffle(order)
            for k in order:
                self.step += 1
                feats, gold = data[k]
                guess = self.predict(feats)
                if guess == gold:
                    continue
                for i, (g, p) in enumerate(zip(gold, guess, strict=True)):
                    gp = gold[i - 1] if i else "<s>"
                    pp = guess[i - 1] if i else "<s>"
                    if g != p or gp != pp:
                        self.update(f"T={gp}", g, 1.0)
                        self.update(f"T={pp}", p, -1.0)
                    if g != p:
                        for f in feats[i]:
                            self.update(f, g, 1.0)
                            self.update(f, p, -1.0)
        self.average()


class MessageClassifier(_Averaged):
    """Supersedes or not, from the message's bag of features."""

    def score(self, feats: list[str]) -> float:
        return sum(self.w.get(f, {}).get("y", 0.0) for f in feats)

    def predict(self, feats: list[str]) -> bool:
        return self.score(feats) > 0

    def train(self, data: Sequence[tuple[list[str], bool]], epochs: int = 10,
              seed: int = 28) -> None:
        order = list(range(len(data)))
        rng = random.Random(seed)
        for _ in range(epochs):
            rng.shuffle(order)
            for k in order:
                self.step += 1
                feats, gold = data[k]
                if self.predict(feats) != gold:
                    for f in feats:
                        self.update(f, "y", 1.0 if gold else -1.0)
        self.average()
