"""Images for vision models through the real window (issue 15), against the loopback fake
Ollama: attached with the Attach button (its file dialog answered, never a native one), a
dropped file and a pasted picture; shown waiting in the strip above the input; sent as
``images`` (base64) on the user's message; painted as thumbnails in the message's row."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QObject, QPointF, Qt, QUrl
from PySide6.QtGui import QAction, QColor, QDragEnterEvent, QDropEvent, QImage, QPainter
from PySide6.QtWidgets import QApplication, QFileDialog, QLabel, QPushButton, QWidget

from ollm_desktop.ui.conversation import row_images
from tests.controller_harness import chat_turns, run, scripted_model, settle
from tests.ollama_server import FakeModel
from tests.test_ui_main_window import App

VISION = "eyes:2b"
RED = QColor(220, 30, 30)
BLUE = QColor(30, 60, 220)


@pytest.fixture
def server(ollama_server):
    ollama_server.models.append(FakeModel(VISION, "mystery", "2.0B", 32768,
                                          capabilities=("completion", "vision")))
    ollama_server.reply_fn = scripted_model(reply_words=30)
    return ollama_server


@pytest.fixture
def app(qloop, qtbot, tmp_path, server):
    a = App(qloop, qtbot, tmp_path / "data", server, default_model=VISION)
    yield a
    a.close()


def picture(path: Path, colour: QColor, size: tuple[int, int] = (320, 200)) -> Path:
    image = QImage(*size, QImage.Format.Format_RGB32)
    image.fill(colour)
    assert image.save(str(path))
    return path


def chart(path: Path, shift: int = 0) -> Path:
    """A small bar chart (for the screenshot)."""
    image = QImage(480, 300, QImage.Format.Format_RGB32)
    image.fill(QColor(250, 250, 252))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QColor(120, 120, 130))
    painter.drawLine(40, 260, 460, 260)
    painter.drawLine(40, 20, 40, 260)
    for n, (height, colour) in enumerate(((120, "#4e79a7"), (230, "#e15759"), (90, "#76b7b2"),
                                          (150, "#59a14f"))):
        height = max(30, height - shift * (n % 2))
        painter.fillRect(70 + n * 100, 260 - height, 60, height, QColor(colour))
        painter.drawText(70 + n * 100, 280, 60, 16, Qt.AlignmentFlag.AlignCenter,
                         ("us-east", "eu-west", "ap-south", "sa-east")[n])
    painter.end()
    assert image.save(str(path))
    return path


def strip(app: App) -> QWidget:
    return app.find(QWidget, "pendingImages")


def tiles(app: App) -> list[QWidget]:
    return [w for w in strip(app).findChildren(QWidget, "pendingImage") if not w.isHidden()]


def drop(target: QWidget, files: list[Path]) -> None:
    """A real drag-and-drop of files onto ``target``: enter, then drop."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(f)) for f in files])
    where = QPointF(target.rect().center())
    actions = Qt.DropAction.CopyAction
    enter = QDragEnterEvent(where, actions, mime, Qt.MouseButton.NoButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(target, enter)
    assert enter.isAccepted()
    event = QDropEvent(where, actions, mime, Qt.MouseButton.NoButton,
                       Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(target, event)




async def send(app: App, text: str) -> None:
    app.window.message_input.setPlainText(text)
    app.find(QPushButton, "sendButton").click()
    task = app.controller._reply_task
    if task is not None:
        await task
    await settle(app.controller)
    app.window.conversation_model.flush_stream()


def test_attach_and_drop_then_send_puts_the_images_on_the_users_message(
        app, server, tmp_path, monkeypatch, qtbot) -> None:
    red, blue = picture(tmp_path / "red.png", RED), picture(tmp_path / "blue.png", BLUE)
    button = app.find(QPushButton, "attachImageButton")
    assert button.isVisible() and button.accessibleName()
    assert not strip(app).isVisible()
    chosen = {"files": [str(red)]}
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        staticmethod(lambda *args, **kwargs: (chosen["files"], "")))
    button.click()  # the button's own path, its file dialog answered
    assert strip(app).isVisible() and len(tiles(app)) == 1
    drop(app.window.message_input.viewport(), [blue])
    assert len(tiles(app)) == 2
    assert app.window.message_input.toPlainText() == ""  # attached, not inserted as text
    assert not app.find(QLabel, "imageNotice").isVisible()  # the model sees images

    run(app.loop, send(app, "What colours are these?"))
    user = chat_turns(server)[-1]["messages"][-1]
    assert user["content"] == "What colours are these?"
    assert user["images"] == [base64.b64encode(red.read_bytes()).decode(),
                              base64.b64encode(blue.read_bytes()).decode()]
    assert not strip(app).isVisible() and tiles(app) == []  # they went with the message

    # The message's row paints both thumbnails under its text.
    view, model = app.window.conversation_view, app.window.conversation_model
    row = next(r for r in model.rows if r.message is not None and r.message.role == "user")
    assert [i.name for i in row.message.images] == ["red.png", "blue.png"]
    view.scrollTo(model.index(model.rows.index(row)))
    qtbot.waitUntil(lambda: view.viewport().isVisible())
    rect = view.visualRect(model.index(model.rows.index(row)))
    thumbs = row_images.rects(view.message_delegate, row, rect)
    assert len(thumbs) == 2 and all(rect.contains(t) for t in thumbs)
    shot = view.viewport().grab().toImage()
    for thumb, colour in zip(thumbs, (RED, BLUE), strict=True):
        seen = shot.pixelColor(thumb.center() * shot.devicePixelRatio())
        assert abs(seen.red() - colour.red()) < 30 and abs(seen.blue() - colour.blue()) < 30


def test_drops_on_the_conversation_the_menu_and_pasted_pictures_wait_in_the_strip(
        app, tmp_path, server, monkeypatch) -> None:
    drop(app.window.conversation_view.viewport(), [picture(tmp_path / "a.png", RED)])
    assert len(tiles(app)) == 1
    action = app.window.findChild(QAction, "actionAttachImage")
    assert action in app.window.menuBar().actions()[1].menu().actions()  # Conversation
    assert action.shortcut().toString() == "Ctrl+Shift+I"
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", staticmethod(
        lambda *args, **kwargs: ([str(picture(tmp_path / "menu.png", BLUE))], "")))
    action.trigger()
    assert len(tiles(app)) == 2
    tiles(app)[1].findChild(QWidget, "removeImageButton").click()
    mime = QMimeData()
    pasted = QImage(64, 64, QImage.Format.Format_RGB32)
    pasted.fill(BLUE)
    mime.setImageData(pasted)
    app.window.message_input.insertFromMimeData(mime)  # what Ctrl+V does
    assert len(tiles(app)) == 2
    remove = tiles(app)[0].findChild(QWidget, "removeImageButton")
    remove.click()
    assert [i.name for i in app.controller.pending_images()] == ["pasted image.png"]
    # Send with no text: the picture goes on its own, and names the new chat.
    run(app.loop, send(app, ""))
    [body] = chat_turns(server)
    assert body["messages"][-1]["content"] == ""
    assert body["messages"][-1]["images"] == [base64.b64encode(
        app.controller.session.store.image_data(
            app.controller.display_messages()[0].images[0].id)).decode()]
    assert app.controller.chat.title == "Image: pasted image.png"
    assert tiles(app) == []


