"""Recall in the session: the index of branches and forks, the send path (the request carries
what was recalled, the reply keeps its record), meaning search through the loopback
``/api/embed`` and its fallback to words when the embedding is late or fails."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from ollm_desktop.engine import ContextEngine, Message
from ollm_desktop.engine.recall import Recalled, RecallSource, compose
from ollm_desktop.engine.tokens import count_tokens
from ollm_desktop.paths import app_paths
from ollm_desktop.session import ChatSession, ReplyFinished, SessionEvent
from ollm_desktop.session import recall as recall_module
from ollm_desktop.session.recall import FusedSource
from ollm_desktop.storage import ChatStore
from ollm_desktop.storage.recall_index import RecallIndex
from tests.controller_harness import make_settings, scripted_model
from tests.ollama_server import FakeOllama
from tests.test_session import send

pytestmark = pytest.mark.asyncio

FACT = "The ingress host is lb-17.internal, on port 9443."
PROXY = "We moved the reverse proxy to the edge."
FILLER = [("Tell me about the weather in spring.", "Spring is mild and often rainy."),
          ("How do I sort a list in Python?", "Use sorted() or list.sort().")] * 8
# Long rounds: at 2,048 tokens the first ones are compacted away before a send.
TALK = [(f"Round {i}: the report exporter again. " + "It keeps timing out on big files. " * 6,
         "Try streaming the rows instead of building the list. " * 12) for i in range(14)]


def stand_in_recall_request(self: ContextEngine, source: RecallSource, query: str
                            ) -> tuple[list[dict[str, str]], Recalled]:
    """``ContextEngine.recall_request`` as far as the session needs it until the engine's
    lands: the rounds not already sent word for word, composed into the free room and put
    after the newest user message's text."""
    messages = self.api_messages()
    sent = {i for i, seen in self.visibility().items() if seen in ("verbatim", "preserved")}
    usage = self.usage()
    rounds = source.search(query, exclude=sent, limit=6)
    recalled = compose(rounds, query, room=usage.usable - usage.total, count=count_tokens,
                       notes={})
    if recalled.text:
        last = max(i for i, m in enumerate(messages) if m["role"] == "user")
        messages[last] = {**messages[last], "content": messages[last]["content"] + recalled.text}
    return messages, recalled


@pytest.fixture
def server(ollama_server: FakeOllama) -> FakeOllama:
    ollama_server.reply_fn = scripted_model(reply_words=12)
    return ollama_server


@pytest.fixture
def session(tmp_path: Any, server: FakeOllama, monkeypatch: pytest.MonkeyPatch
            ) -> Iterator[tuple[ChatSession, list[SessionEvent]]]:
    if not hasattr(ContextEngine, "recall_request"):
        monkeypatch.setattr(ContextEngine, "recall_request", stand_in_recall_request,
                            raising=False)
    store, _ = ChatStore.open(app_paths(tmp_path / "data"))
    # A small context: the early rounds leave the request, so recall has something to do.
    s = ChatSession(store, make_settings(server, context_size=2048, preserve_recent_tokens=0,
                                         keep_recent_turns=2, preserve_user_messages=False))
    events: list[SessionEvent] = []
    s.publish = events.append
    yield s, events
    store.close()


def seed(s: ChatSession, pairs: Sequence[tuple[str, str]]) -> list[Message]:
    """A chat holding ``pairs`` as stored rounds, opened in the session."""
    s.new_chat("recall")
    assert s.chat is not None and s.engine is not None
    added = []
    for user, reply in pairs:
        for message in (Message(role="user", content=user),
                        Message(role="assistant", content=reply)):
            s.engine.add_message(message)
            s.store.append_message(s.chat.id, message)
            added.append(message)
    s.save_state()
    s.open_chat(s.chat.id)
    return added


def indexed_users(s: ChatSession, chat_id: str) -> list[str]:
    return [row[0] for row in s.store._conn.execute(
        "SELECT t.user FROM recall_rounds r JOIN recall_text t ON t.rowid = r.rowid "
        "JOIN messages m ON m.rowid = r.rowid WHERE r.chat_id = ? ORDER BY m.seq", (chat_id,))]


