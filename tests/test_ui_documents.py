"""Attached documents through the real window, over the loopback fake Ollama: the composer's
button, the document rows (progress while a file is read), remove with Undo, a reply's
sources and the reader at a cited passage."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import (
    QDialog,
    QFrame,
    QLabel,
    QListWidget,
    QProgressBar,
    QPushButton,
    QToolButton,
)

from tests.controller_harness import scripted_model, settle
from tests.test_ui_branches import click_row_button
from tests.test_ui_main_window import App

CORPUS = Path(__file__).resolve().parent.parent / "bench" / "memory" / "documents_corpus" / "docs"
QUESTION = "How many blank lines should surround top-level function definitions?"
ANSWER = "Surround top-level function and class definitions with two blank lines."


@pytest.fixture
def server(ollama_server):
    ollama_server.reply_fn = scripted_model(reply_words=20)
    return ollama_server


def rows(app: App) -> list[QFrame]:
    return [w for w in app.window.findChildren(QFrame, "documentRow") if w.isVisible()]


def test_documents_in_the_window(qloop, qtbot, tmp_path, server, screenshot_dir) -> None:
    app = App(qloop, qtbot, tmp_path / "data", server, context_size=4096)
    try:
        assert app.find(QPushButton, "attachDocumentButton").isVisible()
        guide, handbook = CORPUS / "pep-0008.txt", CORPUS / "pep-3333.pdf"
        app.controller.attach_documents([guide, handbook])
        qloop.run_until_complete(settle(app.controller))
        qtbot.waitUntil(lambda: len(rows(app)) == 2)
        names = [r.findChild(QLabel, "documentName").text() for r in rows(app)]
        assert sorted(names) == ["pep-0008.txt", "pep-3333.pdf"]
        details = " ".join(r.findChild(QLabel, "documentDetails").text()
                           for r in rows(app))
        assert "22 pages" in details and "indexed" in details

        # A file being read: its row shows the share read on a progress bar.
        documents = app.controller.session.documents
        documents._reading["/tmp/large report.pdf"] = ("large report.pdf", 7_340_032, 0.42)
        documents.changed()
        reading = [r for r in rows(app) if "reading" in
                   r.findChild(QLabel, "documentDetails").text()]
        assert len(reading) == 1
        bar = reading[0].findChild(QProgressBar, "documentProgress")
        assert bar is not None and bar.isVisible() and bar.value() == 42
        assert app.window.grab().save(str(screenshot_dir / "documents-attached.png"))
        documents._reading.clear()
        documents.changed()

        # Remove with Undo.
        first = rows(app)[0]
        key = first.key
        first.findChild(QToolButton, "documentRemoveButton").click()
        qtbot.waitUntil(lambda: len(rows(app)) == 1)
        assert app.window.content.undo_bar.isVisible()
        app.window.content.undo_bar.undo()
        qtbot.waitUntil(lambda: len(rows(app)) == 2)
        assert key in [r.key for r in rows(app)]

        # A reply's sources, and the reader at the cited passage.
        qloop.run_until_complete(app.type_and_send(QUESTION))
        sent = server.chat_requests()[-1]["messages"][-1]["content"]
        assert ANSWER in " ".join(sent.split())
        reply = app.controller.display_messages()[-1]
        delegate = app.window.conversation_view.message_delegate
        model = app.window.conversation_model
        notes = delegate.row_notes(model.rows[model.row_of_message(reply.id)])
        assert any(n.startswith("Sources: [pep-0008.txt, line") for n in notes), notes
        assert app.window.grab().save(str(screenshot_dir / "documents-reply-sources.png"))
        click_row_button(app, reply.id, "actionShowSources")
        panel = app.find(QDialog, "sourcesPanel")
        qtbot.waitUntil(panel.isVisible)
        items = app.find(QListWidget, "sourceItems")
        sources = app.controller.recall_records()[reply.id].sources
        holding = {p.ordinal for p in app.controller.document_passages(sources[0].document_id)
                   if ANSWER in p.text}
        wanted = next(i for i, source in enumerate(sources) if source.ordinal in holding)
        items.setCurrentRow(wanted)
        app.find(QPushButton, "sourceOpenButton").click()
        reader = app.find(QDialog, "documentReader")
        qtbot.waitUntil(reader.isVisible)
        assert not reader.isModal()
        assert ANSWER in reader.highlighted_text()
        bar = reader.text.verticalScrollBar()
        qtbot.waitUntil(lambda: bar.value() > 0)  # scrolled to the passage once laid out
        assert reader.grab().save(str(screenshot_dir / "documents-reader.png"))
        reader.close()
        panel.close()
    finally:
        app.close()


def test_a_file_pasted_into_the_message_box_is_attached(qloop, qtbot, tmp_path, server) -> None:
    from PySide6.QtCore import QMimeData, QUrl

    app = App(qloop, qtbot, tmp_path / "data", server)
    try:
        path = tmp_path / "notes.md"
        path.write_text("# Notes\n\nThe deploy window is Tuesday 14:00.\n")
        mime = QMimeData()
        mime.setUrls([QUrl.fromLocalFile(str(path))])
        box = app.window.message_input
        assert box.canInsertFromMimeData(mime)
        box.insertFromMimeData(mime)  # what a paste or a drop does
        qloop.run_until_complete(settle(app.controller))
        qtbot.waitUntil(lambda: len(rows(app)) == 1)
        assert box.toPlainText() == ""  # attached, not pasted as a path
    finally:
        app.close()
