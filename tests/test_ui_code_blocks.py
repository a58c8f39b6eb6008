"""Code blocks in rendered replies: which code each Copy button holds, what is coloured, and
that colouring keeps the list's document cache (offscreen pytest-qt, no window)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from PySide6.QtGui import QTextCursor

from ollm_desktop.engine.models import Message
from ollm_desktop.ui.conversation import message_delegate
from ollm_desktop.ui.conversation.conversation_model import ConversationModel
from ollm_desktop.ui.conversation.conversation_view import ConversationView
from ollm_desktop.ui.text.markdown import make_document

T0 = datetime(2025, 3, 4, 9, 15, tzinfo=UTC)


def coloured(doc, word: str) -> bool:
    found = doc.find(word)
    assert not found.isNull(), word
    cursor = QTextCursor(doc)
    cursor.setPosition(found.selectionStart() + 1)
    return cursor.charFormat().hasProperty(cursor.charFormat().Property.ForegroundBrush)


@pytest.mark.parametrize(("text", "blocks"), [
    ("Run:\n\n```python\ndef f():\n    return '<b>'  # x\n```\n", [("python", "def f():\n"
                                                                    "    return '<b>'  # x")]),
    ("~~~\n<script>alert(1)</script>\n~~~", [("", "<script>alert(1)</script>")]),
    ("1. step\n\n   ```bash\n   make \\\n     all\n   ```\n2. next",
     [("bash", "make \\\n  all")]),
    ("> ```sh\n> ls -l\n> ```", [("sh", "ls -l")]),
    ("```js\nlet a = 1\n```\n\nthen\n\n```json\n{\"a\": [1, 2]}\n```",
     [("js", "let a = 1"), ("json", '{"a": [1, 2]}')]),
    ("```\n```\n\nan empty block has nothing to copy", []),
])
def test_each_block_holds_exactly_its_code(qapp, text, blocks):
    doc = make_document(text, width=500)
    assert [(b.language, b.code) for b in doc.code_blocks] == blocks


def test_known_languages_are_coloured_up_to_the_limit(qapp):
    text = "```python\ndef f(): pass\n```\n\n```nosuchlanguage\ndef g(): pass\n```"
    doc = make_document(text, width=500)
    assert coloured(doc, "def f") and not coloured(doc, "def g")
    assert not coloured(make_document(text, width=500, colour_limit=0), "def f")
    dark = make_document(text, width=500, dark=True)
    assert coloured(dark, "def f")
    light_cursor, dark_cursor = QTextCursor(doc), QTextCursor(dark)
    for cursor, d in ((light_cursor, doc), (dark_cursor, dark)):
        cursor.setPosition(d.find("def f").selectionStart() + 1)
    assert light_cursor.charFormat().foreground() != dark_cursor.charFormat().foreground()


def test_painting_and_hovering_do_not_rebuild_documents(qtbot, monkeypatch):
    built: list[str] = []
    real = message_delegate.make_document

    def counting(text, *args, **kwargs):
        built.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(message_delegate, "make_document", counting)
    messages = [Message(role="assistant" if i % 2 else "user",
                        content=f"Step {i}:\n\n```python\nprint({i})\n```\n",
                        created_at=T0 + timedelta(seconds=i)) for i in range(200)]
    model = ConversationModel()
    view = ConversationView()
    view.setModel(model)
    qtbot.addWidget(view)
    model.set_history(messages, [], {})
    view.resize(700, 600)
    view.show()
    qtbot.waitExposed(view)
    view.viewport().grab()
    assert 0 < len(built) < 200  # only rows near the viewport are laid out
    first = len(built)
    view.viewport().grab()
    index = model.index(model.rowCount() - 1)
    rect = view.visualRect(index)
    button = view.message_delegate.code_copy_rects(model.rows[index.row()], rect)[0]
    from PySide6.QtTest import QTest

    QTest.mouseMove(view.viewport(), button.center())
    view.viewport().grab()
    assert len(built) == first  # cached: painting, hit-testing and hovering build nothing
