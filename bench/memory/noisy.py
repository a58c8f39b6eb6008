"""``--replies noisy``: assistant replies that invent identifiers, as a small model's do.

A real 135M-8B model answers with file names, commands, versions, ports and settings of its own
in nearly every reply. Those inventions compete with the user's facts for the ledger, the
checkpoints and the kept messages; scripted filler has none, which makes the benchmark too easy.

Each reply is filler prose of the scripted reply's length with a few invented-identifier
sentences woven in, covering every planted shape: paths, URLs, functions, versions, ports,
``NAME=value`` settings, numbers with units (and commands). Since issue 28 it also hedges with
correction cue words ("actually", "rather", "instead"), suggests ("I'd go with ..."), and
invents rival values on the user's own subjects ("the gateway could just as well use 8000").
Deterministic per conversation, turn and attempt (``random.Random`` only). A reply never
contains a planted value of the conversation, nor a sentence of the user's message; ``check``
verifies both. The planted sentences the assistant states are appended by the runner, as for
``--replies model``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from bench.memory.filler import prose
from bench.memory.retention import normalise

if TYPE_CHECKING:
    from bench.memory.generator import Conversation

# Vocabularies disjoint from the planted ones (facts.py): an invention never looks like a fact.
DIRS = ["lib", "app", "pkg", "scripts", "config", "internal", "tools", "web", "etc", "build"]
FILES = ["handlers", "models", "utils", "views", "settings", "tasks", "client", "schema",
         "routes", "main", "worker", "helpers", "loader", "fixtures"]
EXTS = ["py", "ts", "json", "cfg", "sh", "ini", "js", "txt"]
HOSTS = ["docs.acme-tools.dev", "wiki.internal.test", "status.widgetco.io", "api.sampleapp.net",
         "cdn.fastbuild.dev", "forum.devhelp.org"]
VERBS = ["load", "parse", "fetch", "build", "render", "validate", "flush", "init", "sync",
         "resolve", "emit", "merge"]
NOUNS = ["config", "rows", "payload", "cache", "token", "batch", "index", "buffer", "record",
         "context", "headers", "metrics"]
PRODUCTS = ["Django", "Flask", "FastAPI", "Celery", "gunicorn", "uvicorn", "pandas", "numpy",
            "Docker", "Terraform", "SQLAlchemy", "pydantic"]
SETTINGS = ["LOG", "CACHE", "WORKER", "QUEUE", "HTTP", "DB", "RETRY", "BATCH", "POOL", "JOB"]
SUFFIXES = ["LEVEL", "TTL", "COUNT", "SIZE", "TIMEOUT", "LIMIT", "MODE", "DEPTH"]
UNITS = ["ms", "MB", "req/s", "%", "GB", "rows", "KiB", "minutes", "workers"]
MODULES = ["http.server", "venv", "pytest", "pip", "json.tool", "timeit", "cProfile"]
BRANCHES = ["fix", "feature", "chore", "hotfix"]

Shape = Callable[[random.Random], str]


def _path(rng: random.Random) -> str:
    return f"{rng.choice(DIRS)}/{rng.choice(FILES)}_{rng.randint(2, 9)}.{rng.choice(EXTS)}"


def _url(rng: random.Random) -> str:
    page = f"{rng.choice(VERBS)}-{rng.randint(2, 98)}"
    return f"https://{rng.choice(HOSTS)}/{rng.choice(NOUNS)}/{page}"


def _function(rng: random.Random) -> str:
    return f"{rng.choice(VERBS)}_{rng.choice(NOUNS)}()"


def _version(rng: random.Random) -> str:
    return f"{rng.randint(0, 6)}.{rng.randint(0, 9)}.{rng.randint(0, 19)}"


def _product(rng: random.Random) -> str:
    return f"{rng.choice(PRODUCTS)} {_version(rng)}"


def _port(rng: random.Random) -> str:
    return str(rng.randint(1025, 9899))


def _setting(rng: random.Random) -> str:
    value = rng.choice([str(rng.randint(2, 900)), "debug", "off", "strict", "lazy", "true"])
    return f"{rng.choice(SETTINGS)}_{rng.choice(SUFFIXES)}={value}"


def _quantity(rng: random.Random) -> str:
    return f"{rng.randint(3, 950)} {rng.choice(UNITS)}"


def _command(rng: random.Random) -> str:
    return rng.choice([f"python -m {rng.choice(MODULES)}",
                       f"pip install {rng.choice(PRODUCTS).lower()}=={_version(rng)}",
                       f"git checkout -b {rng.choice(BRANCHES)}/{rng.choice(NOUNS)}"
                       f"-{rng.randint(2, 99)}",
                       f"make {rng.choice(VERBS)}-{rng.choice(NOUNS)}"])


# (shape, sentence templates with {x}); every shape of a planted fact is covered.
TEMPLATES: dict[str, tuple[Shape, list[str]]] = {
    "path": (_path, ["I would put that logic in `{x}` so it stays testable.",
                     "The relevant code usually lives in {x}, next to its tests.",
                     "Try opening {x} first; the entry point is near the top."]),
    "url": (_url, ["There is a good write-up at {x} if you want the details.",
                   "The reference page {x} covers this case."]),
    "function": (_function, ["Wrap it in `{x}` and call that from the handler.",
                             "A helper such as {x} keeps the retry in one place."]),
    "version": (_product, ["This behaves better since {x}, so upgrading may help.",
                           "I would test against {x} before changing anything else."]),
    "port": (_port, ["Expose it locally on port {x} while you debug.",
                     "The sidecar usually answers on port {x}."]),
    "setting": (_setting, ["Setting `{x}` in the environment should make it visible.",
                           "You can start with {x} and adjust from there."]),
    "quantity": (_quantity, ["In my experience that costs around {x} at peak.",
                             "Expect roughly {x} once the cache is warm."]),
    "command": (_command, ["Run `{x}` to check it quickly.",
                           "A quick `{x}` usually tells you more than the logs."]),
}
SHAPES = tuple(TEMPLATES)
PER_REPLY = (2, 4)  # invented-identifier sentences per reply
ATTEMPTS = 50

# What real models write besides inventions (issue 28): hedges with correction cue words and
# no value, suggestions, and invented values on the *user's* subjects.
HEDGES = [
    "A rewrite is tempting, but it would hide the problem rather than explain it.",
    "Actually, the simpler option tends to hold up better in practice.",
    "Instead of changing everything at once, I would rather go one step at a time.",
    "Rather than guessing, it is usually better to measure first.",
    "Actually, it might be better to keep it as it is instead, at least for now.",
    "That said, I would rather not change the plan again without a good reason.",
]
SUGGESTIONS = [
    "I'd go with {x} for this, if you are open to it.",
    "You might consider {x} instead, though it is your call.",
    "If it were me, I'd probably try {x} first.",
    "Should you want a fallback, {x} is a reasonable choice.",
]
ON_SUBJECT = [
    "For {s}, {x} could also work if the current setup gets in the way.",
    "{S} could just as well use {x} instead.",
    "Some teams would put {s} on {x} rather than that.",
    "Actually, {x} is a common choice for {s} too.",
]
# The user's fact's shape -> the shape of a rival value invented for its subject.
RIVAL = {"port": "port", "version": "version", "product": "version", "path": "path",
         "url": "url", "function": "function", "seconds": "quantity", "memory": "quantity",
         "rate": "quantity", "count": "quantity", "money_eu": "quantity",
         "money_us": "quantity", "meeting": "setting", "amount": "quantity",
         "class": "function", "env": "setting", "hash": "command", "ticket": "command"}


def _sentences(rng: random.Random, count: int) -> tuple[list[str], list[str]]:
    """(sentences, identifiers): ``count`` invented-identifier sentences of varied shapes."""
    shapes = rng.sample(SHAPES, count)
    out, invented = [], []
    for name in shapes:
        make, templates = TEMPLATES[name]
        value = make(rng)
        invented.append(value)
        out.append(rng.choice(templates).format(x=value))
    return out, invented


def _weave(rng: random.Random, body: str, sentences: list[str]) -> str:
    parts = [p for p in body.split(". ") if p.strip()]
    for sentence in sentences:
        parts.insert(rng.randint(0, len(parts)), sentence.rstrip("."))
    text = ". ".join(p.rstrip(".") for p in parts) + "."
    if len(text.split()) > 90:  # replies come in paragraphs
        cut = text.find(". ", len(text) // 2)
        if cut > 0:
            text = text[: cut + 1] + "\n\n" + text[cut + 2:]
    return text


def _user_sentences(user: str) -> list[str]:
    return [normalise(s) for s in re.split(r"(?<=[.!?])\s+", user) if len(s.split()) >= 4]


def problems(text: str, user: str, planted: list[str]) -> list[str]:
    """Why ``text`` is not a fair noisy reply: a planted value or a user sentence in it."""
    norm = normalise(text)
    found = [f"planted value {v!r}" for v in planted if v and v in norm]
    found += [f"user sentence {s!r}" for s in _user_sentences(user) if s in norm]
    return found


def reply(conversation: Conversation, index: int, words: int) -> tuple[str, list[str]]:
    """(text, invented identifiers) of turn ``index``: about ``words`` words of noisy prose."""
    planted = planted_values(conversation)
    user = conversation.turns[index].user
    for attempt in range(ATTEMPTS):
        rng = random.Random(f"bench.memory/noisy/{conversation.kind}/{conversation.seed}/"
                            f"{len(conversation.turns)}/{index}/{attempt}")
        sentences, invented = _sentences(rng, rng.randint(*PER_REPLY))
        extra, rivals = _realistic(rng, _user_subjects(conversation, index))
        for sentence, value in zip(extra, rivals, strict=True):  # within the reply's length
            if sum(len(s.split()) for s in (*sentences, sentence)) <= words - 8:
                sentences.append(sentence)
                if value:
                    invented.append(value)
        used = sum(len(s.split()) for s in sentences)
        body = prose(rng, conversation.kind, "assistant", max(8, words - used))
        text = _weave(rng, body, sentences)
        if not problems(text, user, planted):
            return text, invented
    raise RuntimeError(f"no fair noisy reply for turn {index} after {ATTEMPTS} attempts")


def _user_subjects(conversation: Conversation, index: int) -> list[tuple[str, str]]:
    """(subject, shape of a rival value) of the user's facts stated before turn ``index``."""
    out = []
    for fact in conversation.facts:
        stated = fact.turn if fact.speaker == "user" else (
            fact.stale_turn if fact.stale_speaker == "user" else None)
        shape = RIVAL.get(fact.subtype)
        if stated is not None and stated < index and shape and fact.subject:
            out.append((fact.subject, shape))
    return out


