"""Recall's word index in the store: in step with every write, rebuilt for an older file, and
ranking a question about a subject first among rounds that also mention it."""

from __future__ import annotations

import random
import sqlite3

from ollm_desktop.engine import EngineState, Message
from ollm_desktop.paths import AppPaths
from ollm_desktop.storage import ChatStore, schema
from ollm_desktop.storage.export import export_json, import_json
from ollm_desktop.storage.recall_index import RecallIndex
from ollm_desktop.storage.recall_terms import match_expression, query_terms


def rounds(store: ChatStore, chat_id: str) -> list[tuple[str, str]]:
    """(user text, reply text) of the chat's indexed rounds, in order."""
    return [tuple(r) for r in store._conn.execute(
        "SELECT t.user, t.reply FROM recall_rounds r JOIN recall_text t ON t.rowid = r.rowid "
        "JOIN messages m ON m.rowid = r.rowid WHERE r.chat_id = ? ORDER BY m.seq", (chat_id,))]


def found(store: ChatStore, chat_id: str, text: str, exclude: set[str] | None = None
          ) -> list[str]:
    return [r.user for r in store.recall_index(chat_id).search(text, exclude=exclude or set(),
                                                               limit=5)]


def pair(user: str, reply: str) -> list[Message]:
    return [Message(role="user", content=user), Message(role="assistant", content=reply)]


FILLER = [("Tell me about the weather in spring.", "Spring is mild and often rainy."),
          ("How do I sort a list in Python?", "Use sorted() or list.sort().")] * 6


def filled_chat(store: ChatStore, title: str = "c") -> tuple[str, list[Message]]:
    """A chat with one round about the ingress host among filler rounds."""
    chat = store.create_chat(title)
    messages = [m for user, reply in FILLER for m in pair(user, reply)]
    messages[8:8] = pair("The ingress host is lb-17.internal, on port 9443.", "Noted: lb-17.")
    for message in messages:
        store.append_message(chat.id, message)
    return chat.id, messages


def test_an_added_round_is_found_and_its_reply_joins_it(store: ChatStore) -> None:
    chat_id, messages = filled_chat(store)
    assert len(rounds(store, chat_id)) == len(messages) // 2
    assert found(store, chat_id, "which port is the ingress host lb-17.internal on?") == [
        "The ingress host is lb-17.internal, on port 9443."]
    store.append_message(chat_id, Message(role="user", content="Where is the vault token?"))
    assert rounds(store, chat_id)[-1] == ("Where is the vault token?", "")
    store.append_message(chat_id, Message(role="assistant", content="In VAULT_TOKEN_PATH."))
    assert rounds(store, chat_id)[-1] == ("Where is the vault token?", "In VAULT_TOKEN_PATH.")
    # Rounds already in the request word for word are skipped.
    assert found(store, chat_id, "lb-17.internal port",
                 exclude={messages[8].id, messages[9].id}) == []


def test_edits_follow_into_the_index(store: ChatStore) -> None:
    chat_id, messages = filled_chat(store)
    reply = messages[9].model_copy(update={"content": "Noted: the host moved to lb-42."})
    store.update_message(chat_id, reply)  # a streamed reply growing, a reply's text changed
    assert ("The ingress host is lb-17.internal, on port 9443.",
            "Noted: the host moved to lb-42.") in rounds(store, chat_id)
    assert found(store, chat_id, "where is lb-42 now?")
    state = store.load_engine_state(chat_id)
    assert state is not None
    state.messages[8] = state.messages[8].model_copy(update={"content": "Ingress on lb-99."})
    store.save_engine_state(chat_id, state)  # the engine's content change
    assert found(store, chat_id, "lb-17.internal") == []
    assert found(store, chat_id, "which host is lb-99?") == ["Ingress on lb-99."]


