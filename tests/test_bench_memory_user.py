"""The memory benchmark measures what a user meets: noisy replies, fact-free summaries, questions
asked through the client, strict scoring of corrections, and whose identifiers fill a request.

These check the instrument (issue "Memory measured as a user meets it"), not the engine.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.memory import cli, loopback, noisy
from bench.memory.generator import KINDS, generate
from bench.memory.questions import words
from bench.memory.relay import request_kind
from bench.memory.retention import normalise, retained, stale_as_current
from bench.memory.runner import question_request
from bench.memory.scoring import identifier_provenance, question_row
from bench.memory.strategies import Ollm, Truncate

SHAPES = {
    "path": re.compile(r"^[a-z]+/[a-z_]+_\d\.[a-z]+$"),
    "url": re.compile(r"^https://"),
    "function": re.compile(r"^\w+\(\)$"),
    "version": re.compile(r"\d+\.\d+\.\d+$"),
    "port": re.compile(r"^\d{4}$"),
    "setting": re.compile(r"^[A-Z]+_[A-Z]+=\S+$"),
    "quantity": re.compile(r"^\d+ \S+$"),
}


# ------------------------------------------------------------------ noisy replies
@pytest.mark.parametrize("kind", ["coding", "research"])
def test_noisy_replies_invent_many_identifiers_of_every_shape_and_no_planted_value(kind):
    conversation = generate(kind, 150, 2, "short")
    replies = noisy.replies(conversation)
    assert len(replies) == 150
    invented = [value for _, values in replies[:50] for value in values]
    assert len(set(invented)) >= 80
    for shape, pattern in SHAPES.items():
        assert any(pattern.search(v) for v in invented), shape
    planted = noisy.planted_values(conversation)
    for turn, (text, values) in zip(conversation.turns, replies, strict=True):
        norm = normalise(text)
        assert all(v in text for v in values)
        assert not [p for p in planted if p in norm], turn.index
        user_sentences = [s for s in re.split(r"(?<=[.!?])\s+", turn.user) if len(s.split()) > 3]
        assert not [s for s in user_sentences if normalise(s) in norm], turn.index
        # realistic length: about the scripted reply's, never a stub
        assert 20 <= len(text.split()) <= len(turn.assistant.split()) + 25


def test_noisy_replies_are_the_same_for_the_same_seed_and_differ_across_seeds():
    first = noisy.reply(generate("coding", 60, 1, "short"), 7, 60)
    noisy._MADE.clear()
    again = noisy.reply(generate("coding", 60, 1, "short"), 7, 60)
    other = noisy.reply(generate("coding", 60, 3, "short"), 7, 60)
    assert first == again and first != other


def test_a_noisy_reply_with_a_planted_value_is_refused():
    conversation = generate("coding", 40, 1, "short")
    value = conversation.facts[0].answer
    assert noisy.problems(f"Try {value} first.", "", noisy.planted_values(conversation))
    user = conversation.turns[3].user
    sentence = re.split(r"(?<=[.!?])\s+", user)[0]
    if len(sentence.split()) >= 4:
        assert noisy.problems(f"As you said: {sentence}", user, [])


# ---------------------------------------------------------- fact-free summariser
@pytest.mark.parametrize("kind", KINDS)
def test_the_fact_free_summariser_holds_no_planted_value(kind):
    for seed in (1, 2, 3):
        conversation = generate(kind, 150, seed, "short")
        planted = noisy.planted_values(conversation)
        chat = "\n".join(t.user + "\n" + t.assistant for t in conversation.turns[:60])
        for target in (128, 400, 900):
            body = {"messages": [
                {"role": "system", "content": "You compress chat history."},
                {"role": "user", "content": f"<chat_history>{chat}</chat_history>\nCompress "
                                            f"the chat history above into a checkpoint of at "
                                            f"most {target} tokens."}]}
            summary = loopback.fact_free_reply(body)
            norm = normalise(summary)
            assert not [p for p in planted if p in norm]
            assert not re.search(r"\d", summary)
            assert summary.startswith("## Context") and "## Key Information" in summary
            if target >= 400:  # realistic length: most of what was asked
                assert len(summary.split()) >= target * 0.8 / 1.3 * 0.8
    # the keep-facts summariser (the smoke default) does keep them: the two differ
    assert re.search(r"\d", loopback.keep_facts_reply({"messages": [
        {"role": "user", "content": "The port is 48211."}]}))


# -------------------------------------------------------------- strict scoring
LEDGER = ("Exact references from summarised turns (newest first; later values replace "
          "earlier):\ngateway moved port: 9443; gateway listens port: 7443")


def test_a_ledger_line_listing_the_old_value_beside_the_new_presents_it_as_current():
    request = [{"role": "system", "content": "You help.\n\n" + LEDGER},
               {"role": "user", "content": "What next?"}]
    assert stale_as_current(request, "9443", "7443")
    assert not retained(request, "9443", "7443")
    annotated = [{"role": "system", "content": "Facts of this conversation:\n"
                  "gateway port: 9443 (replaced 7443)"}]
    assert retained(annotated, "9443", "7443")


def test_an_unannotated_recalled_copy_of_the_old_message_presents_it_as_current():
    recalled = {"role": "user", "content": "Where did the gateway end up?\n\nEarlier in this "
                "chat (turn 12): The gateway listens on port 7443."}
    request = [{"role": "system", "content": "Facts of this conversation:\ngateway port: 9443"},
               {"role": "user", "content": "Correction: the gateway moved to port 9443; port "
                                           "7443 is no longer used."},
               {"role": "assistant", "content": "Noted."}, recalled]
    assert stale_as_current(request, "9443", "7443", recall_from=3)
    # the same text kept word for word in its place, before the correction, is fine
    in_place = [request[0], {"role": "user", "content": "The gateway listens on port 7443."},
                {"role": "assistant", "content": "OK."}, request[1]]
    assert not stale_as_current(in_place, "9443", "7443")
    assert retained(in_place, "9443", "7443")


def test_a_marker_in_another_sentence_or_line_does_not_excuse_the_old_value():
    request = [{"role": "system", "content": "The deposit is 1,200 EUR.\nIt changed, no longer "
                                             "valid: see 1,450 EUR."}]
    assert stale_as_current(request, "1,450 EUR", "1,200 EUR")


# ----------------------------------------------------------- questions
def test_paraphrased_questions_share_only_the_subjects_noun_with_the_planted_sentence():
    for kind in KINDS:
        for seed in (1, 2, 3):
            for fact in generate(kind, 150, seed).facts:
                allowed = words(fact.subject)
                assert words(fact.paraphrase) & allowed, fact.paraphrase
                for sentence in (fact.sentence, fact.stale_sentence):
                    if sentence:
                        assert not (words(fact.paraphrase) & words(sentence)) - allowed, \
                            (fact.paraphrase, sentence)
                assert fact.paraphrase != fact.question


class _Recalling(Truncate):
    """A strategy that adds to the request carrying a question, as a recall strategy would."""

    def __init__(self) -> None:
        super().__init__("You help.", 2048, None)
        self.carried: list[list[dict[str, str]]] = []

    def question_messages(self) -> list[dict[str, str]]:
        messages = self.messages()
        messages[-1] = {**messages[-1], "content": messages[-1]["content"]
                        + "\n\nEarlier (turn 3): The service listens on port 48211."}
        self.carried.append(messages)
        return messages


def test_question_time_retention_scores_the_request_that_carries_the_question():
    strategy = _Recalling()
    strategy.add("user", "Hello there.", fact_bearing=False, user_pinned=False)
    strategy.add("assistant", "Hi.", fact_bearing=False, user_pinned=False)
    before = strategy.messages()
    request = asyncio.run(question_request(strategy, "Which port does the service use?"))
    assert request is not None and strategy.carried == [request]
    assert request[-1]["content"].startswith("Which port does the service use?")
    assert strategy.messages() == before  # the question left no trace
    fact = next(f for f in generate("coding", 150, 1).facts if f.type == "identifier")
    fact.answer, fact.stale = "48211", None
    assert question_row(fact, "paraphrase", request, 149)["retained"]
    assert not question_row(fact, "paraphrase", before, 149)["retained"]


def test_a_question_through_the_engine_leaves_the_engine_as_it_was():
    strategy = Ollm("You help.", 2048, None)
    for i in range(3):
        strategy.add("user", f"Question {i} about the importer.", fact_bearing=False,
                     user_pinned=False)
        strategy.add("assistant", f"Answer {i}.", fact_bearing=False, user_pinned=False)
    before = strategy.messages()
    request = asyncio.run(question_request(strategy, "Where does the importer live on disk?"))
    assert request is not None and request[-1]["content"] == "Where does the importer live on disk?"
    assert strategy.messages() == before
    assert len(strategy.engine.display_messages()) == 6


def test_provenance_counts_whose_identifiers_fill_the_request():
    turns = [("user", "Use src/app/main_12.py please."), ("assistant", "Try lib/utils_3.py.")]
    request = [{"role": "user", "content": "src/app/main_12.py and lib/utils_3.py"}]
    found = identifier_provenance(request, turns)
    assert found["user"] == 1 and found["assistant_only"] == 1 and found["user_share"] == 0.5


# ---------------------------------------------------------- --app: request kinds
def test_the_relay_tells_a_chat_turn_by_its_kind_not_its_exact_text():
    turn = "I looked at the importer again."
    chat = {"messages": [{"role": "system", "content": "You help."},
                         {"role": "user", "content": turn + "\n\nEarlier in this chat (turn 4): "
                                                            "the port is 48211."}]}
    assert request_kind(chat, turn, None) == "chat"
    summary = {"messages": [{"role": "system", "content": "You help."},
                            {"role": "user", "content": turn},
                            {"role": "assistant", "content": "Sure."},
                            {"role": "user", "content": "Compress the chat history above into "
                                                        "a checkpoint of at most 200 tokens."}]}
    assert request_kind(summary, turn, None) == "summary"
    question = {"messages": [{"role": "user", "content": "Any link about the CLI?\n\nEarlier"}]}
    assert request_kind(question, turn, "Any link about the CLI?") == "question"


def _run(out: Path, *extra: str) -> dict[str, Any]:
    if "--app" in extra:  # its own qasync loop: in a process of its own, not beside pytest's
        done = subprocess.run([sys.executable, "-m", "bench.memory", "--smoke", "--out",
                               str(out), *extra], capture_output=True, text=True, timeout=600,
                              cwd=Path(__file__).resolve().parent.parent)
        assert done.returncode == 0, done.stderr[-2000:]
    else:
        assert cli.main(["--smoke", "--out", str(out), *extra]) == 0
    name = "memory-app-smoke.json" if "--app" in extra else "memory-smoke.json"
    return json.loads((out / name).read_text(encoding="utf-8"))


def test_app_mode_honours_noisy_replies_and_questions(tmp_path):
    payload = _run(tmp_path, "--app", "--replies", "noisy", "--qa", "--summariser",
                   "fact-free")
    assert payload["params"]["replies"] == "noisy" and payload["params"]["qa"]
    figures = payload["summary"]["ollm-app"]["2048"]
    asked = figures["questions"]["final"]
    assert asked["facts"] > 0 and asked["unasked"] == 0
    assert set(asked["by_form"]) == {"direct", "paraphrase"}
    assert figures["provenance"]["assistant_only"] > 0  # the noisy replies' inventions
    run = payload["runs"][0]
    assert len(run["questions"]) == len(run["probes"])


def test_smoke_covers_noisy_replies_fact_free_summaries_and_questions(tmp_path):
    payload = _run(tmp_path, "--replies", "noisy", "--qa", "--summariser", "fact-free",
                   "--strategies", "truncate,rolling,ollm")
    for strategy in ("truncate", "rolling", "ollm"):
        figures = payload["summary"][strategy]["2048"]
        final = figures["final"]
        assert set(final["by_speaker"]) == {"user", "assistant"}
        questions = figures["questions"]["final"]
        assert questions["facts"] == 2 * final["facts"]
        assert 0.0 <= figures["provenance"]["user_share"] <= 1.0
    assert payload["params"]["summariser"] == "fact-free"
