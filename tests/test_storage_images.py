"""Attached images in the database (issue 15): stored once per content, keyed by SHA-256;
messages keep only a reference (``ImageRef``), which survives a restart."""

from __future__ import annotations

import hashlib

from ollm_desktop.engine import Message
from ollm_desktop.engine.models import ImageRef
from ollm_desktop.paths import AppPaths
from ollm_desktop.storage import ChatStore

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


def test_an_image_round_trips_and_the_same_bytes_are_stored_once(paths: AppPaths) -> None:
    store, _ = ChatStore.open(paths)
    first = store.put_image(PNG, "image/png")
    assert first == hashlib.sha256(PNG).hexdigest()
    again = store.put_image(PNG, "image/png")  # the same content: the same row
    other = store.put_image(PNG + b"x", "image/jpeg")
    assert again == first and other != first
    with store._read() as conn:
        assert conn.execute("SELECT COUNT(*) FROM images").fetchone()[0] == 2
    assert store.image_data(first) == PNG
    assert store.image_mime(other) == "image/jpeg"
    assert store.image_data("0" * 64) is None
    store.close()

    store, _ = ChatStore.open(paths)  # on disk, with the message that uses it
    assert store.image_data(first) == PNG
    store.close()


def test_a_message_keeps_its_image_reference_across_a_restart(paths: AppPaths) -> None:
    store, _ = ChatStore.open(paths)
    chat = store.create_chat("c")
    image_id = store.put_image(PNG, "image/png")
    ref = ImageRef(id=image_id, name="plot.png", width=640, height=480, tokens=768)
    store.append_message(chat.id, Message(role="user", content="What is this?", images=[ref]))
    store.close()

    store, _ = ChatStore.open(paths)
    state = store.load_engine_state(chat.id)
    assert state is not None
    assert state.messages[0].images == [ref]
    assert store.image_data(state.messages[0].images[0].id) == PNG
    store.close()