def test_a_deleted_message_leaves_the_index_and_its_reply_stands_alone(store: ChatStore) -> None:
    chat_id, messages = filled_chat(store)
    store.delete_message(messages[9].id)  # the reply
    assert ("The ingress host is lb-17.internal, on port 9443.", "") in rounds(store, chat_id)
    store.append_message(chat_id, Message(role="user", content="Gateway on gw-3?"))
    store.append_message(chat_id, Message(role="assistant", content="Yes, gw-3."))
    last_user = store.messages(chat_id)[-2]
    store.delete_message(last_user.id)  # the user's: its reply is a round of its own
    assert rounds(store, chat_id)[-1] == ("", "Yes, gw-3.")
    store.delete_message(messages[8].id)
    assert found(store, chat_id, "lb-17.internal port 9443") == []
    store.delete_chat(chat_id)
    assert store._conn.execute("SELECT count(*) FROM recall_rounds").fetchone()[0] == 0
    assert store._conn.execute("SELECT count(*) FROM recall_text").fetchone()[0] == 0


def test_an_imported_chat_is_indexed_under_its_own_id(store: ChatStore) -> None:
    chat_id, _messages = filled_chat(store)
    chat = store.get_chat(chat_id)
    state = store.load_engine_state(chat_id)
    assert chat is not None and state is not None
    imported = import_json(export_json(chat, state, []))
    copy = store.create_chat(imported.title)
    store.replace_chat_state(copy.id, imported.state)
    assert rounds(store, copy.id) == rounds(store, chat_id)
    hits = store.recall_index(copy.id).search("lb-17.internal", exclude=set(), limit=5)
    assert [h.message_ids for h in hits] == [(imported.state.messages[8].id,
                                              imported.state.messages[9].id)]
    assert hits[0].turn == 5


def test_rounds_of_other_chats_are_never_found(store: ChatStore) -> None:
    filled_chat(store, "one")
    other = store.create_chat("two")
    for message in pair("Something else entirely.", "Indeed."):
        store.append_message(other.id, message)
    assert found(store, other.id, "lb-17.internal port 9443") == []


def test_an_older_versions_file_gets_its_index_built_and_a_lost_one_is_rebuilt(
        paths: AppPaths) -> None:
    schema.make_private_dir(paths.data_dir)
    conn = sqlite3.connect(paths.database, isolation_level=None)
    schema.migrate(conn, target=5)  # the file as the version before recall made it
    conn.execute("INSERT INTO chats (id, title, context_size, created_at, updated_at) "
                 "VALUES ('old', 'old chat', 8192, '2026-01-01', '2026-01-01')")
    filler = [(role, text) for pair_ in FILLER for role, text in zip(("user", "assistant"),
                                                                     pair_, strict=True)]
    for seq, (role, text) in enumerate([("user", "The ingress host is lb-17.internal."),
                                        ("assistant", "Noted."), *filler]):
        conn.execute("INSERT INTO messages (id, chat_id, seq, role, content, created_at) "
                     "VALUES (?, 'old', ?, ?, ?, '2026-01-01T00:00:00+00:00')",
                     (f"m{seq}", seq, role, text))
    conn.close()
    store, notices = ChatStore.open(paths)
    assert notices == []
    assert rounds(store, "old") == [("The ingress host is lb-17.internal.", "Noted."), *FILLER]
    assert found(store, "old", "lb-17.internal host") == ["The ingress host is lb-17.internal."]
    store._conn.execute("DROP TABLE recall_text")  # lost, or made by another index version
    store.close()
    store, _ = ChatStore.open(paths)
    assert found(store, "old", "lb-17.internal host") == ["The ingress host is lb-17.internal."]
    store.close()


def test_a_salvaged_database_has_its_rounds_indexed(paths: AppPaths) -> None:
    store, _ = ChatStore.open(paths)
    chat_id, messages = filled_chat(store)
    store.set_recall_excluded(messages[0].id, True)
    page = store._conn.execute("SELECT rootpage FROM sqlite_master WHERE name = "
                               "'recall_text_content'").fetchone()[0]
    store.close()
    data = bytearray(paths.database.read_bytes())
    data[4096 * (page - 1):4096 * page] = random.Random(1).randbytes(4096)  # the index's page
    paths.database.write_bytes(bytes(data))
    store, notices = ChatStore.open(paths)
    assert notices and notices[0].salvage is not None  # set aside, every message copied
    assert [m.id for m in store.messages(chat_id)] == [m.id for m in messages]
    assert len(rounds(store, chat_id)) == len(messages) // 2 - 1  # one excluded
    assert found(store, chat_id, "lb-17.internal port") == [messages[8].content]
    assert store.recall_excluded(chat_id) == {messages[0].id}  # its exclusion came through
    store.close()


