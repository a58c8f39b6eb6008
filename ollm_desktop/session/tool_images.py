"""Pictures a tool returns (a screenshot, a chart): stored and counted like the user's images,
never cut.

A tool's image goes into the store once per content (``ChatStore.put_image``), and the result
message carries it as an ``ImageRef`` with the estimate of ``session.images`` for the chat's
model, so the engine counts it exactly as it counts a picture the user attached: the result's
text may be cut or pruned (``engine.tool_results``), its images never are, and a compaction
describes them in one sentence like any other image.

The session is Qt-free, so the picture's size is read from its header here (PNG, GIF, WebP,
JPEG: the formats MCP servers send). A header we cannot read counts as a large picture: a
wrong guess must leave room, never overflow the window.
"""

from __future__ import annotations

import logging
import struct
from typing import Any

from ollm_desktop.engine import ImageRef
from ollm_desktop.storage import StorageError

log = logging.getLogger(__name__)

UNKNOWN_SIZE = (1024, 1024)  # counted high when the header says nothing we can read


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG, GIF, WebP or JPEG header (None: not one of those)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return struct.unpack("<HH", data[6:10])
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        return _webp_size(data)
    if data[:2] == b"\xff\xd8":
        return _jpeg_size(data)
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 ":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        return (int.from_bytes(data[24:27], "little") + 1,
                int.from_bytes(data[27:30], "little") + 1)
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The first start-of-frame marker's size (walking the segments, never the pixels)."""
    at = 2
    while at + 9 < len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # no length: skip the marker
            at += 2
            continue
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return width, height
        at += 2 + length
    return None


def keep_tool_image(core: Any, data: bytes, mime: str, tool: str) -> ImageRef | None:
    """Store one picture of ``tool``'s result and count it for the chat's model (None when the
    store refuses it: the result's text still says an image came)."""
    try:
        key = core.store.put_image(data, mime)
    except StorageError as exc:
        log.warning("an image from %s was not kept: %s", tool, exc)
        return None
    width, height = image_size(data) or UNKNOWN_SIZE
    if width <= 0 or height <= 0:
        width, height = UNKNOWN_SIZE
    return ImageRef(id=key, mime=mime, name=f"{tool} result", width=width, height=height,
                    tokens=core.images.estimate(width, height))
