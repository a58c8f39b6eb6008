"""The images of a message, painted as thumbnails under its text.

Sizes come from the message's ``ImageRef`` (width, height), so a row's height is known
without decoding a picture; the pixels come from a source the window sets per delegate
(the controller's cached thumbnails). Without one (the window's first picture, drawn before
the store is open) a plain tile with the image's name stands in, at the same size.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol
from weakref import WeakKeyDictionary

from PySide6.QtCore import QPoint, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath, QPen

from ollm_desktop.ui.conversation.conversation_model import ConversationRow

if TYPE_CHECKING:  # the window's first picture draws rows before the engine is imported
    from ollm_desktop.engine.models import ImageRef
    from ollm_desktop.ui.text.markdown import SafeTextDocument

THUMB_H = 96  # logical pixels
MIN_W = 48
MAX_W = 220
GAP = 8
RADIUS = 6.0

Source = Callable[[str, int], QImage | None]  # (image id, height) -> thumbnail


class _Delegate(Protocol):
    """What the message delegate tells about a row (see ``MessageDelegate``)."""

    def text_width(self, row: ConversationRow | None = None) -> int: ...
    def body_origin(self, row_rect: QRect, row: ConversationRow | None = None) -> QPoint: ...
    def document(self, row: ConversationRow) -> SafeTextDocument: ...


_sources: WeakKeyDictionary[object, Source] = WeakKeyDictionary()


def set_source(delegate: object, source: Source) -> None:
    """Where ``delegate``'s rows get their thumbnails' pixels."""
    _sources[delegate] = source


def _images(row: ConversationRow) -> list[ImageRef]:
    # getattr: the window's first picture draws stored rows that carry no images.
    return list(getattr(row.message, "images", None) or [])


def _widths(row: ConversationRow) -> list[int]:
    images = _images(row)
    return [max(MIN_W, min(MAX_W, round(THUMB_H * i.width / i.height) if i.height else THUMB_H))
            for i in images]


def _lines(widths: list[int], room: int) -> list[list[int]]:
    """Thumbnail indexes per line, wrapped to the body's width."""
    lines: list[list[int]] = []
    used = room + 1
    for index, width in enumerate(widths):
        if used + width > room and (not lines or lines[-1]):
            lines.append([])
            used = 0
        lines[-1].append(index)
        used += width + GAP
    return lines


def height(delegate: _Delegate, row: ConversationRow) -> int:
    """Room the thumbnails take under the body (0 for a message without images)."""
    widths = _widths(row)
    if not widths:
        return 0
    count = len(_lines(widths, delegate.text_width(row)))
    return GAP + count * THUMB_H + (count - 1) * GAP


def width(delegate: _Delegate, row: ConversationRow) -> int:
    """The widest line of thumbnails (0 without images): a bubble is at least that wide."""
    widths = _widths(row)
    lines = _lines(widths, delegate.text_width(row)) if widths else []
    return max((sum(widths[i] for i in line) + GAP * (len(line) - 1) for line in lines),
               default=0)


def rects(delegate: _Delegate, row: ConversationRow, row_rect: QRect) -> list[QRect]:
    """Each image's thumbnail rectangle in view coordinates, in the message's order."""
    widths = _widths(row)
    if not widths:
        return []
    origin = delegate.body_origin(row_rect, row)
    top = origin.y() + int(delegate.document(row).size().height()) + GAP
    found: dict[int, QRect] = {}
    for number, line in enumerate(_lines(widths, delegate.text_width(row))):
        left = origin.x()
        y = top + number * (THUMB_H + GAP)
        for index in line:
            found[index] = QRect(left, y, widths[index], THUMB_H)
            left += widths[index] + GAP
    return [found[i] for i in range(len(widths))]


def paint(delegate: _Delegate, painter: QPainter, row: ConversationRow, row_rect: QRect,
          muted: QColor) -> None:
    """The thumbnails, each rounded and framed; a named tile when the pixels are missing."""
    images = _images(row)
    if not images:
        return
    source = _sources.get(delegate)
    painter.save()
    for image, rect in zip(images, rects(delegate, row, row_rect), strict=True):
        frame = QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5)
        path = QPainterPath()
        path.addRoundedRect(frame, RADIUS, RADIUS)
        thumb = source(image.id, THUMB_H) if source is not None else None
        painter.save()
        painter.setClipPath(path)
        if thumb is not None and not thumb.isNull():
            scaled = thumb.scaled(rect.size(), Qt.AspectRatioMode.KeepAspectRatioByExpanding,
                                  Qt.TransformationMode.SmoothTransformation)
            x = (scaled.width() - rect.width()) // 2
            y = (scaled.height() - rect.height()) // 2
            painter.drawImage(rect, scaled, QRect(x, y, rect.width(), rect.height()))
        else:
            tile = QColor(muted)
            tile.setAlpha(40)
            painter.fillRect(rect, tile)
            painter.setPen(muted)
            painter.drawText(rect.adjusted(6, 6, -6, -6),
                             Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                             image.name or "image")
        painter.restore()
        pen = QColor(muted)
        pen.setAlpha(110)
        painter.setPen(QPen(pen, 1.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(path)
    painter.restore()