def test_an_excluded_message_takes_its_round_out_of_recall(store: ChatStore) -> None:
    chat_id, messages = filled_chat(store)
    assert store.set_recall_excluded(messages[9].id, True) == [messages[9].id]
    assert found(store, chat_id, "lb-17.internal port") == []
    assert store.recall_excluded(chat_id) == {messages[9].id}
    reply = messages[9].model_copy(update={"content": "Noted: lb-17 it is."})
    store.update_message(chat_id, reply)  # a rewrite keeps the mark
    assert store.recall_excluded(chat_id) == {messages[9].id}
    assert found(store, chat_id, "lb-17.internal port") == []
    # A branch copied from the chat inherits the exclusion.
    state = store.load_engine_state(chat_id)
    assert state is not None
    copies = [m.model_copy(update={"id": f"copy{i}", "origin": m.id})
              for i, m in enumerate(state.messages)]
    branch = store.create_chat("branch")
    store.set_family(branch.id, parent_id=chat_id, root_id=chat_id, kind="branch", label="b")
    store.replace_chat_state(branch.id, EngineState(messages=copies))
    assert store.recall_excluded(branch.id) == {"copy9"}
    assert found(store, branch.id, "lb-17.internal port") == []
    store.set_recall_excluded("copy9", False)  # taken back in every copy of the family
    assert store.recall_excluded(chat_id) == set() == store.recall_excluded(branch.id)
    assert found(store, chat_id, "lb-17.internal port") == [messages[8].content]


def test_a_question_is_quoted_and_or_ed_without_stop_words() -> None:
    terms = query_terms('Where did the "gateway" end up? Was it gw-edge-07 on port 9443?')
    assert [t for t, _w in terms] == ["gw-edge-07", "9443", "gateway", "port"]
    assert dict(terms)["gw-edge-07"] > dict(terms)["9443"] > dict(terms)["port"]
    expression = match_expression(terms)
    assert '"""gateway"""' not in expression and " OR " in expression
    index = RecallIndex(sqlite3.connect(":memory:"))
    index.add_round("ok", "")
    for text in ['what about "quotes" AND (parens) OR NOT col:umn*?', "the and of", ""]:
        index.search(text, exclude=set(), limit=3)  # never an FTS5 syntax error


def _gateway_chat(seed: int = 3, share: float = 0.25) -> tuple[RecallIndex, int]:
    """1,000 rounds, about a quarter about gateways and ports (several with values of their
    own); the turn where the gateway's new home was stated."""
    rng = random.Random(seed)
    index = RecallIndex(sqlite3.connect(":memory:"))
    talk = ["Is the gateway the bottleneck here, or the ports on the load balancer?",
            "The gateway logs are noisy again after the deploy.",
            "Should the gateway retry on a 502 from the upstream, or fail fast?",
            "We need to document how the gateway handles timeouts and which ports it probes.",
            "The gateway team asked about port scanning on the staging network.",
            "Port forwarding through the gateway is flaky on my laptop.",
            "The metrics exporter listens on port 9100, not the gateway.",
            "Grafana shows the gateway latency went up 20 ms yesterday.",
            "The old gateway config had timeout=30 and port 8080 for health checks."]
    replies = ["That sounds plausible; let's measure before changing anything.",
               "I would add a regression test first, then look at the logs.",
               "The port range for the health checks is 30000-32767 on the cluster."]
    target = 0
    for turn in range(1, 1001):
        if turn == 641:
            target = index.add_round(
                "Decision for the record: we moved the gateway to gw-edge-07, port 9443, "
                "after the outage.", "Noted. The gateway now runs on gw-edge-07, port 9443.")
        elif rng.random() < share:
            index.add_round(f"{rng.choice(talk)} (ticket {rng.randint(100, 999)})",
                            rng.choice(replies))
        else:
            index.add_round(f"About the importer: version {rng.randint(1, 9)}.{rng.randint(0, 9)}"
                            " chokes on an empty list again.", rng.choice(replies))
    return index, target


