#!/usr/bin/env python3
"""Render the app icon from its SVG source into every format the installers need.

Uses only PySide6 (QtSvg ships in PySide6-Essentials), so no Inkscape, rsvg or
ImageMagick is needed. Writes:

- resources/icons/hicolor/NxN/apps/<APP_ID>.png for the freedesktop sizes,
- resources/icons/hicolor/scalable/apps/<APP_ID>.svg,
- packaging/icons/ollm-desktop.ico (Windows) and packaging/icons/ollm-desktop.icns (macOS),
  both with embedded PNGs, written by the small writers below.

Run after editing resources/icons/ollm-desktop.svg:
    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/make-icons.py
"""

from __future__ import annotations

import os
import shutil
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP_ID = "io.github.ollm_desktop.OllmDesktop"
SOURCE = ROOT / "resources" / "icons" / "ollm-desktop.svg"
HICOLOR = ROOT / "resources" / "icons" / "hicolor"
OUT = ROOT / "packaging" / "icons"
PNG_SIZES = (16, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# ICNS types that hold PNG data: (type, pixel size).
ICNS_TYPES = (
    (b"icp4", 16),
    (b"icp5", 32),
    (b"ic11", 32),
    (b"icp6", 64),
    (b"ic12", 64),
    (b"ic07", 128),
    (b"ic08", 256),
    (b"ic13", 256),
    (b"ic09", 512),
    (b"ic14", 512),
    (b"ic10", 1024),
)


def render_png(svg: Path, size: int) -> bytes:
    """Render the SVG at size x size and return PNG bytes."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"invalid SVG: {svg}")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.convertToFormat(QImage.Format.Format_ARGB32).save(buffer, "PNG"):
        raise SystemExit(f"PNG encoding failed at {size}px")
    buffer.close()
    return bytes(data.data())


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """An ICO container whose images are PNG streams (Windows Vista and later)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, blobs = b"", b""
    for size in sizes:
        blob = pngs[size]
        dim = 0 if size >= 256 else size  # 0 means 256 in the ICO directory
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(blob), offset)
        offset += len(blob)
        blobs += blob
    return header + entries + blobs


def icns_bytes(pngs: dict[int, bytes]) -> bytes:
    """An ICNS container with PNG-typed entries (macOS 10.7 and later)."""
    body = b"".join(
        typ + struct.pack(">I", 8 + len(pngs[size])) + pngs[size] for typ, size in ICNS_TYPES
    )
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    needed = set(PNG_SIZES) | set(ICO_SIZES) | {size for _, size in ICNS_TYPES}
    pngs = {size: render_png(SOURCE, size) for size in sorted(needed)}

    for size in PNG_SIZES:
        target = HICOLOR / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(pngs[size])
    scalable = HICOLOR / "scalable" / "apps" / f"{APP_ID}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SOURCE, scalable)

    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "ollm-desktop.ico").write_bytes(ico_bytes({s: pngs[s] for s in ICO_SIZES}))
    (OUT / "ollm-desktop.icns").write_bytes(icns_bytes(pngs))
    print(f"icons written: {len(PNG_SIZES)} PNG sizes, scalable SVG, .ico, .icns")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
