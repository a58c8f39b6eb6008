"""Hostile model output through the whole stack into the real MainWindow.

Replies carry raw HTML, ``<script>``, local-file and remote images (pointing at a loopback
listener that counts connections and a FIFO that notices any open), a 500 KB single line and
invalid UTF-8. They must show as text, load nothing, and never stall the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from ollm_desktop.controller import ChatController
from ollm_desktop.paths import app_paths
from ollm_desktop.ui.main_window import MainWindow
from ollm_desktop.ui.text.markdown import SafeTextDocument
from tests.controller_harness import MODEL, make_controller, run, settle, until
from tests.faults.servers import RawBytesOllama
from tests.ollama_server import Reply

pytestmark = pytest.mark.faultgroup("hostile")

REPO = Path(__file__).resolve().parents[2]


class ConnectionCounter:
    """A loopback listener that only counts who connects (nobody should)."""

    def __init__(self) -> None:
        self.count = 0
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self._sock.settimeout(0.05)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def port(self) -> int:
        return int(self._sock.getsockname()[1])

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except (TimeoutError, OSError):
                continue
            self.count += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self._sock.close()


class OpenDetector:
    """A FIFO standing in for a local file; a watcher process counts every open for reading."""

    def __init__(self, path: Path) -> None:
        self.path = path
        os.mkfifo(path)
        self._proc = subprocess.Popen([sys.executable, "-m", "tests.faults.fifo_watch",
                                       str(path)], cwd=REPO, stdout=subprocess.PIPE,
                                      env={**os.environ, "PYTHONPATH": str(REPO)})

    def close(self) -> int:
        if self._proc.poll() is None:
            self._proc.terminate()
        out, _ = self._proc.communicate(timeout=10)
        return out.decode().split().count("open")


@pytest.fixture
def raw_server() -> Iterator[RawBytesOllama]:
    fake = RawBytesOllama().start()
    yield fake
    assert fake.stop() == 0


@pytest.fixture
def app(qloop, qtbot, tmp_path, raw_server) -> Iterator[tuple[ChatController, MainWindow]]:
    controller = make_controller(tmp_path / "data", raw_server)
    window = MainWindow(controller, app_paths(tmp_path / "data"))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    yield controller, window
    qloop.run_until_complete(controller.shutdown())


@pytest.fixture
def listener() -> Iterator[ConnectionCounter]:
    counter = ConnectionCounter()
    yield counter
    counter.close()


async def send_from_window(controller: ChatController, window: MainWindow, text: str) -> None:
    """Type and click Send like a user, then wait for the reply and a full repaint."""
    finished: list[object] = []
    controller.replyFinished.connect(lambda m, info: finished.append(m))
    window.message_input.setPlainText(text)
    window.send_button.click()
    await until(lambda: bool(finished) and not controller.busy, timeout=30)
    await settle(controller)
    window.grab()  # paints every visible row, laying out its document
    await asyncio.sleep(0)


def reply_document(window: MainWindow) -> SafeTextDocument:
    model = window.conversation_model
    row = next(r for r in reversed(model.rows) if r.message is not None
               and r.message.role == "assistant")
    return window.conversation_view.message_delegate.document(row)


def hostile_markup(port: int) -> str:
    return "\n\n".join([
        "<script>alert('owned')</script>",
        f'<b>not bold</b> <iframe src="http://127.0.0.1:{port}/frame"></iframe>',
        '<img src="file:///etc/passwd">',
        f'<img src="http://127.0.0.1:{port}/tracker.png">',
        f"![remote](http://127.0.0.1:{port}/x.png)",
        f"[a link](http://127.0.0.1:{port}/click) <style>body{{background:url("
        f"http://127.0.0.1:{port}/bg.png)}}</style>",
    ])


def test_markup_and_remote_images_show_as_text_and_connect_nowhere(qloop, app, raw_server,
                                                                    listener):
    controller, window = app
    text = hostile_markup(listener.port)
    raw_server.script(Reply(text=text))
    run(qloop, send_from_window(controller, window, "Show me something"))
    doc = reply_document(window)
    shown = doc.toPlainText()
    assert "<script>alert('owned')</script>" in shown
    assert "<b>not bold</b>" in shown and '<img src="file:///etc/passwd">' in shown
    assert "root:" not in shown
    html = doc.toHtml()
    assert "<script" not in html and "<iframe" not in html and "<b>" not in html
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QTextDocument

    url = QUrl(f"http://127.0.0.1:{listener.port}/x.png")
    served = doc.resource(QTextDocument.ResourceType.ImageResource, url)
    assert (served.width(), served.height()) == (1, 1)  # the blank, not the URL's content
    assert listener.count == 0, "the view opened a connection"
    stored = controller.session.store.load_engine_state(controller.chat.id).messages[-1]
    assert stored.content == text  # kept character for character, only displayed safely


def test_markdown_image_of_a_local_file_is_never_opened(qloop, app, raw_server, tmp_path):
    controller, window = app
    detector = OpenDetector(tmp_path / "secret.png")
    try:
        raw_server.script(Reply(text=f"Look: ![local](file://{detector.path}) and "
                                     f"![passwd](file:///etc/passwd)"))
        SafeTextDocument.load_attempts = 0
        run(qloop, send_from_window(controller, window, "Show me a picture"))
        shown = reply_document(window).toPlainText()
    finally:
        opens = detector.close()
    assert "root:" not in shown
    assert opens == 0, f"the view opened the local file {opens} times"


def test_a_500kb_single_line_streams_without_freezing(qloop, app, raw_server, qtbot):
    """What keeps the window responsive while it streams: chunks are applied in batches (one
    relayout for all that came meanwhile, never one per chunk), and the view lays out a
    capped text. How long the loop stalls is a figure of the stall benchmark, not a test."""
    controller, window = app
    model = window.conversation_model
    line = "".join(f"{i:07d}|" for i in range(64_000))  # 512 KB, no whitespace at all
    pieces = [line[i:i + 16_000] for i in range(0, len(line), 16_000)]
    raw_server.script(Reply(chunks=pieces, delay_per_chunk=0.005))
    chunks: list[str] = []
    controller.replyChunk.connect(lambda _id, text: chunks.append(text))
    relayouts: list[int] = []
    model.dataChanged.connect(lambda first, _last: relayouts.append(first.row()))
    run(qloop, send_from_window(controller, window, "One enormous line please"))
    window.conversation_view.scrollToBottom()
    window.grab()
    assert "".join(chunks) == line
    assert len(relayouts) <= len(chunks)  # never more than one relayout per chunk
    assert controller.session.engine.display_messages()[-1].content == line
    doc = reply_document(window)
    assert len(doc.toPlainText()) < 30_000  # only a capped view is laid out
    stored = controller.session.store.load_engine_state(controller.chat.id).messages[-1]
    assert stored.content == line
    # Chunks that arrive together are applied together: 32 of them, one relayout.
    reply = controller.session.engine.display_messages()[-1]
    relayouts.clear()
    for piece in pieces:
        model.append_stream_text(reply.id, piece)
    assert relayouts == []  # queued, not laid out per chunk
    with qtbot.waitSignal(model.dataChanged, timeout=5000):
        pass
    assert len(relayouts) == 1
    assert len(reply_document(window).toPlainText()) < 30_000  # still capped at 1 MB


def test_invalid_utf8_from_the_server_is_shown_not_fatal(qloop, app, raw_server):
    controller, window = app
    errors: list[tuple[str, str]] = []
    controller.error.connect(lambda kind, text: errors.append((kind, text)))
    failed: list[tuple[str, str]] = []
    controller.sendFailed.connect(lambda text, why: failed.append((text, why)))
    head = json.dumps({"model": MODEL, "created_at": "2026-11-01T00:00:00Z",
                       "message": {"role": "assistant", "content": "before "}, "done": False})
    bad = (b'{"model":"' + MODEL.encode() + b'","created_at":"2026-11-01T00:00:00Z",'
           b'"message":{"role":"assistant","content":"bad \xff\xfe bytes \xc3( end"},'
           b'"done":false}\n')
    done = json.dumps({"model": MODEL, "created_at": "2026-11-01T00:00:01Z",
                       "message": {"role": "assistant", "content": ""}, "done": True,
                       "done_reason": "stop", "prompt_eval_count": 10, "eval_count": 3})
    raw_server.raw_lines = [head.encode() + b"\n", bad, done.encode() + b"\n"]
    run(qloop, send_from_window(controller, window, "Send me broken bytes"))
    raw_server.raw_lines = []
    messages = controller.session.engine.display_messages()
    assert messages[0].content == "Send me broken bytes"  # the user's text is kept
    if failed:
        # Rejected as a whole: said so in words, the text given back.
        assert failed[-1][0] == "Send me broken bytes" and failed[-1][1].strip()
    else:
        reply = messages[-1]
        assert reply.role == "assistant" and reply.content.startswith("before")
        # Whatever survived is valid text (replacement characters), and it is on screen.
        reply.content.encode("utf-8")
        assert "bytes" in reply.content or errors
        assert reply_document(window).toPlainText().startswith("before")
    with contextlib.suppress(Exception):
        window.grab()
    # The app still works afterwards.
    raw_server.script(Reply(text="clean answer"))
    run(qloop, send_from_window(controller, window, "And now a normal one"))
    assert controller.session.engine.display_messages()[-1].content == "clean answer"