def test_a_question_naming_only_the_subject_ranks_its_round_first_among_1000() -> None:
    index, target = _gateway_chat()
    hits = index.search("where did the gateway end up?", exclude=set(), limit=5)
    assert hits and hits[0].turn == target
    assert "gw-edge-07" in hits[0].user
    assert index.search("which port is the gateway on now?", exclude=set(), limit=5)[0].turn \
        == target
    assert index.search("is the weather nice today?", exclude=set(), limit=5) == []


def test_a_tool_result_is_recalled_whole(store) -> None:
    """A pruned result stays whole in the index, as the answer of the turn that asked for it
    (in place of the bare call): a question about a line deep inside it finds it."""
    from ollm_desktop.engine.models import Message
    from ollm_desktop.engine.tool_types import ToolCall

    chat = store.create_chat("tools")
    for n, topic in enumerate(("the release notes", "the CI cache", "a flaky test",
                               "the logo colours")):
        store.append_message(chat.id, Message(role="user", content=f"Tell me about {topic}."))
        store.append_message(chat.id, Message(role="assistant", content=f"About {topic}: "
                                              f"nothing unusual in week {n}."))
    store.append_message(chat.id, Message(role="user", content="List the services."))
    call = ToolCall(id="c0", name="read_file", arguments={"path": "services.txt"})
    store.append_message(chat.id, Message(role="assistant", content="", tool_calls=[call]))
    lines = [f"service svc-{n:03d} listens on port {9000 + n}" for n in range(400)]
    lines[377] = "service quasar-gateway listens on port 9377 behind lb-77.internal"
    result = Message(role="tool", content="\n".join(lines), tool_name="read_file",
                     tool_call_id="c0")
    store.append_message(chat.id, result)
    store.append_message(chat.id, Message(role="assistant", content="There are 400."))
    hits = store.recall_index(chat.id).search("which port does quasar-gateway use",
                                              exclude=set(), limit=3)
    assert hits and result.id in hits[0].message_ids
    assert "lb-77.internal" in hits[0].reply


def test_a_very_long_word_is_read_once_not_once_per_position(monkeypatch):
    """A 20 KB run of word characters (a blob, a hash) cost 17 s per call: each of its
    positions was scanned to its end. Now only its first LONGEST_TERM characters are read
    for values, however long it is."""
    from ollm_desktop.storage import recall_terms

    scanned: list[int] = []
    value = recall_terms._VALUE

    class CountingPattern:
        def finditer(self, text):
            scanned.append(len(text))
            return value.finditer(text)

    monkeypatch.setattr(recall_terms, "_VALUE", CountingPattern())
    text = "Keep the token " + "x" * 20_000 + " and the port 8443."
    keys = recall_terms.round_keys(text)
    terms = dict(recall_terms.query_terms(text))
    assert "8443" in keys and terms["8443"] == recall_terms.NUMBER_WEIGHT
    assert max(scanned) < 2 * recall_terms.LONGEST_TERM + 100


def test_a_tools_result_is_indexed_with_its_call_and_found_by_its_arguments(
        store: ChatStore) -> None:
    """The second result of a turn has no user text in its round: its call (tool, arguments)
    is what a question names ("the search for retry_budget"), so it is indexed with it."""
    from ollm_desktop.engine.tool_types import ToolCall
    chat_id, _ = filled_chat(store)
    calls = [ToolCall(id="c1", name="read_file", arguments={"path": "src/net.py"}),
             ToolCall(id="c2", name="search", arguments={"query": "retry_budget"})]
    for message in [Message(role="user", content="Check the network code."),
                    Message(role="assistant", content="", tool_calls=calls),
                    Message(role="tool", content="import socket\n...", tool_name="read_file",
                            tool_call_id="c1"),
                    Message(role="tool", content="lib/a.py:3: limit = 40\nlib/b.py:9: x = 2",
                            tool_name="search", tool_call_id="c2"),
                    Message(role="assistant", content="Both look fine.")]:
        store.append_message(chat_id, message)
    indexed = rounds(store, chat_id)
    assert ("Check the network code.", 'read_file({"path": "src/net.py"})\nimport socket\n...'
            ) in indexed
    assert ("", 'search({"query": "retry_budget"})\nlib/a.py:3: limit = 40\nlib/b.py:9: x = 2'
            ) in indexed
    index = store.recall_index(chat_id)
    (hit, *_) = index.search("what did the search for retry_budget find?", exclude=set(),
                             limit=3)
    assert hit.reply.startswith("search(") and "limit = 40" in hit.reply


