"""Deterministic long task conversations with planted facts (``random.Random(seed)`` only).

A conversation is ``turns`` exchanges (user message, assistant reply) of one kind: ``coding``,
``trip`` or ``research``. About one exchange in three plants a fact; the positions are spread
over the whole chat so that at the end some facts are 0-20, 20-50, 50-100 and 100+ turns old.
No ``hash()``, no set iteration order, no clock: the same seed gives the same text everywhere.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import asdict, dataclass, field

from bench.memory import facts as F
from bench.memory.filler import prose
from bench.memory.questions import paraphrase, subject
from bench.memory.retention import normalise

KINDS = ("coding", "trip", "research")
SYSTEM_PROMPTS = {
    "coding": "You are a careful senior engineer helping with a software project. Be concise.",
    "trip": "You are a practical travel planner helping a family organise a trip. Be concise.",
    "research": "You are a thoughtful co-author helping with a research paper. Be concise.",
}
# Draw weights of the fact types (every type is also planted at least once).
WEIGHTS = {"identifier": 30, "number": 16, "defined_name": 10, "decision": 10, "correction": 12,
           "goal": 8, "pinned": 5}
MAX_PINNED = 3
MAKERS: dict[str, F.Maker] = {"identifier": F.identifier, "defined_name": F.defined_name,
                              "decision": F.decision, "number": F.number,
                              "correction": F.correction, "goal": F.goal, "pinned": F.pinned}


@dataclass
class Fact:
    id: str
    type: str
    subtype: str
    turn: int  # the exchange that states it (for corrections: the correction)
    speaker: str  # "user" or "assistant"
    answer: str
    question: str
    sentence: str
    stale: str | None = None  # corrections: the replaced value
    stale_turn: int | None = None
    stale_speaker: str | None = None
    stale_sentence: str | None = None
    pinned: bool = False  # the user pins the message that states it
    subject: str = ""  # what the fact is about ("the gateway"): the paraphrase keeps it
    paraphrase: str = ""  # the question in other words (``questions.paraphrase``)
    # Facts drawn from the phrasing corpus (``corpus_facts``): its half and case, the values
    # its message under test only mentions (never current), the turns that may name it.
    half: str | None = None
    phrasing: str | None = None
    decoys: list[str] = field(default_factory=list)
    also_turns: list[int] = field(default_factory=list)


@dataclass
class Turn:
    index: int
    user: str
    assistant: str
    user_pinned: bool = False
    user_facts: list[str] = field(default_factory=list)  # ids stated in the user message
    assistant_facts: list[str] = field(default_factory=list)  # ids stated in the reply
    assistant_sentences: list[str] = field(default_factory=list)  # for --replies model


@dataclass
class Conversation:
    kind: str
    seed: int
    system_prompt: str
    turns: list[Turn]
    facts: list[Fact]

    def fingerprint(self) -> str:
        """SHA-256 of the whole conversation: equal on every machine for the same seed."""
        data = json.dumps(asdict(self), sort_keys=True, ensure_ascii=False).encode()
        return hashlib.sha256(data).hexdigest()

    def fact(self, fact_id: str) -> Fact:
        return next(f for f in self.facts if f.id == fact_id)


def _conflicts(planted: F.Planted, taken: list[str]) -> bool:
    """True when a new value could be found inside an earlier one, or the other way round."""
    values = [normalise(v) for v in (planted.answer, planted.stale) if v]
    return any(v in t or t in v for v in values for t in taken)


def _draw(rng: random.Random, kind: str, wanted: str, used: set[str],
          taken: list[str]) -> F.Planted:
    """A fact of ``wanted`` type with a value unique in the conversation (identifier if not)."""
    for _ in range(60):
        try:
            planted = MAKERS[wanted](rng, kind, used)
        except LookupError:  # decision topics exhausted
            wanted = "identifier"
            continue
        if planted.type in ("identifier", "number"):
            planted = F.about(rng, kind, planted)
        if not _conflicts(planted, taken):
            return planted
    raise RuntimeError(f"could not draw a unique {wanted} fact")


def _types(rng: random.Random, count: int) -> list[str]:
    names = sorted(WEIGHTS)
    chosen = list(F.FACT_TYPES)
    chosen += rng.choices(names, weights=[WEIGHTS[n] for n in names], k=max(0, count - 7))
    rng.shuffle(chosen)
    pinned = 0
    for i, name in enumerate(chosen):  # a few pins only: pins are the user's effort
        if name == "pinned":
            pinned += 1
            if pinned > MAX_PINNED:
                chosen[i] = "identifier"
    return chosen


def _speaker(rng: random.Random, kind: str) -> str:
    share = {"identifier": 0.4, "defined_name": 1.0, "decision": 0.5, "number": 0.45,
             "correction": 0.6, "goal": 0.0, "pinned": 1.0}[kind]
    return "user" if rng.random() < share else "assistant"


def _message(rng: random.Random, kind: str, role: str, words: int,
             sentences: list[str], markers: list[str]) -> str:
    """Filler with the fact sentences at random places; goal markers on their own lines."""
    body = prose(rng, kind, role, max(8, words - sum(len(s.split()) for s in sentences)))
    parts = body.split(". ")
    for sentence in sentences:
        at = rng.randint(0, len(parts))
        parts.insert(at, sentence.rstrip("."))
    text = ". ".join(p.rstrip(".") for p in parts) + "."
    if role == "assistant" and len(text.split()) > 90:  # replies come in paragraphs
        cut = text.find(". ", len(text) // 2)
        if cut > 0:
            text = text[: cut + 1] + "\n\n" + text[cut + 2:]
    if markers:
        text += "\n\n" + "\n".join(markers)
    return text


# Words per message: (user low, user high), (assistant low, assistant high). "short" halves the
# tokens of a turn so a slow CPU model gets through 150 turns; depths in turns are unchanged.
# "xl": a 60-word question and a 900-word reply, the 32K row of issue 29's CPU table.
FILLER = {"long": ((15, 80), (60, 250)), "short": ((15, 40), (40, 110)),
          "xl": ((55, 65), (850, 950))}


def generate(kind: str, turns: int = 150, seed: int = 1, filler: str = "long") -> Conversation:
    """The conversation of ``kind`` with ``turns`` exchanges for ``seed``."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r} (choose from {', '.join(KINDS)})")
    if turns < 10:
        raise ValueError("a conversation needs at least 10 turns")
    rng = random.Random(f"bench.memory/{kind}/{turns}/{seed}")
    positions = sorted(rng.sample(range(1, turns - 1), max(7, turns // 3)))
    used: set[str] = set()
    taken: list[str] = []
    facts: list[Fact] = []
    for number, (position, wanted) in enumerate(zip(positions, _types(rng, len(positions)),
                                                    strict=True)):
        planted = _draw(rng, kind, wanted, used, taken)
        taken += [normalise(v) for v in (planted.answer, planted.stale) if v]
        fact = Fact(id=f"{kind[0]}{seed}-{number:03d}", type=planted.type,
                    subtype=planted.subtype, turn=position,
                    speaker=_speaker(rng, planted.type), answer=planted.answer,
                    question=planted.question, sentence=planted.sentence,
                    pinned=planted.type == "pinned")
        if planted.stale is not None:
            fact.stale = planted.stale
            fact.stale_turn = max(0, position - rng.randint(5, 40))
            fact.stale_speaker = _speaker(rng, "identifier")
            fact.stale_sentence = planted.stale_sentence
        fact.subject, fact.paraphrase = subject(fact), paraphrase(fact)
        facts.append(fact)
    conversation = Conversation(kind, seed, SYSTEM_PROMPTS[kind],
                                _turns(rng, kind, turns, facts, FILLER[filler]), facts)
    from bench.memory import corpus_facts

    corpus_facts.plant(conversation)
    return conversation


def _turns(rng: random.Random, kind: str, count: int, facts: list[Fact],
           sizes: tuple[tuple[int, int], tuple[int, int]]) -> list[Turn]:
    plan: dict[tuple[int, str], list[tuple[str, str]]] = {}
    for fact in facts:
        plan.setdefault((fact.turn, fact.speaker), []).append((fact.id, fact.sentence))
        if fact.stale_sentence is not None and fact.stale_turn is not None:
            plan.setdefault((fact.stale_turn, fact.stale_speaker or "user"), []).append(
                (fact.id + "-stale", fact.stale_sentence))
    pinned_turns = {f.turn for f in facts if f.pinned}
    result = []
    for index in range(count):
        user_items = plan.get((index, "user"), [])
        reply_items = plan.get((index, "assistant"), [])
        markers = [s for _, s in reply_items if s.startswith("[")]
        sentences = [s for _, s in reply_items if not s.startswith("[")]
        user = _message(rng, kind, "user", rng.randint(*sizes[0]), [s for _, s in user_items],
                        [])
        reply = _message(rng, kind, "assistant", rng.randint(*sizes[1]), sentences, markers)
        result.append(Turn(index, user, reply, user_pinned=index in pinned_turns,
                           user_facts=[i for i, _ in user_items],
                           assistant_facts=[i for i, _ in reply_items],
                           assistant_sentences=[s for _, s in reply_items]))
    return result


def verify(conversation: Conversation) -> list[str]:
    """Problems that would make retention lie: an answer found outside its own turns."""
    texts = [(t.index, normalise(t.user + "\n" + t.assistant)) for t in conversation.turns]
    problems = []
    for fact in conversation.facts:
        allowed = {fact.turn, *fact.also_turns} | (
            {fact.stale_turn} if fact.stale_turn is not None else set())
        for value in (fact.answer, fact.stale):
            if not value:
                continue
            where = {i for i, text in texts if normalise(value) in text}
            if not where:
                problems.append(f"{fact.id}: {value!r} is not in the conversation")
            elif not where <= allowed:
                problems.append(f"{fact.id}: {value!r} also occurs in turns "
                                f"{sorted(where - allowed)}")
    return problems