async def test_a_branch_and_a_fork_are_indexed_as_chats_of_their_own(session) -> None:
    s, _events = session
    added = seed(s, [(FACT, "Noted."), *FILLER])
    original = s.chat
    assert original is not None
    fork = s.branches.fork(added[5].id)  # up to the third round's reply
    assert not isinstance(fork, type(None)) and hasattr(fork, "id")
    assert indexed_users(s, fork.id) == [FACT, FILLER[0][0], FILLER[1][0]]
    hits = s.store.recall_index(fork.id).search("lb-17.internal port", exclude=set(), limit=3)
    assert [h.user for h in hits] == [FACT]
    assert set(hits[0].message_ids).isdisjoint({m.id for m in added})  # the fork's copies
    branch = s.branches.branch_for_edit(added[4].id, "edited")  # the history before it
    assert hasattr(branch, "id")
    assert indexed_users(s, branch.id) == [FACT, FILLER[0][0]]
    assert len(indexed_users(s, original.id)) == 1 + len(FILLER)  # the original is untouched
    await s.drain()


async def test_a_send_carries_what_it_recalls_and_the_reply_keeps_the_record(
        session, server) -> None:
    s, events = session
    added = seed(s, [(FACT, "Noted: lb-17.internal."), *TALK])
    await send(s, "Which port does lb-17.internal use?")
    assert s.engine is not None and s.engine.visibility()[added[0].id] == "summarized"
    request = server.chat_requests()[-1]["messages"]
    newest = request[-1]["content"]
    assert newest.startswith("Which port does lb-17.internal use?")
    assert FACT in newest and "[Turn 1]" in newest  # quoted with its turn number
    finished = [e for e in events if isinstance(e, ReplyFinished)]
    record = finished[-1].info.recalled
    assert record is not None and record.message_count == 2
    assert record.items[0].message_ids == [added[0].id, added[1].id]
    assert record.text and record.text in newest
    reply_id = finished[-1].message.id
    assert s.recall.records()[reply_id] == record  # kept with the reply, across a reopen
    assert s.chat is not None
    s.open_chat(s.chat.id)
    assert s.recall.records()[reply_id] == record
    # Never stored in the history, never carried into later requests.
    assert all(FACT not in m.content for m in s.store.messages(s.chat.id)[len(added):])
    await send(s, "Thanks, and how do I sort a dict?")
    assert FACT not in server.chat_requests()[-1]["messages"][-1]["content"]
    await s.drain()


async def test_recall_off_or_an_excluded_round_sends_nothing_recalled(session, server) -> None:
    s, _events = session
    added = seed(s, [(FACT, "Noted: lb-17.internal."), *TALK])
    s.recall.set_excluded(added[0].id, True)
    assert s.recall.excluded() == {added[0].id}
    await send(s, "Which port does lb-17.internal use?")
    assert FACT not in server.chat_requests()[-1]["messages"][-1]["content"]
    s.recall.set_excluded(added[0].id, False)
    assert s.chat is not None
    s.chat_settings.apply(s.chat.settings.model_copy(update={"recall": False}))
    assert s.recall.status() == recall_module.OFF_CHAT
    await send(s, "Which port does lb-17.internal use again?")
    assert FACT not in server.chat_requests()[-1]["messages"][-1]["content"]
    await s.drain()


async def test_new_chats_take_the_preferences_switch(session) -> None:
    s, _events = session
    s.settings.recall_new_chats = False
    s.new_chat("quiet")
    s.new_chat("quiet")  # an empty chat is reused: make a real one
    assert s.chat is not None and s.chat.settings.recall is False
    assert not s.recall.enabled()
    await s.drain()


