"""The real controller and session against the loopback stand-ins for llama.cpp's server, vLLM
and LM Studio (issue 24): 20 turns at a 2,048-token window compact with no over-length
refusal and counts from the server; the wire is checked; wrong address, refused key, unknown
model and a missing keyring each say what is wrong and give the user's text back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import keyring
import keyring.backend
import keyring.errors
import pytest
from keyring.backends import fail

from ollm_desktop.backend import Connection
from ollm_desktop.controller import ChatController
from ollm_desktop.paths import app_paths
from ollm_desktop.session import Settings
from ollm_desktop.storage import ChatStore
from tests.controller_harness import is_turn, run, scripted_model, settle, turn
from tests.ollama_server import free_port
from tests.openai_server import FakeOpenAI, FakeReply, ServedModel, prompt_tokens

QUESTION = "Tell me more about the deployment plan, the staging hosts and the rollback steps"
MODELS = {"llama.cpp": "smollm2-135m", "vllm": "Qwen/Qwen3-8B", "lmstudio": "qwen3-4b"}


class MemoryKeyring(keyring.backend.KeyringBackend):
    """A keyring that keeps keys in memory (a desktop session's Secret Service, for tests)."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.keys: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.keys.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.keys[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.keys.pop((service, username), None) is None:
            raise keyring.errors.PasswordDeleteError("no such key")


@pytest.fixture
def memory_keyring():
    previous = keyring.get_keyring()
    ring = MemoryKeyring()
    keyring.set_keyring(ring)
    yield ring
    keyring.set_keyring(previous)


@pytest.fixture
def no_keyring():
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(previous)


def make(data_dir: Path, url: str, model: str | None, *, has_key: bool = False,
         host: str | None = None, **overrides: Any) -> ChatController:
    paths = app_paths(data_dir)
    paths.ensure()
    store, _ = ChatStore.open(paths)
    lab = Connection(id="lab", name="Lab server", url=url, has_key=has_key)
    values: dict[str, Any] = {"default_model": model, "context_size": 8192,
                              "connections": [lab], "default_connection": "lab"}
    settings = Settings(**{**values, **overrides})
    return ChatController(store, settings, host=host)


def collect_signals(controller: ChatController) -> dict[str, list[Any]]:
    seen: dict[str, list[Any]] = {"errors": [], "notices": [], "failed": [], "status": [],
                                  "compactions": []}
    controller.error.connect(lambda kind, text: seen["errors"].append((kind, text)))
    controller.notice.connect(seen["notices"].append)
    controller.sendFailed.connect(lambda text, why: seen["failed"].append((text, why)))
    controller.ollamaStatus.connect(seen["status"].append)
    controller.compactionFinished.connect(seen["compactions"].append)
    return seen


# ------------------------------------------------------------- 20 turns at 2K
@pytest.mark.parametrize("flavour", ["llama.cpp", "vllm", "lmstudio"])
def test_twenty_turns_at_2k_compact_without_an_overlength_request(qloop, tmp_path, flavour):
    model = MODELS[flavour]
    fake = FakeOpenAI(flavour, [ServedModel(model, window=2048, n_ctx_train=8192)]).start()
    fake.reply_fn = scripted_model(90)
    controller = make(tmp_path / "data", fake.url + "/v1", model)
    seen = collect_signals(controller)

    async def scenario() -> None:
        await controller.refresh_ollama()
        for i in range(20):
            await turn(controller, f"Question {i}: {QUESTION}.")
        await settle(controller)

    try:
        run(qloop, scenario())
        session = controller.session
        # The window is the server's: the chat's 8,192 was lowered to the slot's 2,048.
        assert controller.chat is not None and controller.chat.context_size == 2048
        assert any("2,048 tokens of context" in n for n in seen["notices"])
        assert controller.chat.settings.connection == "lab"
        assert session.connections.current.kind == flavour  # probed, and remembered
        assert session.settings.connections[0].kind == flavour
        # It compacts, and no request was over the window.
        assert len(seen["compactions"]) >= 1 and session.engine.compaction_count >= 1
        assert fake.refusals == []
        assert all(s.outcome == "done" for s in fake.streams), [s.outcome for s in fake.streams]
        assert seen["errors"] == [] and seen["failed"] == []
        chats = [b for b in fake.chat_requests() if is_turn(b)]
        assert len(chats) == 20
        for body in fake.chat_requests():
            assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
            assert isinstance(body["max_tokens"], int) and body["max_tokens"] > 0
            assert "truncate_prompt_tokens" not in body
            assert prompt_tokens(body["messages"]) + body["max_tokens"] <= 2048
        # Counts come from the server: its exact counts where it has an endpoint, and its
        # usage.prompt_tokens taught the calibration of this connection and model.
        calibration = session.calibrations.for_model(model)
        assert session.calibrations.key(model) == f"lab\x1e{model}"
        assert calibration.samples >= 10
        if flavour == "llama.cpp":
            assert "/v1/chat/completions/input_tokens" in fake.paths()
        if flavour == "vllm":
            assert "/tokenize" in fake.paths()
        # The engine's estimate of the last request is at or above the server's own count.
        last = chats[-1]
        assert session.engine.config.estimate_scale >= 1.0 or calibration.samples
        info = controller.message(session.engine.display_messages()[-1].id)
        assert info is not None and info.stats is not None
        assert info.stats.prompt_tokens == prompt_tokens(last["messages"])
    finally:
        run(qloop, controller.shutdown())
        fake.stop()


def test_the_command_line_host_is_probed_and_the_model_size_read(qloop, tmp_path):
    fake = FakeOpenAI("llama.cpp", [ServedModel("smollm2-135m", window=2048)]).start()
    fake.script("Hello from llama.cpp.")
    paths = app_paths(tmp_path / "data")
    paths.ensure()
    store, _ = ChatStore.open(paths)
    controller = ChatController(store, Settings(default_model="smollm2-135m"),
                                host=fake.url + "/v1")
    seen = collect_signals(controller)

    async def scenario() -> None:
        await controller.refresh_ollama()
        await turn(controller, "Hi!")

    try:
        run(qloop, scenario())
        status = seen["status"][-1]
        assert status.reachable and status.server == "llama.cpp server"
        assert not status.can_pull and not status.can_start
        assert controller.snapshot.server_window == 2048
        assert controller.session.parameter_billions() == pytest.approx(0.1345, rel=1e-3)
        # --host is for this run: nothing about it is saved with the chat or the settings.
        assert controller.chat is not None and controller.chat.settings.connection is None
        assert controller.session.settings.connections == []
    finally:
        run(qloop, controller.shutdown())
        fake.stop()


# ------------------------------------------------------------------- errors
def test_a_wrong_address_says_so_and_keeps_the_text(qloop, tmp_path):
    url = f"http://127.0.0.1:{free_port()}/v1"
    controller = make(tmp_path / "data", url, "some-model")
    seen = collect_signals(controller)

    async def scenario() -> None:
        await controller.refresh_ollama()
        await turn(controller, "Is anybody there?")

    try:
        run(qloop, scenario())
        status = seen["status"][-1]
        assert not status.reachable and status.error_kind == "unreachable"
        assert "not reachable at" in status.error and "127.0.0.1" in status.error
        assert seen["failed"] and seen["failed"][-1][0] == "Is anybody there?"
        assert "not reachable" in seen["failed"][-1][1]
    finally:
        run(qloop, controller.shutdown())


def test_a_server_that_wants_a_key_says_so_and_keeps_the_text(qloop, tmp_path, memory_keyring):
    fake = FakeOpenAI("vllm", [ServedModel("Qwen/Qwen3-8B")], api_key="sekrit").start()
    controller = make(tmp_path / "data", fake.url, "Qwen/Qwen3-8B")
    seen = collect_signals(controller)

    async def scenario() -> None:
        await controller.refresh_ollama()
        await turn(controller, "Hello with no key")
        # The key goes to the keyring (never to settings.json), and the connection uses it.
        assert controller.set_api_key("lab", "sekrit")
        controller.session.settings.connections = [
            controller.session.settings.connections[0].model_copy(update={"has_key": True})]
        controller.apply_settings()
        await settle(controller)
        fake.script("Now I can answer.")
        await turn(controller, "Hello with the key")

    try:
        run(qloop, scenario())
        refused = seen["status"][0]
        assert not refused.reachable and refused.error_kind == "unauthorized"
        assert "wants an API key" in refused.error
        assert seen["failed"][0][0] == "Hello with no key"
        assert "API key" in seen["failed"][0][1]
        assert memory_keyring.keys == {("ollm-desktop", "lab"): "sekrit"}
        assert "sekrit" not in controller.session.settings.model_dump_json()
        assert seen["status"][-1].reachable
        assert controller.display_messages()[-1].content == "Now I can answer."
    finally:
        run(qloop, controller.shutdown())
        fake.stop()


def test_an_unknown_model_says_so_and_keeps_the_text(qloop, tmp_path):
    fake = FakeOpenAI("vllm", [ServedModel("Qwen/Qwen3-8B")]).start()
    controller = make(tmp_path / "data", fake.url, "no-such-model")
    seen = collect_signals(controller)

    async def scenario() -> None:
        await controller.refresh_ollama()
        await turn(controller, "Which model are you?")

    try:
        run(qloop, scenario())
        status = seen["status"][-1]
        assert status.reachable and status.model_missing and not status.can_pull
        text, why = seen["failed"][-1]
        assert text == "Which model are you?" and "no model 'no-such-model'" in why
        assert fake.refusals == []
    finally:
        run(qloop, controller.shutdown())
        fake.stop()


def test_no_keyring_says_so_and_points_at_api_key_env(qloop, tmp_path, no_keyring, monkeypatch):
    fake = FakeOpenAI("vllm", [ServedModel("Qwen/Qwen3-8B")], api_key="sekrit").start()
    controller = make(tmp_path / "data", fake.url, "Qwen/Qwen3-8B", has_key=True)
    seen = collect_signals(controller)

    async def scenario() -> None:
        await controller.refresh_ollama()
        await turn(controller, "Hello from a headless box")

    try:
        run(qloop, scenario())
        assert any(kind == "keyring" and "--api-key-env" in text
                   for kind, text in seen["errors"])
        assert not controller.set_api_key("lab", "sekrit")  # cannot be kept: said why
        assert seen["errors"][-1][0] == "keyring"
        assert seen["failed"][-1][0] == "Hello from a headless box"
    finally:
        run(qloop, controller.shutdown())
    # The same server, the key from the environment for this run.
    monkeypatch.setenv("LAB_KEY", "sekrit")
    paths = app_paths(tmp_path / "data2")
    paths.ensure()
    store, _ = ChatStore.open(paths)
    headless = ChatController(store, Settings(default_model="Qwen/Qwen3-8B"), host=fake.url,
                              api_key_env="LAB_KEY")
    fake.script("Hello, headless.")
    try:
        run(qloop, turn(headless, "And now?"))
        assert headless.display_messages()[-1].content == "Hello, headless."
    finally:
        run(qloop, headless.shutdown())
        fake.stop()


def test_reasoning_and_stop_through_the_controller(qloop, tmp_path):
    fake = FakeOpenAI("vllm", [ServedModel("Qwen/Qwen3-8B")]).start()
    fake.script(FakeReply("The answer is 42.", reasoning="First, think."))
    controller = make(tmp_path / "data", fake.url, "Qwen/Qwen3-8B")
    thoughts: list[str] = []
    controller.replyThinking.connect(lambda _id, text: thoughts.append(text))

    try:
        run(qloop, turn(controller, "What is the answer?"))
        reply = controller.display_messages()[-1]
        assert reply.content == "The answer is 42." and reply.thinking == "First, think."
        assert "".join(thoughts) == "First, think."
    finally:
        run(qloop, controller.shutdown())
        fake.stop()


def test_a_server_that_cuts_the_prompt_silently_is_reported(qloop, tmp_path):
    # LM Studio reloaded with a smaller context than the app last read: its default policy
    # cuts the prompt and answers; the count well below ours is reported as truncation.
    model = MODELS["lmstudio"]
    fake = FakeOpenAI("lmstudio", [ServedModel(model, window=8192, n_ctx_train=32768)]).start()
    fake.reply_fn = scripted_model(120)
    controller = make(tmp_path / "data", fake.url, model)
    truncated: list[bool] = []
    controller.replyFinished.connect(lambda _m, info: truncated.append(info.truncated))

    async def scenario() -> None:
        await controller.refresh_ollama()
        for i in range(6):
            await turn(controller, f"Question {i}: {QUESTION}.")
        fake.models[0].window = 600  # reloaded smaller; the app's reading is still fresh
        await turn(controller, "And what about the database migration?")

    try:
        run(qloop, scenario())
        assert fake.streams[-1].outcome == "truncated"
        assert truncated[-1] is True and not any(truncated[:-1])
    finally:
        run(qloop, controller.shutdown())
        fake.stop()


def test_the_host_setting_takes_an_openai_compatible_base_url(qloop, tmp_path):
    fake = FakeOpenAI("llama.cpp", [ServedModel("smollm2-135m", window=2048)]).start()
    fake.script("Hi from the host field.", "Hello again.")
    paths = app_paths(tmp_path / "data")
    paths.ensure()
    store, _ = ChatStore.open(paths)
    controller = ChatController(store, Settings(ollama_host=fake.url + "/v1",
                                                default_model="smollm2-135m"))
    seen = collect_signals(controller)

    async def scenario() -> None:
        await controller.refresh_ollama()
        await turn(controller, "Hi!")
        controller.new_chat()
        await settle(controller)
        await turn(controller, "Hi again!")

    try:
        run(qloop, scenario())
        assert seen["status"][-1].server == "llama.cpp server"
        assert controller.display_messages()[-1].content == "Hello again."
        assert fake.paths().count("/api/version") == 1  # asked once, then known for the run
    finally:
        run(qloop, controller.shutdown())
        fake.stop()


def test_a_chat_moves_to_another_server_in_its_settings(qloop, tmp_path, ollama_server):
    from ollm_desktop.storage.models import ChatSettings

    ollama_server.script("From Ollama.")
    fake = FakeOpenAI("vllm", [ServedModel("Qwen/Qwen3-8B")]).start()
    fake.script("From vLLM.")
    controller = make(tmp_path / "data", fake.url, "llama3.2:3b",
                      ollama_host=ollama_server.url, default_connection=None)
    seen = collect_signals(controller)

    async def scenario() -> None:
        await controller.refresh_ollama()
        await turn(controller, "Hello Ollama")
        assert controller.server_choices() == [(None, "Local Ollama"), ("lab", "Lab server")]
        assert controller.apply_chat_settings(ChatSettings(connection="lab"), None)
        await settle(controller)
        controller.set_model("Qwen/Qwen3-8B")
        await settle(controller)
        await turn(controller, "Hello vLLM")

    try:
        run(qloop, scenario())
        assert [m.content for m in controller.display_messages()][-1] == "From vLLM."
        assert controller.chat is not None and controller.chat.settings.connection == "lab"
        assert seen["status"][-1].server == "vLLM"
        assert len(ollama_server.chat_requests()) == 1 and len(fake.chat_requests()) == 1
    finally:
        run(qloop, controller.shutdown())
        fake.stop()


@pytest.mark.parametrize(("flavour", "shape"), [("llama.cpp", "http"), ("llama.cpp", "event"),
                                                ("llama.cpp", "line"), ("vllm", "http")])
def test_a_refused_request_is_learned_compacted_and_resent_once(qloop, tmp_path, flavour,
                                                                 shape):
    model = MODELS[flavour]
    fake = FakeOpenAI(flavour, [ServedModel(model, window=2048)]).start()
    fake.counting = False  # the app cannot count first: only the server's answer tells
    fake.overflow_in_stream = None if shape == "http" else shape
    fake.reply_fn = scripted_model(90)
    controller = make(tmp_path / "data", fake.url, model)
    seen = collect_signals(controller)

    async def scenario() -> None:
        await controller.refresh_ollama()
        for i in range(6):
            await turn(controller, f"Question {i}: {QUESTION}.")
        fake.scale = 2.5  # the model now counts far more than the app learned
        await turn(controller, "Question 6: and the database migration, step by step?")

    try:
        run(qloop, scenario())
        # Refused as over-length once, then fitted and resent (a vLLM refusal of the reply cap
        # alone, the prompt fitting, is answered inside the backend with the room it names).
        assert len([p for p, window in fake.refusals if p >= window]) == 1
        assert any("fitted again and the message resent" in n for n in seen["notices"])
        assert not seen["failed"]
        assert controller.display_messages()[-1].role == "assistant"
        assert fake.streams[-1].outcome == "done"
    finally:
        run(qloop, controller.shutdown())
        fake.stop()
