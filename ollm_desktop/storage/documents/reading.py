"""Reading an attached file: which format it is, the limits, and a clear message when it cannot
be read.

The format is decided by what the bytes are (a PDF's ``%PDF-`` header, a DOCX's zip with
``word/document.xml``, text that decodes) with the name's extension as a hint, so a renamed
file is read for what it is and a binary file is never read as text. Nothing here touches the
network or runs code from the file.
"""

from __future__ import annotations

import codecs
import zipfile
from collections.abc import Callable
from io import BytesIO
from pathlib import PurePath

from ollm_desktop.engine.document_text import ExtractedText

MAX_BYTES = 32 * 1024 * 1024  # 32 MB: a 1,000-page PDF; larger files are refused
MAX_LABEL = "32 MB"
SNIFF = 8192  # bytes looked at to tell text from binary

SUPPORTED = "plain text, Markdown, source code, PDF, DOCX and HTML"
MARKDOWN = {".md", ".markdown", ".mdown", ".mkd"}
HTML = {".html", ".htm", ".xhtml"}
TEXT = {".txt", ".text", ".rst", ".adoc", ".org", ".log", ".csv", ".tsv", ""}
CODE = {".py", ".pyi", ".js", ".mjs", ".ts", ".tsx", ".jsx", ".c", ".h", ".cc", ".cpp", ".hpp",
        ".cxx", ".rs", ".go", ".java", ".kt", ".swift", ".rb", ".php", ".cs", ".scala", ".lua",
        ".sh", ".bash", ".zsh", ".ps1", ".sql", ".r", ".m", ".pl", ".hs", ".ml", ".ex", ".exs",
        ".clj", ".dart", ".toml", ".yaml", ".yml", ".json", ".ini", ".cfg", ".xml", ".css",
        ".scss", ".vue", ".svelte", ".zig", ".nim", ".jl", ".tf", ".gradle", ".cmake", ".mk"}
CODE_NAMES = {"makefile", "dockerfile", "cmakelists.txt", "justfile"}


class DocumentError(Exception):
    """A file that cannot be attached; the message is meant for the user."""


Progress = Callable[[float], None]


def read_document(data: bytes, name: str, progress: Progress | None = None) -> ExtractedText:
    """The text and structure of ``data`` (the bytes of a file called ``name``); ``progress``
    hears the share read so far (a PDF, page by page), from the thread that reads."""
    if not data:
        raise DocumentError(f"{name} is empty.")
    if len(data) > MAX_BYTES:
        raise DocumentError(f"{name} is {_size(len(data))}; documents up to {MAX_LABEL} can be "
                            "attached.")
    try:
        found = _read(data, name, progress)
    except DocumentError:
        raise
    except (ValueError, KeyError, IndexError, AttributeError, TypeError, OSError,
            SyntaxError, RuntimeError, zipfile.BadZipFile) as error:
        # A parser's own failure on a malformed file: lxml's XMLSyntaxError is a SyntaxError,
        # PDFium's errors are RuntimeErrors (RecursionError too).
        raise DocumentError(f"{name} could not be read: {error}.") from error
    if not any(block.text.strip() for block in found.blocks):
        raise DocumentError(f"{name} has no text.")
    return found


def _read(data: bytes, name: str, progress: Progress | None) -> ExtractedText:
    suffix = PurePath(name).suffix.lower()
    if data.startswith(b"%PDF-") or suffix == ".pdf":
        from ollm_desktop.storage.documents.pdf_text import read_pdf

        found = read_pdf(data, name, progress)
    elif data.startswith(b"PK\x03\x04"):
        found = _read_zip(data, name, suffix)
    elif data.startswith(b"\xd0\xcf\x11\xe0"):  # OLE: an old .doc, or an encrypted Office file
        raise DocumentError(f"{name} is an encrypted Office file or an old Word (.doc) file; "
                            "save it as DOCX without a password, or as PDF, to attach it.")
    else:
        text = decode_text(data)
        if text is None:
            raise DocumentError(f"{name} is a binary file, not a format that can be attached "
                                f"({SUPPORTED}).")
        found = _read_text(text, name, suffix)
    return found


def _read_zip(data: bytes, name: str, suffix: str) -> ExtractedText:
    try:
        names = set(zipfile.ZipFile(BytesIO(data)).namelist())
    except zipfile.BadZipFile as error:
        raise DocumentError(f"{name} is damaged: {error}.") from error
    if "word/document.xml" not in names:
        raise DocumentError(f"{name} is an archive, not a format that can be attached "
                            f"({SUPPORTED}).")
    from ollm_desktop.storage.documents.docx_text import read_docx

    return read_docx(data, name)


def _read_text(text: str, name: str, suffix: str) -> ExtractedText:
    from ollm_desktop.storage.documents.plain_text import read_code, read_plain

    if suffix in HTML or (suffix not in MARKDOWN | TEXT | CODE and _looks_html(text)):
        from ollm_desktop.storage.documents.html_text import read_html

        return read_html(text)
    if suffix in CODE or PurePath(name).name.lower() in CODE_NAMES:
        return read_code(text)
    return read_plain(text, markdown=suffix in MARKDOWN)


def _looks_html(text: str) -> bool:
    head = text.lstrip()[:200].lower()
    return head.startswith(("<!doctype html", "<html"))


def decode_text(data: bytes) -> str | None:
    """The text of ``data`` when it is text (UTF-8, or UTF-16/32 with a byte order mark, or
    Latin-1 without control bytes); None for a binary file."""
    for bom, codec in ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
                       (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                       (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            try:
                return data.decode(codec)
            except UnicodeDecodeError:
                return None
    head = data[:SNIFF]
    if b"\x00" in head:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    controls = sum(1 for ch in text[:SNIFF] if (ord(ch) < 32 and ch not in "\t\n\r\f\v")
                   or 0x7f <= ord(ch) < 0xa0)
    return None if controls > len(text[:SNIFF]) // 100 else text.replace("\r\n", "\n")


def _size(count: int) -> str:
    return f"{count / (1024 * 1024):.1f} MB"
