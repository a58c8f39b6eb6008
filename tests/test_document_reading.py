"""Reading attached files: structure kept per format, and a clear message for bad input."""

from __future__ import annotations

import io
import zipfile

import docx
import pypdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from ollm_desktop.storage.documents import MAX_BYTES, DocumentError, read_document
from ollm_desktop.storage.documents.pdf_text import NO_TEXT_LAYER


def make_pdf(pages: list[list[str]], outline: dict[int, str] | None = None) -> bytes:
    """A PDF with a text layer: each page's lines, and bookmarks {page index: title}."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for index, lines in enumerate(pages):
        if outline and index in outline:
            pdf.bookmarkPage(f"p{index}")
            pdf.addOutlineEntry(outline[index], f"p{index}", level=0)
        y = 800
        for line in lines:
            pdf.drawString(72, y, line)
            y -= 16
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_pdf_keeps_pages_and_outline_headings() -> None:
    data = make_pdf([["Retries", "A client retries a failed request at most 5 times before",
                      "it gives up and reports the error."],
                     ["Timeouts", "The default timeout is 30 seconds."]],
                    outline={0: "Retries", 1: "Timeouts"})
    found = read_document(data, "guide.pdf")
    assert found.format == "pdf" and found.pages == 2
    headings = [(b.text, b.page) for b in found.blocks if b.kind == "heading"]
    assert headings == [("Retries", 1), ("Timeouts", 2)]
    body = [b for b in found.blocks if b.kind == "paragraph"]
    assert body[0].page == 1 and "at most 5 times before it gives up" in body[0].text
    assert body[-1].page == 2 and "30 seconds" in body[-1].text


def test_encrypted_pdf_is_refused_with_a_clear_message() -> None:
    writer = pypdf.PdfWriter(clone_from=io.BytesIO(make_pdf([["secret text"]])))
    writer.encrypt("hunter2")
    out = io.BytesIO()
    writer.write(out)
    with pytest.raises(DocumentError, match="encrypted with a password"):
        read_document(out.getvalue(), "locked.pdf")


def test_scanned_pdf_without_text_layer_says_so() -> None:
    writer = pypdf.PdfWriter()
    writer.add_blank_page(595, 842)
    writer.add_blank_page(595, 842)
    out = io.BytesIO()
    writer.write(out)
    with pytest.raises(DocumentError) as caught:
        read_document(out.getvalue(), "scan.pdf")
    assert NO_TEXT_LAYER in str(caught.value)
    assert NO_TEXT_LAYER == "This PDF has no text layer; text recognition is not supported."


def test_damaged_pdf_is_refused() -> None:
    with pytest.raises(DocumentError, match="not a readable PDF"):
        read_document(b"%PDF-1.4\nnot really", "broken.pdf")


def test_binary_file_is_refused() -> None:
    with pytest.raises(DocumentError, match="binary file"):
        read_document(bytes(range(256)) * 40, "photo.bin")


def test_unknown_archive_is_refused() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.txt", "hello")
    with pytest.raises(DocumentError, match="archive, not a format"):
        read_document(buffer.getvalue(), "bundle.zip")


def test_old_or_encrypted_office_file_is_refused() -> None:
    with pytest.raises(DocumentError, match="encrypted Office file"):
        read_document(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, "report.docx")


@pytest.mark.parametrize("data", [b"", b"   \n\n\t \n"])
def test_empty_file_is_refused(data: bytes) -> None:
    with pytest.raises(DocumentError, match=r"empty|no text"):
        read_document(data, "notes.txt")


def test_file_over_the_limit_is_refused_before_reading() -> None:
    with pytest.raises(DocumentError, match="up to 32 MB"):
        read_document(b"a" * (MAX_BYTES + 1), "huge.txt")


def test_docx_headings_lists_and_tables_in_body_order() -> None:
    document = docx.Document()
    document.add_heading("Deployment", level=1)
    document.add_paragraph("Servers restart at 03:00 UTC.")
    document.add_paragraph("Check the disk first", style="List Bullet")
    table = document.add_table(rows=2, cols=3)
    for row, cells in zip(table.rows, [("Port", "Service", "Owner"), ("8080", "api", "ops")],
                          strict=True):
        for cell, text in zip(row.cells, cells, strict=True):
            cell.text = text
    document.add_heading("Rollback", level=2)
    buffer = io.BytesIO()
    document.save(buffer)
    found = read_document(buffer.getvalue(), "runbook.docx")
    assert [(b.kind, b.text, b.level) for b in found.blocks] == [
        ("heading", "Deployment", 1), ("paragraph", "Servers restart at 03:00 UTC.", 0),
        ("item", "Check the disk first", 0), ("table", "Port | Service | Owner", 0),
        ("table", "8080 | api | ops", 0), ("heading", "Rollback", 2)]


def test_html_keeps_headings_code_and_table_rows_and_drops_scripts() -> None:
    page = ("<!doctype html><html><head><title>t</title><script>alert(1)</script></head>"
            "<body><nav>Home | About</nav><h1>Limits</h1><p>The quota is <b>500</b> calls."
            "</p><pre>retry(max=3)\n  wait()</pre><table><tr><th>Plan</th><th>Calls</th></tr>"
            "<tr><td>Free</td><td>500</td></tr></table><ul><li>one</li></ul></body></html>")
    found = read_document(page.encode(), "limits.html")
    assert [(b.kind, b.text) for b in found.blocks] == [
        ("heading", "Limits"), ("paragraph", "The quota is 500 calls."),
        ("code", "retry(max=3)\n  wait()"), ("table", "Plan | Calls"), ("table", "Free | 500"),
        ("item", "one")]


MARKDOWN = """# Guide

