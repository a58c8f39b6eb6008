"""The ``tools`` conversation of ``bench.memory``: a coding chat where the model reads files,
searches and runs the tests, 100 calls in 60 turns, and the user states a few facts.

Deterministic per seed. Each file read holds one identifier of its own (``BUILD_TAG``), each
test run one failing test with an error code: the tool identifiers asked at question time,
found nowhere else in the chat (the assistant's answers never repeat them). The user's facts
are stated once each, spread over the chat. Outputs are the sizes a small model's tools really
return: a file of 400-1,600 tokens, a search of about 300, a test run of about 500.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

TURNS = 60
CALLS = 100

FACT_TEMPLATES = [
    ("The staging database is {v}.", "What is the staging database?", "db-stage-{n}"),
    ("Our release train is named {v}.", "What is our release train named?", "Orca-{n}"),
    ("The on-call pager code is {v}.", "What is the on-call pager code?", "{n}{n}"),
    ("Deploys go through the bastion host {v}.", "Which bastion host do deploys go through?",
     "bastion-{n}.corp"),
    ("My team's budget code is {v}.", "What is my team's budget code?", "BC-{n}7"),
]


@dataclass(frozen=True, slots=True)
class Call:
    name: str
    arguments: dict[str, str]
    output: str

    def text(self) -> str:
        """How a peer client writes the call into its history."""
        return f"[called {self.name}({json.dumps(self.arguments, sort_keys=True)})]"


@dataclass(frozen=True, slots=True)
class Turn:
    index: int
    user: str
    calls: list[Call]
    answer: str


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    value: str
    kind: str  # "user fact" | "tool identifier"
    turn: int  # where the value was stated or returned


@dataclass(slots=True)
class ToolChat:
    turns: list[Turn] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)


def _file(path: str, tag: str, rng: random.Random) -> str:
    lines = [f"# {path}"]
    lines += [f"def handler_{n}(request):  # route /api/v{n % 3}/items/{n}"
              for n in range(rng.randint(25, 110))]
    lines.insert(len(lines) // 2, f'BUILD_TAG = "{tag}"  # the build of {path}')
    return "\n".join(lines)


def _search(query: str, rng: random.Random) -> str:
    return "\n".join(f"src/mod_{n}.py:{rng.randint(1, 400)}: {query} = settings.get('{query}')"
                     for n in range(rng.randint(12, 24)))


def _run(command: str, code: str, rng: random.Random) -> str:
    total = rng.randint(30, 50)
    failing = rng.randrange(total)
    lines = [f"$ {command}"]
    for n in range(total):
        lines.append(f"tests/test_case_{n}.py::test_{n} FAILED error {code}" if n == failing
                     else f"tests/test_case_{n}.py::test_{n} PASSED ({n % 13} ms)")
    return "\n".join([*lines, f"1 failed, {total - 1} passed"])


def generate(seed: int = 1, turns: int = TURNS, calls: int = CALLS) -> ToolChat:
    rng = random.Random(seed)
    chat = ToolChat()
    fact_turns = {2 + n * (turns - 8) // len(FACT_TEMPLATES): n
                  for n in range(len(FACT_TEMPLATES))}
    extra = calls - turns  # turns with a second call (a search or a test run)
    seconds = set(rng.sample(range(turns), min(max(extra, 0), turns)))
    tags: list[Question] = []
    for index in range(turns):
        path = f"src/{rng.choice(['api', 'core', 'jobs', 'web'])}/module_{index}.py"
        tag = f"bt-{rng.getrandbits(24):06x}"
        made = [Call("read_file", {"path": path}, _file(path, tag, rng))]
        tags.append(Question(f"Which BUILD_TAG does {path} set?", tag, "tool identifier",
                             index))
        if index in seconds:
            if index % 2:
                query = f"timeout_{index}"
                made.append(Call("search", {"query": query}, _search(query, rng)))
            else:
                command = f"pytest -k case_{index}"
                code = f"E-{rng.randint(1000, 9999)}"
                made.append(Call("run", {"command": command}, _run(command, code, rng)))
                tags.append(Question(f"Which error code did `{command}` fail with?", code,
                                     "tool identifier", index))
        user = f"Now look at {path}."
        if index in fact_turns:
            statement, question, value = FACT_TEMPLATES[fact_turns[index]]
            value = value.format(n=rng.randint(10, 99))
            user += " " + statement.format(v=value)
            chat.questions.append(Question(question, value, "user fact", index))
        answer = (f"I read {path}: {len(made[0].output.splitlines())} lines, nothing "
                  "unusual" + (", and checked the other output too." if len(made) > 1 else "."))
        chat.turns.append(Turn(index, user, made, answer))
    # Tool identifiers asked: 12, spread from the oldest to the newest turns.
    step = max(1, len(tags) // 12)
    chat.questions += tags[::step][:12]
    return chat
