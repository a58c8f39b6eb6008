"""Planted facts: the values, the sentences that state them, and the probe questions.

Every maker draws from ``random.Random`` only, so a seed gives the same facts everywhere. Values
carry enough entropy (numbers, hex, random name pairs) that each answer occurs nowhere else in
the conversation; the generator verifies that and redraws on a collision.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from bench.memory.filler import topic

FACT_TYPES = ("identifier", "defined_name", "decision", "number", "correction", "goal",
              "pinned")

BIRDS = ["heron", "osprey", "kestrel", "plover", "merlin", "tern", "egret", "curlew", "dunlin",
         "godwit", "shrike", "avocet", "bittern", "lapwing", "siskin", "linnet"]
FISH = ["bluefin", "wahoo", "grouper", "snapper", "halibut", "barracuda", "mackerel", "pollock",
        "turbot", "tarpon", "bonito", "dorado", "marlin", "sculpin", "wrasse", "gurnard"]
NOUNS = ["sweep", "gate", "forge", "relay", "ledger", "harbor", "beacon", "anvil", "lantern",
         "quarry", "signal", "orchard", "compass", "vault", "atlas", "cinder"]
VERBS = ["reconcile", "hydrate", "normalize", "rebalance", "partition", "reindex", "snapshot",
         "throttle", "dedupe", "serialize", "backfill", "quarantine"]
OBJECTS = ["ledger_entries", "invoice_batches", "session_tokens", "audit_events", "shard_maps",
           "price_tiers", "user_cohorts", "export_jobs", "retry_queues", "tenant_quotas"]
PRODUCTS = ["PostgreSQL", "Redis", "Kafka", "Nginx", "Python", "Node.js", "Elasticsearch",
            "RabbitMQ"]
TLDS = ["internal.example.com", "corp.example.net", "example.org"]


@dataclass(frozen=True)
class Planted:
    """One fact as a maker returns it, before it gets a turn and a speaker."""

    type: str
    subtype: str
    answer: str
    sentence: str  # the text planted in a message
    question: str
    stale: str | None = None
    stale_sentence: str | None = None  # for corrections: the earlier statement


# (rng, kind, topics already used in this conversation) -> a fact
Maker = Callable[[random.Random, str, set[str]], Planted]


def about(rng: random.Random, kind: str, planted: Planted) -> Planted:
    """Tie an identifier or number to a topic so each probe question has one answer."""
    subject = topic(rng, kind)
    question = planted.question[0].lower() + planted.question[1:]
    sentence = planted.sentence
    if not sentence.startswith("I "):
        sentence = sentence[0].lower() + sentence[1:]
    return Planted(planted.type, planted.subtype, planted.answer,
                   f"For {subject}: {sentence}", f"For {subject}, {question}")


def _hex(rng: random.Random, digits: int) -> str:
    return f"{rng.getrandbits(4 * digits):0{digits}x}"


def _codename(rng: random.Random) -> str:
    return f"{rng.choice(BIRDS)}-{rng.choice(NOUNS)}"


def identifier(rng: random.Random, kind: str, used: set[str]) -> Planted:
    sub = rng.choice(["path", "url", "function", "class", "version", "product", "hash", "ticket",
                      "env", "port"])
    if sub == "path":
        value = (f"{rng.choice(['src', 'services', 'deploy', 'notes', 'data'])}/"
                 f"{rng.choice(OBJECTS)}/{rng.choice(NOUNS)}_{rng.randint(10, 99)}."
                 f"{rng.choice(['py', 'yaml', 'sql', 'md', 'toml'])}")
        return Planted("identifier", sub, value, f"The file we need is {value}.",
                       "Which file path did we say we need?")
    if sub == "url":
        value = (f"https://{rng.choice(NOUNS)}-{rng.randint(100, 999)}.{rng.choice(TLDS)}/"
                 f"{rng.choice(OBJECTS).replace('_', '-')}")
        return Planted("identifier", sub, value, f"The page with the details is {value} .",
                       "What is the URL of the page with the details?")
    if sub == "function":
        value = f"{rng.choice(VERBS)}_{rng.choice(OBJECTS)}_{_hex(rng, 3)}()"
        return Planted("identifier", sub, value,
                       f"The helper that does this is {value}, so call it from there.",
                       "What is the name of the helper function we call?")
    if sub == "class":
        value = (f"{rng.choice(BIRDS).capitalize()}{rng.choice(NOUNS).capitalize()}"
                 f"{rng.choice(['Manager', 'Client', 'Planner', 'Registry', 'Worker'])}"
                 f"{rng.randint(2, 9)}")
        return Planted("identifier", sub, value,
                       f"The class responsible for this is {value}.",
                       "Which class is responsible for this?")
    if sub == "version":
        value = f"v{rng.randint(1, 9)}.{rng.randint(10, 40)}.{rng.randint(1, 9)}"
        return Planted("identifier", sub, value, f"We pinned the tool to {value} for now.",
                       "Which version did we pin the tool to?")
    if sub == "product":
        value = f"{rng.choice(PRODUCTS)} {rng.randint(11, 19)}.{rng.randint(1, 9)}"
        return Planted("identifier", sub, value, f"The server runs {value} at the moment.",
                       "Which product and version does the server run?")
    if sub == "hash":
        value = _hex(rng, 8)
        return Planted("identifier", sub, value, f"The last good build is commit {value}.",
                       "What is the commit hash of the last good build?")
    if sub == "ticket":
        value = f"{rng.choice(['OPS', 'BIL', 'TRP', 'RES', 'INF'])}-{rng.randint(1000, 9999)}"
        return Planted("identifier", sub, value, f"I filed this as ticket {value}.",
                       "What is the ticket number we filed?")
    if sub == "env":
        value = (f"{rng.choice(BIRDS).upper()}_{rng.choice(NOUNS).upper()}_"
                 f"{rng.choice(['TOKEN', 'SECRET', 'URL', 'REGION', 'BUCKET'])}")
        return Planted("identifier", sub, value,
                       f"The setting is read from the environment variable {value}.",
                       "Which environment variable holds the setting?")
    value = str(rng.randint(10000, 64999))
    return Planted("identifier", "port", value, f"The service listens on port {value}.",
                   "Which port does the service listen on?")


def defined_name(rng: random.Random, kind: str, used: set[str]) -> Planted:
    what = {"coding": ["the staging server", "the new batch job", "the feature flag",
                       "the load test"],
            "trip": ["the lakeside cabin", "the rented minivan", "the Saturday excursion",
                     "the group chat"],
            "research": ["the cleaned dataset", "the new metric", "the parameter sweep",
                         "the pilot study"]}[kind]
    thing = rng.choice(what)
    value = rng.choice([rng.choice(FISH), _codename(rng)])
    value = f"{value}-{rng.choice(NOUNS)}" if value in FISH and rng.random() < 0.5 else value
    sentence = rng.choice([f"Let's call {thing} {value} from now on.",
                           f"From here on, {thing} is named {value}.",
                           f"Let's name {thing} {value}, it is shorter."])
    return Planted("defined_name", thing, value, sentence, f"What did we name {thing}?")


DECISIONS = {
    "coding": [("queue backend", ["NATS JetStream", "Redis Streams", "Amazon SQS",
                                  "RabbitMQ quorum queues"]),
               ("locking approach", ["advisory locks", "optimistic versioning",
                                     "SELECT FOR UPDATE SKIP LOCKED"]),
               ("test runner", ["pytest-xdist", "nox sessions", "tox environments"]),
               ("constraint for deploys", ["no deploys on Fridays",
                                           "deploys only behind a feature flag",
                                           "two approvals before merging"]),
               ("logging format", ["structured JSON lines", "logfmt key-value pairs"]),
               ("API style", ["JSON over gRPC-Web", "plain REST with ETags"])],
    "trip": [("way to reach the coast", ["the regional night train", "a rented minivan",
                                         "the coastal ferry"]),
             ("dinner on the last evening", ["the harbour fish market", "a rooftop tapas bar",
                                             "a cooking class"]),
             ("constraint for the schedule", ["nothing before nine in the morning",
                                              "no more than two transfers a day",
                                              "a rest day in the middle"]),
             ("place to stay in the old town", ["the guesthouse by the cathedral",
                                                "a flat above the bakery"]),
             ("way to pay the shared costs", ["one shared expense app",
                                              "a single card held by the organiser"])],
    "research": [("main evaluation metric", ["macro-averaged F1", "expected calibration error",
                                             "exact match accuracy"]),
                 ("statistical test", ["a paired bootstrap", "the Wilcoxon signed-rank test",
                                       "a permutation test"]),
                 ("constraint for the experiments", ["a single shared random split",
                                                     "no test set peeking before submission",
                                                     "three seeds for every run"]),
                 ("venue to submit to", ["the efficiency workshop", "the findings track"]),
                 ("annotation tool", ["a spreadsheet with locked columns",
                                      "a self-hosted labelling app"])],
}


def _topic(rng: random.Random, kind: str, used: set[str]) -> tuple[str, list[str]]:
    """A decision topic not used yet in this conversation (one question, one answer)."""
    free = [row for row in DECISIONS[kind] if row[0] not in used]
    if not free:
        raise LookupError("no decision topic left")
    topic, options = rng.choice(free)
    used.add(topic)
    return topic, options


def decision(rng: random.Random, kind: str, used: set[str]) -> Planted:
    topic, options = _topic(rng, kind, used)
    value = rng.choice(options)
    sentence = rng.choice([f"Decision: for the {topic} we go with {value}.",
                           f"We agreed that the {topic} is {value}.",
                           f"Final call on the {topic}: {value}."])
    return Planted("decision", topic, value, sentence, f"What did we decide for the {topic}?")


def number(rng: random.Random, kind: str, used: set[str]) -> Planted:
    sub = rng.choice(["money_eu", "money_us", "rate", "seconds", "memory", "count"])
    if sub == "money_eu":
        value = f"{rng.randint(1, 9)}.{rng.randint(100, 999)},{rng.randint(10, 99)} EUR"
        return Planted("number", sub, value, f"The quote came in at {value} in total.",
                       "How much was the quote in total?")
    if sub == "money_us":
        value = f"${rng.randint(1, 9)},{rng.randint(100, 999)}.{rng.randint(10, 99)}"
        return Planted("number", sub, value, f"The budget line for this is {value}.",
                       "What is the budget line for this?")
    if sub == "rate":
        value = f"{rng.randint(11, 99)},{rng.randint(1, 9)}00 requests per minute"
        return Planted("number", sub, value, f"Peak traffic reached {value} last week.",
                       "What peak traffic did we reach last week?")
    if sub == "seconds":
        value = f"{rng.randint(31, 299)} s"
        return Planted("number", sub, value, f"The slowest step takes {value} on average.",
                       "How long does the slowest step take on average?")
    if sub == "memory":
        value = f"{rng.randint(3, 95)} GiB"
        return Planted("number", sub, value, f"We should reserve {value} of memory for it.",
                       "How much memory should we reserve for it?")
    value = f"{rng.randint(1, 9)},{rng.randint(100, 999)} participants"
    return Planted("number", sub, value, f"The mailing list now has {value}.",
                   "How many participants does the mailing list have?")


def correction(rng: random.Random, kind: str, used: set[str]) -> Planted:
    sub = rng.choice(["port", "version", "meeting", "amount"])
    if sub == "port":
        old, new = rng.sample(range(10000, 64999), 2)
        return Planted("correction", sub, str(new),
                       f"Correction: the gateway moved to port {new}; port {old} is no longer "
                       "used.", "Which port does the gateway use now?", str(old),
                       f"The gateway listens on port {old}.")
    if sub == "version":
        major = rng.randint(2, 8)
        old = f"v{major}.{rng.randint(10, 40)}.{rng.randint(1, 9)}"
        new = f"v{major + 1}.{rng.randint(10, 40)}.{rng.randint(1, 9)}"
        return Planted("correction", sub, new,
                       f"Update: we target {new} instead; {old} is superseded.",
                       "Which version do we target now?", old, f"We target {old} for this.")
    if sub == "meeting":
        place_old, place_new = (f"room {_codename(rng)}", f"room {_codename(rng)}")
        return Planted("correction", sub, place_new,
                       f"Change of plan: the meeting is in {place_new}, not in {place_old} "
                       "any more.", "Where is the meeting now?", place_old,
                       f"The meeting is in {place_old}.")
    old_v = f"{rng.randint(1, 9)},{rng.randint(100, 999)} EUR"
    new_v = f"{rng.randint(1, 9)},{rng.randint(100, 999)} EUR"
    return Planted("correction", sub, new_v,
                   f"Correction: the deposit is {new_v}; the earlier figure of {old_v} was "
                   "wrong.", "How much is the deposit now?", old_v,
                   f"The deposit is {old_v}.")


def goal(rng: random.Random, kind: str, used: set[str]) -> Planted:
    """A [GOAL] (the first time) or a locked [DECISION] marker, parsed from assistant text."""
    if "goal" not in used:
        used.add("goal")
        target = {"coding": "the billing service migration", "trip": "the family coast trip",
                  "research": "the workshop paper"}[kind]
        value = f"Finish {target} under the codename {_codename(rng)}"
        return Planted("goal", "goal", value, f"[GOAL] {value}", "What is the overall goal?")
    topic, options = _topic(rng, kind, used)
    value = f"Keep {rng.choice(options)} for the {topic}"
    return Planted("goal", "locked_decision", value, f"[DECISION] {value} - LOCKED",
                   f"Which locked decision did we record for the {topic}?")


def pinned(rng: random.Random, kind: str, used: set[str]) -> Planted:
    rule = {"coding": "p99 latency stays under", "trip": "the daily walking stays under",
            "research": "the paper stays under"}[kind]
    unit = {"coding": "ms", "trip": "km", "research": "pages"}[kind]
    value = f"{rule} {rng.randint(101, 999)} {unit}"
    return Planted("pinned", "requirement", value,
                   f"Pinning this so it never gets lost: the hard requirement is that {value}.",
                   "What is the hard requirement I pinned?")