Intro paragraph
over two lines.

Setup
-----

```python
pip install thing
```

| Key | Value |
|-----|-------|
| port | 8080 |

- first item
"""


def test_markdown_keeps_headings_code_tables_and_line_numbers() -> None:
    found = read_document(MARKDOWN.encode(), "guide.md")
    assert found.format == "markdown"
    got = [(b.kind, b.text, b.first_line, b.last_line) for b in found.blocks]
    assert got == [("heading", "Guide", 1, 1),
                   ("paragraph", "Intro paragraph over two lines.", 3, 4),
                   ("heading", "Setup", 6, 7),
                   ("code", "pip install thing", 10, 10),
                   ("table", "Key | Value", 13, 13), ("table", "port | 8080", 15, 15),
                   ("item", "- first item", 17, 17)]


def test_rest_underlined_sections_take_levels_in_order_of_use() -> None:
    text = "Title\n=====\n\nBody.\n\nPart\n----\n\nMore::\n\n   code here\n\nBack\n====\n"
    found = read_document(text.encode(), "doc.rst")
    assert [(b.kind, b.text, b.level) for b in found.blocks] == [
        ("heading", "Title", 1), ("paragraph", "Body.", 0), ("heading", "Part", 2),
        ("paragraph", "More:", 0), ("code", "code here", 0), ("heading", "Back", 1)]


def test_source_code_keeps_definitions_whole_with_line_numbers() -> None:
    source = "import os\n\n\ndef a():\n    x = 1\n\n    return x\n\n\nclass B:\n    pass\n"
    found = read_document(source.encode(), "mod.py")
    assert [(b.first_line, b.last_line) for b in found.blocks] == [(1, 1), (4, 7), (10, 11)]
    assert all(b.kind == "code" for b in found.blocks)


def test_text_in_latin1_or_utf16_is_read() -> None:
    assert "café" in read_document("Le café.".encode("latin-1"), "a.txt").blocks[0].text
    assert "naïve" in read_document("naïve".encode("utf-16"), "b.txt").blocks[0].text


def _docx_with(body: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", body)
        archive.writestr("word/document.xml", body)
    return buffer.getvalue()


def test_a_malformed_docx_gets_a_message_not_a_crash() -> None:
    with pytest.raises(DocumentError, match=r"could not be read|not a readable DOCX"):
        read_document(_docx_with(b"garbage"), "broken.docx")


@settings(max_examples=150, deadline=None)
@given(head=st.sampled_from([b"", b"%PDF-1.7\n", b"<!doctype html><p>", b"# T\n", b"\xef\xbb\xbf"]),
       body=st.binary(max_size=3000), name=st.sampled_from(
           ["a.pdf", "a.docx", "a.html", "a.md", "a.py", "a.txt", "a", "a.bin"]),
       as_docx=st.booleans())
def test_any_bytes_give_text_or_a_message(head: bytes, body: bytes, name: str,
                                          as_docx: bool) -> None:
    data = _docx_with(head + body) if as_docx else head + body
    try:
        found = read_document(data, name)
    except DocumentError as error:
        assert name in str(error)
    else:
        assert any(block.text.strip() for block in found.blocks)