def test_a_huge_file_is_refused_and_a_model_without_vision_is_named_in_the_window(
        app, tmp_path) -> None:
    huge = tmp_path / "huge.png"
    with huge.open("wb") as handle:
        handle.truncate(21 * 1024 * 1024)
    attach = app.window.findChild(QObject, "imageAttach")
    attach.attach_files([str(huge)])
    notice = app.find(QLabel, "imageNotice")
    assert notice.isVisible() and "huge.png" in notice.text() and "20 MB" in notice.text()
    assert tiles(app) == []
    app.controller.set_model("llama3.2:3b")  # its /api/show lists no "vision"
    run(app.loop, settle(app.controller))
    attach.attach_files([str(picture(tmp_path / "plot.png", RED))])
    assert "vision" in notice.text() and notice.isVisible()
    assert len(tiles(app)) == 1  # attached all the same
    # A very large picture is scaled down before it is stored and sent.
    attached, _ = app.controller.attach_image_file(
        picture(tmp_path / "wide.jpg", BLUE, (3072, 1024)))
    assert attached
    wide = app.controller.pending_images()[-1]
    assert (wide.width, wide.height, wide.mime) == (1536, 512, "image/jpeg")
    stored = QImage.fromData(app.controller.session.images.data(wide.id))
    assert (stored.width(), stored.height()) == (1536, 512)


def test_screenshot_of_a_chat_with_an_image(app, tmp_path, server, screenshot_dir) -> None:
    plot = chart(tmp_path / "latency.png")
    attach = app.window.findChild(QObject, "imageAttach")
    attach.attach_files([str(plot)])
    server.script("eu-west is the slowest: its bar is about twice as tall as us-east's, "
                  "and both ap-south and sa-east are well below it.")
    run(app.loop, send(app, "Which region is the slowest in this chart?"))
    attach.attach_files([str(chart(tmp_path / "latency-next-week.png", shift=40))])
    app.window.message_input.setPlainText("And this one, from next week?")
    view = app.window.conversation_view
    view.scrollToBottom()
    QApplication.processEvents()
    assert tiles(app) and not app.find(QLabel, "imageNotice").isVisible()
    app.window.grab().save(str(screenshot_dir / "images.png"))
    assert (screenshot_dir / "images.png").stat().st_size > 10_000


def test_a_send_without_a_reply_puts_its_images_back_in_the_strip(app, tmp_path,
                                                                  server) -> None:
    attach = app.window.findChild(QObject, "imageAttach")
    attach.attach_files([str(picture(tmp_path / "red.png", RED))])
    server.fail("/api/chat", 500, "the model crashed")
    run(app.loop, send(app, "What colour is this?"))
    assert app.window.message_input.toPlainText() == "What colour is this?"  # text back
    assert [i.name for i in app.controller.pending_images()] == ["red.png"]
    assert len(tiles(app)) == 1 and strip(app).isVisible()
    run(app.loop, send(app, "What colour is this?"))
    assert len(chat_turns(server)[-1]["messages"][-1]["images"]) == 1
    assert tiles(app) == []