def test_the_round_that_states_the_named_value_is_found_among_rounds_that_chat_about_it():
    """Issue 28 (recall answers for the assistant's values): the question names a key ("for
    the webhook handler, ... the helper function"); the round whose sentence states a value
    named by those words is found and goes first, though rounds that only chat about the
    webhook handler share more of the question's words, and a reply that only suggests a
    value ("could … instead") does not count as stating one."""
    rng = random.Random(5)
    index = RecallIndex(sqlite3.connect(":memory:"))
    chat = ["Our on-call engineer says the webhook handler paged them twice; the webhook "
            "handler name keeps coming up, so call the owner of the webhook handler function.",
            "Can you walk me through how the webhook handler handles errors today? The "
            "webhook handler is a function we call a lot."]
    target = 0
    for turn in range(1, 151):
        if turn == 117:
            target = index.add_round(
                "Let's keep going.", "For the webhook handler: the helper that does this is "
                "serialize_audit_events_4ae(), so call it from there.")
        elif turn == 130:
            index.add_round("Next step?", "The webhook handler helper could just as well use "
                            "init_batch() instead.")
        else:
            index.add_round(rng.choice(chat), "I would start small and add a test first.")
    question = "For the webhook handler, what is the name of the helper function we call?"
    hits = index.search(question, exclude=set(), limit=4)
    assert hits and hits[0].turn == target
    assert all("init_batch" not in h.reply for h in hits[:1])


def _chat_about(subject: str, stated: tuple[str, str], at: int, *, seed: int = 3
                ) -> tuple[RecallIndex, int]:
    """150 rounds that chat about ``subject`` (questions about it, values it may take), one
    of which (round ``at``) states its value."""
    rng = random.Random(seed)
    chat = [(f"Quick question about the {subject}: is an off-by-one in paging something we "
             f"have seen before? I pushed a change to v2.{n} today.",
             f"For the {subject}, make flush-{n} could also work if the setup gets in the way.")
            for n in range(40)] + FILLER * 10
    index = RecallIndex(sqlite3.connect(":memory:"))
    target = 0
    for turn in range(1, 151):
        if turn == at:
            target = index.add_round(*stated)
        else:
            index.add_round(*rng.choice(chat))
    return index, target


def test_a_question_or_a_suggestion_about_the_subject_states_no_value():
    """Issue 28 (asked with recall): rounds that ask about the subject ("is an off-by-one …
    something we have seen before?", a value in it) or suggest a value after it ("make
    flush-3 could also work") named the question's words as a statement would, and went
    first in BM25 order; the round that states the value was sixth and not sent."""
    index, target = _chat_about(
        "report exporter", ("For the report exporter: the last good build is commit e5fb1bec.",
                            "Noted."), 6)
    hits = index.search("Which revision of the report exporter worked?", exclude=set(),
                        limit=4)
    assert hits and hits[0].turn == target


def test_a_noun_phrase_of_a_single_question_names_the_value():
    """Issue 28: a paraphrase with many words of its own ("How many people signed up around
    the ablation table?") shares only its subject with the statement; two of its words side
    by side as in the question ("ablation table") name the value, though they are fewer
    than the share a long question needs. A message of several sentences that mentions the
    subject in passing recalls nothing by it (recall on ordinary sends costs the chat's
    cache)."""
    index, target = _chat_about(
        "ablation table", ("For the ablation table: the mailing list now has 5,197 "
                           "participants.", "Good."), 41)
    hits = index.search("How many people signed up around the ablation table?",
                        exclude=set(), limit=4)
    assert hits and hits[0].turn == target
    chatter = ("I looked at the numbers again this morning and many people signed up around "
               "the ablation table. Let's keep going with the upload endpoint; I have about "
               "an hour before my next meeting.")
    assert all(h.turn != target for h in index.search(chatter, exclude=set(), limit=4))
