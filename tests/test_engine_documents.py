"""Attached documents in the request: whole when they fit their share, else the passages the
question (and the turn before it) needs; sources cited; never over the window."""

from __future__ import annotations

import sqlite3

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ollm_desktop.engine import ContextEngine, EngineConfig, Message, budget
from ollm_desktop.engine.document_context import SYSTEM_NOTE, AttachedText
from ollm_desktop.storage.documents.passage_index import PassageIndex, add_passages
from ollm_desktop.storage.documents.preparing import PreparedDocument, prepare
from tests.engine_fakes import GoodSummarizer

SMALL = "# Ports\n\nThe gateway listens on port 9443.\n"


def _section(title: str, body: str, n: int) -> str:
    filler = " ".join(f"The {title.lower()} subsystem logs event {i} in its journal."
                      for i in range(n))
    return f"## {title}\n\n{filler}\n\n{body}\n\n{filler}\n\n"


LARGE = "# Operations manual\n\n" + "".join([
    _section("Retries", "A failed call is retried at most 7 times with a backoff of 250 ms.", 30),
    _section("Timeouts", "The server timeout is 45 seconds; the client timeout is 12 seconds.",
             30),
    _section("Storage", "Snapshots are kept for 14 days in the cold tier.", 30),
    _section("Logging", "Logs rotate when they reach 64 MB.", 30),
])


def _docs(*files: tuple[str, str]) -> tuple[list[AttachedText], PassageIndex]:
    conn = sqlite3.connect(":memory:")
    index = PassageIndex(conn)
    attached = []
    for name, text in files:
        prepared: PreparedDocument = prepare(text.encode(), name)
        add_passages(conn, prepared.document_id, prepared.passages)
        passages = prepared.passages
        attached.append(AttachedText(prepared.document_id, name,
                                     sum(p.tokens for p in passages),
                                     lambda passages=passages: passages))
    index.document_ids = tuple(d.document_id for d in attached)
    return attached, index


def _engine(size: int = 4096, turns: list[tuple[str, str]] = ()) -> ContextEngine:  # type: ignore[assignment]
    engine = ContextEngine(EngineConfig(context_size=size), GoodSummarizer(), "You are helpful.")
    for user, reply in turns:
        engine.add_message(Message(role="user", content=user))
        engine.add_message(Message(role="assistant", content=reply))
    return engine


def _ask(engine: ContextEngine, question: str) -> None:
    engine.add_message(Message(role="user", content=question))


def test_a_small_document_goes_whole_with_its_source() -> None:
    docs, index = _docs(("ports.md", SMALL))
    engine = _engine()
    _ask(engine, "Hello there")
    messages, sent = engine.document_request(docs, index)
    assert sent.whole == [docs[0].document_id]
    assert messages[-1]["content"].startswith("Hello there\n\n")
    assert "[ports.md, line 3]\nThe gateway listens on port 9443." in messages[-1]["content"]


def test_a_large_document_sends_the_passages_the_question_needs() -> None:
    docs, index = _docs(("manual.md", LARGE), ("ports.md", SMALL))
    engine = _engine(2048)
    _ask(engine, "How many times is a failed call retried?")
    messages, sent = engine.document_request(docs, index)
    assert docs[0].document_id not in sent.whole
    assert docs[1].document_id in sent.whole  # the small one still fits its share
    text = messages[-1]["content"]
    assert "at most 7 times" in text
    assert "64 MB" not in text and "14 days" not in text
    assert any(p.source.startswith("[manual.md, lines ") for p in sent.passages)
    assert sent.tokens < budget.usable_tokens(engine._data.config)


def test_a_follow_up_finds_its_passage_through_the_turn_before() -> None:
    docs, index = _docs(("manual.md", LARGE))
    engine = _engine(2048, [("What is the server timeout?",
                             "The server timeout is 45 seconds [manual.md, lines 40–44].")])
    _ask(engine, "And the client one?")
    messages, _ = engine.document_request(docs, index)
    assert "client timeout is 12 seconds" in messages[-1]["content"]


def test_the_cached_prefix_stays_and_the_system_message_asks_for_citations() -> None:
    docs, index = _docs(("manual.md", LARGE))
    engine = _engine(4096, [("hi", "hello")])
    engine.set_documents_attached(True)
    _ask(engine, "How long are snapshots kept?")
    plain = engine.api_messages()
    messages, sent = engine.document_request(docs, index)
    assert SYSTEM_NOTE in plain[0]["content"]
    assert messages[:-1] == plain[:-1]
    assert messages[-1]["content"] == plain[-1]["content"] + sent.text
    assert "14 days" in sent.text
    engine.set_documents_attached(False)
    assert SYSTEM_NOTE not in engine.api_messages()[0]["content"]


def test_no_documents_or_no_question_adds_nothing() -> None:
    docs, index = _docs(("manual.md", LARGE))
    engine = _engine()
    assert engine.document_request(docs, index)[1].text == ""  # no user message yet
    _ask(engine, "What is the server timeout?")
    messages, sent = engine.document_request([], index)
    assert sent.text == "" and messages == engine.api_messages()


PARAGRAPH = st.text(alphabet="abcdefghijklmnopqrstuvwxyz 0123456789.", min_size=20,
                    max_size=900)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(size=st.sampled_from([512, 1024, 2048, 3000, 4096, 8192, 16384]),
       documents=st.lists(st.lists(PARAGRAPH, min_size=1, max_size=25), max_size=6),
       turns=st.integers(0, 6), question=PARAGRAPH)
def test_never_over_the_window(size: int, documents: list[list[str]], turns: int,
                               question: str) -> None:
    files = [(f"doc{i}.md", f"# Doc {i}\n\n" + "\n\n".join(paragraphs))
             for i, paragraphs in enumerate(documents)]
    docs, index = _docs(*files) if files else ([], PassageIndex(sqlite3.connect(":memory:")))
    engine = _engine(size, [(f"question {i} " + question[:200], f"answer {i} " * 30)
                            for i in range(turns)])
    engine.set_documents_attached(bool(docs))
    _ask(engine, question)
    try:
        before = engine.api_messages()
    except Exception:  # the chat alone cannot be sent (pins); not a documents case
        return
    messages, sent = engine.document_request(docs, index)
    data = engine._data
    added = data.message_tokens(messages[-1]["content"]) - data.message_tokens(
        before[-1]["content"])
    assert added <= sent.tokens + 2
    total = engine.api_tokens() + added
    assert total <= budget.usable_tokens(data.config) <= size