async def test_meaning_search_through_the_loopback_embed_finds_what_words_miss(
        session, server) -> None:
    s, _events = session
    server.embed_aliases.update({"proxy": "gateway"})
    s.settings.embedding_model = "all-minilm"
    seed(s, [(PROXY, "Noted."), *FILLER])
    await s.drain()  # opening the chat embedded its rounds in the background
    assert await s.recall.embed_rounds() == 0  # every round has its vector now
    assert s.chat is not None
    words = s.store.recall_index(s.chat.id)
    assert words.search("the gateway?", exclude=set(), limit=3) == []  # no shared word
    source = await s.recall.source("the gateway?")
    assert isinstance(source, FusedSource) and s.recall.semantic_used
    assert [h.user for h in source.search("the gateway?", exclude=set(), limit=3)] == [PROXY]
    stored = s.store._conn.execute("SELECT DISTINCT vector_model, vector_dims FROM "
                                   "recall_rounds WHERE chat_id = ?", (s.chat.id,)).fetchall()
    assert stored == [("all-minilm", 64)]
    assert "meaning (all-minilm)" in s.recall.status()
    await s.drain()


async def test_a_late_or_failing_embedding_leaves_words_alone_within_the_budget(
        session, server) -> None:
    s, _events = session
    s.settings.embedding_model = "all-minilm"
    seed(s, [(FACT, "Noted."), *FILLER])
    await s.recall.embed_rounds()
    server.path_delays["/api/embed"] = 1.0
    source = await s.recall.source("lb-17.internal port")
    # The send went on with words alone while the query's embedding was still on its way.
    [late] = s.recall.queries.late
    assert not late.done() and late.get_name() == recall_module.QUERY_TASK
    assert isinstance(source, RecallIndex) and not s.recall.semantic_used
    assert [h.user for h in source.search("lb-17.internal port", exclude=set(), limit=3)] \
        == [FACT]
    await asyncio.wait(set(s.recall.queries.late), timeout=5)  # the late answer ends by itself
    server.path_delays.clear()
    server.fail("/api/embed", 500, "embedding runner crashed")
    source = await s.recall.source("lb-17.internal port")
    assert isinstance(source, RecallIndex)
    assert "did not answer" in s.recall.status() and "crashed" in s.recall.status()
    asked = len([r for r in server.requests if r.path == "/api/embed"])
    assert isinstance(await s.recall.source("lb-17.internal port"), RecallIndex)
    assert len([r for r in server.requests if r.path == "/api/embed"]) == asked  # not again yet
    await s.drain()


async def test_without_an_embedding_model_the_settings_say_words_only(session) -> None:
    s, _events = session
    seed(s, FILLER)
    assert s.recall.status() == recall_module.WORDS_ONLY + recall_module.NO_MODEL
    assert isinstance(await s.recall.source("anything"), RecallIndex)
    await s.drain()


async def test_a_tight_room_gets_each_rounds_matching_sentences_not_the_first_whole() -> None:
    """Issue 28 (recall answers for the assistant's values at 2K): in a room that holds one
    round whole, the best round does not take it all: each round keeps its share, a round
    over it goes as its matching sentences (those stating a value first), so the second
    round's answer gets in."""
    from ollm_desktop.engine.recall import RecalledRound

    chatty = " ".join(["The nightly job is a long story and I would rather not rush it."] * 12)
    first = RecalledRound(("u1", "a1"), 12, "Quick question about the nightly job: is a "
                          "timezone mix-up something we have seen before?", chatty, 3.0)
    second = RecalledRound(("u2", "a2"), 50, "Let's keep going.", "Sure. For the nightly "
                           "job: the slowest step takes 241 s on average. " + chatty, 2.0)
    query = "How long does the nightly job need per run?"
    whole = count_tokens(chatty) + 40
    recalled = compose([first, second], query, room=whole + 30, count=count_tokens, notes={})
    assert "241 s" in recalled.text and recalled.tokens <= whole + 30
    assert recalled.partial == [True, True]
    roomy = compose([first, second], query, room=10 * whole, count=count_tokens, notes={})
    assert roomy.partial == [False, False]  # room for both: whole, as before