def _realistic(rng: random.Random, subjects: list[tuple[str, str]],
               ) -> tuple[list[str], list[str]]:
    """A hedge (half the replies), a suggestion (a third) and a rival value on one of the
    user's subjects (half the replies, once the user has stated one), each with the value it
    invents ("" for a hedge)."""
    sentences: list[str] = []
    invented: list[str] = []
    if rng.random() < 0.5:
        sentences.append(rng.choice(HEDGES))
        invented.append("")
    if rng.random() < 0.33:
        value = TEMPLATES[rng.choice(("version", "setting", "port"))][0](rng)
        sentences.append(rng.choice(SUGGESTIONS).format(x=value))
        invented.append(value)
    if subjects and rng.random() < 0.5:
        about, shape = rng.choice(subjects)
        value = TEMPLATES[shape][0](rng)
        template = rng.choice(ON_SUBJECT)
        sentences.append(template.format(s=about, S=about[:1].upper() + about[1:], x=value))
        invented.append(value)
    return sentences, invented


def planted_values(conversation: Conversation) -> list[str]:
    values = [v for f in conversation.facts for v in (f.answer, f.stale) if v]
    return sorted({normalise(v) for v in values})


_MADE: dict[tuple[str, int, int, str], list[tuple[str, list[str]]]] = {}


def replies(conversation: Conversation) -> list[tuple[str, list[str]]]:
    """Every turn's noisy reply (before the planted sentences are appended), with what it
    invented. The length follows the scripted reply's, so depths and budgets compare."""
    key = (conversation.kind, conversation.seed, len(conversation.turns),
           conversation.turns[0].assistant)
    if key in _MADE:  # one conversation is played through several strategies
        return _MADE[key]
    result = []
    for turn in conversation.turns:
        planted_words = sum(len(s.split()) for s in turn.assistant_sentences)
        words = max(20, len(turn.assistant.split()) - planted_words)
        result.append(reply(conversation, turn.index, words))
    _MADE[key] = result
    return result
