"""The engine owns tool text: calls and results in the request, results cut to their share,
older results pruned before anything is summarised, schemas counted and refused over their
share, summaries that name tools instead of quoting their output, and (property) no request
over num_ctx in random tool-heavy chats."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ollm_desktop.engine import ContextEngine, EngineConfig, EngineState
from ollm_desktop.engine.models import Message
from ollm_desktop.engine.tokens import count_tokens
from ollm_desktop.engine.tool_results import KEEP_RESULTS, RESULT_SHARE, result_cap
from ollm_desktop.engine.tool_schemas import ToolsOverBudget
from ollm_desktop.engine.tool_types import ToolCall, ToolSpec, calls_from_json
from tests.engine_fakes import GoodSummarizer, RecordingSummarizer, run, words

SPEC = ToolSpec(name="read_file", description="Read a file.", parameters={
    "type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]})


def lines_of(tokens: int, seed: int = 0) -> str:
    """A file-like result of about ``tokens`` tokens, numbered lines."""
    out, used, n = [], 0, 0
    while used < tokens:
        line = f"{seed}:{n:05d} " + words(8, seed + n)
        out.append(line)
        used += count_tokens(line) + 1
        n += 1
    return "\n".join(out)


def call_and_result(engine: ContextEngine, n: int, result: str, *, error: bool = False,
                    tool: str = "read_file") -> tuple[Message, Message]:
    call = ToolCall(id=f"call_{n}", name=tool, arguments={"path": f"src/file_{n}.py"})
    asked = engine.add_message(Message(role="assistant", content="", tool_calls=[call]))
    answered = engine.add_message(Message(role="tool", content=result, tool_name=tool,
                                          tool_call_id=call.id, tool_error=error))
    return asked, answered


def engine_at(size: int, summarizer: RecordingSummarizer | None = None) -> ContextEngine:
    return ContextEngine(EngineConfig(context_size=size), summarizer or GoodSummarizer(),
                         "You are a coding assistant.")


def pairs_valid(api: list[dict[str, str]]) -> bool:
    """OpenAI's rule: each result follows the reply that made its call (or another result of
    it), and every call of a reply is answered before the next non-result entry."""
    open_calls: set[str] = set()
    for entry in api:
        if entry["role"] == "tool":
            if entry["tool_call_id"] not in open_calls:
                return False
            open_calls.discard(entry["tool_call_id"])
            continue
        if open_calls:
            return False
        if "tool_calls" in entry:
            open_calls = {c.id for c in calls_from_json(entry["tool_calls"])}
    return True


def strict_total(engine: ContextEngine) -> int:
    """cl100k + 8 per entry + 16 per request, with calls, tool names and schemas."""
    api = engine.api_messages()
    text = sum(count_tokens(m["content"] + m.get("tool_calls", "") + m.get("tool_name", ""))
               + 8 for m in api)
    schemas = sum(count_tokens(json.dumps(t, sort_keys=True)) + 4 for t in engine.api_tools())
    return 16 + text + schemas


# ----------------------------------------------------------------- the request
def test_calls_and_results_go_in_their_own_entries_and_old_states_load() -> None:
    engine = engine_at(8192)
    engine.add("user", "Read two files.")
    call = [ToolCall(id="a", name="read_file", arguments={"path": "x"}),
            ToolCall(id="b", name="read_file", arguments={"path": "y"})]
    engine.add_message(Message(role="assistant", content="Reading.", tool_calls=call))
    engine.add_message(Message(role="tool", content="X = 1", tool_name="read_file",
                               tool_call_id="a"))
    engine.add_message(Message(role="tool", content="Y = 2", tool_name="read_file",
                               tool_call_id="b"))
    api = engine.api_messages()
    assert [m["role"] for m in api] == ["system", "user", "assistant", "tool", "tool"]
    assert calls_from_json(api[2]["tool_calls"]) == call
    assert (api[3]["tool_name"], api[3]["tool_call_id"], api[3]["content"]) == (
        "read_file", "a", "X = 1")
    assert pairs_valid(api)
    # a reply's calls are counted: the message costs more than its text
    assert engine.display_messages()[1].tokens > count_tokens("Reading.") + 30
    state = EngineState.model_validate_json(engine.state().model_dump_json())
    assert ContextEngine.from_state(state, None, GoodSummarizer()).api_messages() == api
    old = json.loads(state.model_dump_json())
    for message in old["messages"]:  # a state saved before tools: no tool fields at all
        for key in ("tool_calls", "tool_name", "tool_call_id", "tool_error"):
            message.pop(key)
    old["messages"] = old["messages"][:1]
    loaded = ContextEngine.from_state(EngineState.model_validate(old), None, GoodSummarizer())
    assert loaded.display_messages()[0].tool_calls == []


def test_a_result_over_its_share_is_cut_with_a_note_and_kept_whole_in_history() -> None:
    engine = engine_at(2048)
    engine.add("user", "Read the big file.")
    whole = lines_of(50_000)
    _, result = call_and_result(engine, 0, whole)
    sent = engine.api_messages()[-1]["content"]
    cap = result_cap(engine.config)
    assert count_tokens(sent) <= cap and cap == int(engine.usable * RESULT_SHARE)
    assert sent.startswith(whole[:200]) and sent.endswith(whole[-200:])
    assert "tokens" in sent and "were cut here" in sent and "whole result stays" in sent
    assert engine.message(result.id).content == whole  # history keeps it all
    assert engine.tool_result_states()[result.id] == "cut"
    assert engine.api_tokens() <= engine.usable


def test_older_results_are_pruned_to_a_placeholder_newest_kept() -> None:
    engine = engine_at(4096)
    engine.add("user", "Look through the project.")
    results = [call_and_result(engine, n, f"first line of file {n}\n" + lines_of(150, n))[1]
               for n in range(6)]
    states = engine.tool_result_states()
    assert states[results[-1].id] == "whole"
    pruned = [r for r in results if states[r.id] == "pruned"]
    assert len(pruned) >= len(results) - KEEP_RESULTS
    assert all(states[r.id] == "pruned" for r in results[:len(results) - KEEP_RESULTS])
    seen = engine.visibility()  # what each row says
    assert {seen[r.id] for r in pruned} == {"pruned"} and seen[results[-1].id] == "verbatim"
    api = {m.get("tool_call_id"): m["content"] for m in engine.api_messages()}
    placeholder = api["call_0"]
    assert 'read_file({"path": "src/file_0.py"})' in placeholder
    assert "first line of file 0" in placeholder and "pruned" in placeholder
    assert "00001" not in placeholder  # none of the output beyond its first line
    assert pairs_valid(engine.api_messages())
    # pruning happens before any summary: nothing was compacted to make this room
    assert engine.compaction_count == 0


def test_failed_results_say_so_when_pruned() -> None:
    engine = engine_at(2048)
    engine.add("user", "Run the tests.")
    call_and_result(engine, 0, "Error: no such file src/file_0.py", error=True)
    for n in range(1, 5):
        call_and_result(engine, n, lines_of(120, n))
    first = next(m["content"] for m in engine.api_messages() if m.get("tool_call_id") ==
                 "call_0")
    assert "failed" in first and "no such file" in first


# ----------------------------------------------------------------- schemas
def big_spec(name: str, size: int) -> ToolSpec:
    return ToolSpec(name=name, description=words(size, len(name)), parameters={
        "type": "object", "properties": {"q": {"type": "string"}}})


def test_schemas_are_counted_ordered_and_refused_over_their_share() -> None:
    engine = engine_at(4096)
    engine.add("user", "hello")
    before = engine.api_tokens()
    small = [big_spec("zeta", 20), big_spec("alpha", 30)]
    checked = engine.set_tools(small)
    assert [t["function"]["name"] for t in engine.api_tools()] == ["alpha", "zeta"]
    engine.set_tools(list(reversed(small)))  # the same set in another order: same bytes
    assert [t["function"]["name"] for t in engine.api_tools()] == ["alpha", "zeta"]
    assert engine.api_tokens() == before + checked.tokens
    assert engine.usage().tools == checked.tokens
    huge = [big_spec("search_everything", 500), big_spec("fetch_page", 300),
            big_spec("tiny", 5)]
    with pytest.raises(ToolsOverBudget) as refused:
        engine.set_tools(huge)
    message = str(refused.value)
    assert message.index("search_everything") < message.index("fetch_page")
    assert "tiny" in message and "fewer tools" in message
    assert [t["function"]["name"] for t in engine.api_tools()] == ["alpha", "zeta"]  # kept


# ----------------------------------------------------------------- summaries
class Capturing(GoodSummarizer):
    pass


def test_summary_material_names_tools_and_outcomes_not_output() -> None:
    summarizer = Capturing()
    engine = engine_at(2048, summarizer)
    secret = "UNIQUE_DEEP_LINE_7731"
    for turn in range(8):
        engine.add("user", f"Turn {turn}: read src/file_{turn}.py please. " + words(20, turn))
        call_and_result(engine, turn, "header line\n" + lines_of(100, turn) + f"\n{secret}")
        engine.add("assistant", f"File {turn} has {turn * 10} lines. " + words(30, turn))
        if engine.needs_compaction():
            run(engine.compact())
    report = run(engine.compact(force=True))
    assert report.status == "compacted" or engine.compaction_count > 0
    prompts = "\n".join(m["content"] for p in summarizer.prompts for m in p)
    assert "read_file" in prompts
    assert secret not in prompts  # no result's output, only its first line
    assert engine.api_tokens() <= engine.usable
    assert pairs_valid(engine.api_messages())


# ----------------------------------------------------------------- property
STEP = st.one_of(
    st.tuples(st.just("user"), st.integers(5, 120)),
    st.tuples(st.just("tool"), st.integers(1, 4), st.integers(10, 4000), st.booleans()),
    st.tuples(st.just("assistant"), st.integers(5, 200)),
    st.tuples(st.just("reload")),
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=st.sampled_from([2048, 4096, 8192]), seed=st.integers(0, 1000),
       steps=st.lists(STEP, min_size=10, max_size=40), tools=st.integers(0, 6))
def test_tool_heavy_chats_never_exceed_the_window(size: int, seed: int, steps: list[tuple],
                                                  tools: int) -> None:
    summarizer = GoodSummarizer()
    engine = engine_at(size, summarizer)
    specs = [big_spec(f"tool_{n}", 15 + 10 * n) for n in range(tools)]
    if engine.check_tools(specs).fits:
        engine.set_tools(specs)
    else:  # refused: the chat keeps no tools
        with pytest.raises(ToolsOverBudget):
            engine.set_tools(specs)
        specs = []
    engine.add("user", "Start. " + words(10, seed))
    for n, step in enumerate(steps):
        if step[0] == "user":
            engine.add("user", words(step[1], seed + n))
        elif step[0] == "assistant":
            engine.add("assistant", words(step[1], seed + n))
        elif step[0] == "tool":
            _, calls, tokens, error = step
            asked = [ToolCall(id=f"c{n}_{i}", name="read_file", arguments={"path": f"f{i}"})
                     for i in range(calls)]
            engine.add_message(Message(role="assistant", content="", tool_calls=asked))
            for call in asked:
                engine.add_message(Message(role="tool", content=lines_of(tokens, n),
                                           tool_name="read_file", tool_call_id=call.id,
                                           tool_error=error))
        else:
            engine = ContextEngine.from_state(engine.state(), None, summarizer)
            engine.set_tools(specs)
        if engine.needs_compaction():
            run(engine.compact())
        usage = engine.usage()
        assert usage.total <= usage.usable
        assert strict_total(engine) <= size
        api = engine.api_messages()
        assert pairs_valid(api)
        cap = result_cap(engine.config)
        for entry in api:
            if entry["role"] == "tool":  # never a result whole over its share
                assert count_tokens(entry["content"]) <= cap + 8


# ----------------------------------------------------------------- provenance
def test_tool_output_states_no_user_fact_and_corrects_none() -> None:
    engine = engine_at(4096)
    engine.add("user", "The API port is 8443.")
    before = [(f.value, f.source) for f in engine.facts]
    engine.add("assistant", "Noted.")
    call_and_result(engine, 0, "config.yaml:\nport: 9999\nThe API port is now 9999.")
    after = [(f.value, f.source) for f in engine.facts]
    assert after == before  # the tool's 9999 neither becomes a fact nor replaces 8443
    assert all(source != "tool" for _, source in after)


# ----------------------------------------------------------------- schemas lean, recall room
def test_schemas_go_without_their_title_annotations_a_title_property_stays() -> None:
    from ollm_desktop.engine.tool_types import lean_schema
    generated = {"title": "read_fileArguments", "type": "object", "required": ["path"],
                 "properties": {"path": {"title": "Path", "type": "string"},
                                "title": {"title": "Title", "type": "string"},
                                "tags": {"type": "array", "items": {"title": "Tag",
                                                                    "type": "string"}}}}
    lean = lean_schema(generated)
    assert lean == {"type": "object", "required": ["path"],
                    "properties": {"path": {"type": "string"}, "title": {"type": "string"},
                                   "tags": {"type": "array", "items": {"type": "string"}}}}
    spec = SPEC.model_copy(update={"parameters": generated})
    assert '"title"' in json.dumps(spec.wire()) and "Arguments" not in spec.wire_text()
    assert spec.parameters == generated  # the tool's own schema is kept as the server gave it


def _asked_about(size: int, yield_room: bool) -> tuple[str, str]:
    """A chat of file reads until the first file's result is pruned and the request is full
    of kept results, then a question about that first file: the request that asks."""
    import sqlite3

    from ollm_desktop.storage.recall_index import RecallIndex
    engine = engine_at(size)
    index = RecallIndex(sqlite3.connect(":memory:"), chat_id="t")
    port = "SERVICE_PORT = 7391  # the port of src/file_0.py"
    for n in range(6):
        user = engine.add("user", f"Look at src/file_{n}.py please.")
        body = lines_of(60, n) + (f"\n{port}\n" if n == 0 else "\n") + lines_of(60, n + 50)
        _asked, answered = call_and_result(engine, n, f"# src/file_{n}.py\n{body}")
        index.add_round(user.content, f'read_file({{"path": "src/file_{n}.py"}})\n'
                        + answered.content, message_ids=(user.id, answered.id))
        reply = engine.add("assistant", f"File {n} looks fine.")
        index.add_round("", reply.content, message_ids=(reply.id,))
    assert engine.tool_result_states()[engine.display_messages()[2].id] == "pruned"
    from ollm_desktop.engine import budget
    usable = budget.usable_tokens(engine.config)
    n = 0
    while engine.api_tokens() < usable - 50:  # a full window: the room left is small
        engine.add("user", f"And the tests {n}?")
        engine.add("assistant", words(40, n))
        n += 1
    engine.add("user", "What SERVICE_PORT did src/file_0.py define?")
    if not yield_room:  # the rule disabled: no round counts as a tool's result
        engine._is_result = lambda round_: False  # type: ignore[method-assign]
    messages, _found = engine.recall_request(index, messages_text(engine))
    assert engine.api_tokens() <= usable
    return messages[-1]["content"], json.dumps(engine.api_messages())


def messages_text(engine: ContextEngine) -> str:
    return engine.display_messages()[-1].content


def test_a_question_about_a_pruned_result_gets_room_in_the_request_that_asks() -> None:
    asking, after = _asked_about(2048, yield_room=True)
    assert "SERVICE_PORT = 7391" in asking  # the line that answers, with its subject
    assert "7391" not in after  # for that request only: the next is as before


def test_without_room_given_the_pruned_result_is_not_recalled() -> None:
    """The same chat with the kept results never giving way (the rule disabled): the answer
    does not reach the request, so the test above fails without the rule."""
    asking, _after = _asked_about(2048, yield_room=False)
    assert "7391" not in asking


def test_a_tight_room_keeps_the_line_that_states_what_is_asked() -> None:
    from ollm_desktop.engine.recall import RecalledRound, compose
    text = "\n".join(["# src/app_3.py", *[f"def handler_{n}(request): pass" for n in range(40)],
                      "SERVICE_PORT = 7103  # the port of src/app_3.py"])
    round_ = RecalledRound(("u", "r"), 4, "Turn 3: look at src/app_3.py.", text, 9.0)
    found = compose([round_], "What SERVICE_PORT did src/app_3.py define?", room=60,
                    count=count_tokens, notes={})
    assert "SERVICE_PORT = 7103" in found.text and found.partial == [True]


def test_exports_carry_the_calls_and_results_and_a_json_import_keeps_them() -> None:
    from ollm_desktop.storage.export import export_json, export_markdown, import_json
    from ollm_desktop.storage.models import ChatRecord
    engine = engine_at(4096)
    engine.add("user", "Read the config.")
    call_and_result(engine, 0, "PORT = 8443")
    call_and_result(engine, 1, "no such file", error=True)
    engine.add("assistant", "The port is 8443.")
    from datetime import UTC, datetime
    now = datetime.now(UTC)
    chat = ChatRecord(id="c", title="tools", model="m", context_size=4096, created_at=now,
                      updated_at=now, message_count=6)
    markdown = export_markdown(chat, engine.state(), engine.api_messages())
    assert 'Called `read_file` with `{"path": "src/file_0.py"}`' in markdown
    assert "· read_file · failed" in markdown and "PORT = 8443" in markdown
    back = import_json(export_json(chat, engine.state(), engine.api_messages())).state
    calls = [c for m in back.messages for c in m.tool_calls]
    assert [c.arguments for c in calls] == [{"path": "src/file_0.py"}, {"path": "src/file_1.py"}]
    results = [m for m in back.messages if m.role == "tool"]
    assert [(m.tool_name, m.tool_error) for m in results] == [("read_file", False),
                                                              ("read_file", True)]
    assert {m.tool_call_id for m in results} == {c.id for c in calls}
