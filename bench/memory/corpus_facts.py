"""The user's corrections and facts in a generated chat, drawn from the phrasing corpus.

The generator's own corrections use a few fixed sentences ("Correction: the gateway moved to
port N"), which is what the engine was tuned to. Here cases of ``bench/memory/corpus`` (both
halves, alternately) are written into the user's messages of a generated chat: the message that
establishes a value at one turn, the message under test (a correction, a question, a
hypothetical, a suggestion...) some turns later. Each key becomes a fact of the conversation
with the case's half recorded, and the values a negative only mentions become ``decoys`` (they
must never be shown as current). A case is used only when none of its values occurs anywhere
else in the chat, so retention and precision stay unambiguous. Deterministic per kind, length
and seed (``random.Random`` only), and it changes nothing else of the chat.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.memory.retention import normalise

if TYPE_CHECKING:
    from bench.memory.generator import Conversation

CORPUS = Path(__file__).resolve().parent / "corpus"
HALVES = ("dev", "heldout")
TURNS_PER_CASE = 18  # one case per this many turns, at most MAX_CASES
MAX_CASES = 8
GAP = (4, 25)  # turns between the establishing message and the message under test


def _load(half: str) -> list[dict[str, Any]]:
    lines = (CORPUS / f"{half}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _values(case: dict[str, Any]) -> list[str]:
    return [v for k in case["expect"]["keys"]
            for v in (k["current"], *k["replaced"], *k["not_current"])]


def eligible(case: dict[str, Any]) -> bool:
    """A user's case with at most one establishing user message and distinctive values."""
    return (case["message"]["role"] == "user" and len(case["history"]) <= 1
            and all(m["role"] == "user" for m in case["history"])
            and all(len(normalise(v)) >= 3 for v in _values(case)))


def _clashes(case: dict[str, Any], texts: list[str], taken: list[str]) -> bool:
    values = [normalise(v) for v in _values(case)]
    return any(v in text for v in values for text in texts) or \
        any(v in t or t in v for v in values for t in taken)


def plant(conversation: Conversation) -> None:
    """Write corpus cases into the user's free messages and add their facts (in place)."""
    from bench.memory.generator import Fact
    from bench.memory.questions import words

    turns = conversation.turns
    count = len(turns)
    rng = random.Random(f"bench.memory/corpus/{conversation.kind}/{count}/{conversation.seed}")
    pools = {half: [c for c in _load(half) if eligible(c)] for half in HALVES}
    for pool in pools.values():
        rng.shuffle(pool)
    free = [t.index for t in turns if not t.user_facts and 0 < t.index < count - 1]
    used: set[int] = set()
    taken = [normalise(v) for f in conversation.facts for v in (f.answer, f.stale) if v]
    wanted = min(MAX_CASES, count // TURNS_PER_CASE)
    for number in range(wanted):
        half = HALVES[number % 2]
        texts = [normalise(t.user + "\n" + t.assistant) for t in turns]
        case = next((c for c in pools[half] if not _clashes(c, texts, taken)), None)
        if case is None:
            continue
        pools[half].remove(case)
        slots = _slots(rng, free, used, bool(case["history"]), count)
        if slots is None:
            continue
        first, test = slots
        used.update({first, test})
        if case["history"]:
            turns[first].user = f"{case['history'][0]['text']} {turns[first].user}"
        turns[test].user = f"{case['message']['text']} {turns[test].user}"
        for j, key in enumerate(case["expect"]["keys"]):
            corrected = bool(key["replaced"])
            stated = test if corrected or not case["history"] else first
            fact_id = f"{conversation.kind[0]}{conversation.seed}-k{number}{j}"
            subject = key["key"]
            paraphrase = f"Remind me, {subject}?"
            if (words(paraphrase) - words(subject)) & words(case["message"]["text"]):
                paraphrase = f"Tell me again: {subject}?"
            fact = Fact(id=fact_id, type="correction" if corrected else "identifier",
                        subtype=f"corpus-{case['value_kind']}", turn=stated, speaker="user",
                        answer=key["current"], question=f"What is the {subject} now?",
                        sentence=case["message"]["text"] if stated == test
                        else case["history"][0]["text"],
                        subject=subject, paraphrase=paraphrase, half=case["half"],
                        phrasing=case["id"], decoys=list(key["not_current"]),
                        also_turns=[first, test])
            if corrected:
                fact.stale, fact.stale_turn, fact.stale_speaker = key["replaced"][0], first, "user"
                fact.stale_sentence = case["history"][0]["text"] if case["history"] else None
            for at in sorted({first, test}):
                turns[at].user_facts.append(fact_id)
            conversation.facts.append(fact)
        taken += [normalise(v) for v in _values(case)]


def _slots(rng: random.Random, free: list[int], used: set[int], history: bool, count: int,
           ) -> tuple[int, int] | None:
    """(establishing turn, test turn): two free user turns GAP apart (one when no history)."""
    open_turns = [t for t in free if t not in used]
    rng.shuffle(open_turns)
    for first in open_turns:
        if not history:
            return first, first
        later = [t for t in open_turns if GAP[0] <= t - first <= GAP[1]]
        if later:
            return first, rng.choice(later)
    return None
