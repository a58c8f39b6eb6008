"""A model as a row of a list (the model picker's popup, Preferences ▸ Models): its name
and capability tags on the first line, its size and context on a quiet second line. The
row's ``ModelInfo`` rides on ``MODEL_ROLE``."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from ollm_desktop.backend.models import ModelInfo
from ollm_desktop.ui.text.model_details import capability_tags, facts_line
from ollm_desktop.ui.theme import SPACE, TYPE

MODEL_ROLE = int(Qt.ItemDataRole.UserRole) + 1  # the row's ModelInfo
PAD_H, PAD_V, LINE_GAP, TAG_GAP = SPACE.m, SPACE.s - 2, 2, SPACE.xs


def small_font(font: QFont) -> QFont:
    small = QFont(font)
    if font.pointSizeF() > 0:
        small.setPointSizeF(TYPE.points(font.pointSizeF(), "caption"))
    return small


def tag_rects(metrics: QFontMetrics, tags: list[str], right: int, top: int,
              height: int) -> list[tuple[str, QRect]]:
    """The tags' rectangles, right-aligned at ``right``, in reading order."""
    rects: list[tuple[str, QRect]] = []
    for tag in reversed(tags):
        width = metrics.horizontalAdvance(tag) + 2 * SPACE.s
        rect = QRect(right - width, top, width, height)
        rects.append((tag, rect))
        right = rect.left() - TAG_GAP
    rects.reverse()
    return rects


class ModelRowDelegate(QStyledItemDelegate):
    """A row of the picker's list: the name and its tags, the facts line under them."""

    def _model(self, index: QModelIndex | QPersistentModelIndex) -> ModelInfo | None:
        value = index.data(MODEL_ROLE)
        return value if isinstance(value, ModelInfo) else None

    def sizeHint(self, option: QStyleOptionViewItem,
                 index: QModelIndex | QPersistentModelIndex) -> QSize:
        metrics = QFontMetrics(option.font)
        small = QFontMetrics(small_font(option.font))
        width = metrics.horizontalAdvance(str(index.data() or "")) + 2 * PAD_H
        model = self._model(index)
        if model is None:
            return QSize(width, metrics.height() + 2 * PAD_V)
        tags = capability_tags(model)
        width += sum(small.horizontalAdvance(t) + 2 * SPACE.s + TAG_GAP for t in tags)
        width = max(width + SPACE.l, small.horizontalAdvance(facts_line(model)) + 2 * PAD_H)
        return QSize(width, metrics.height() + LINE_GAP + small.height() + 2 * PAD_V)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        model = self._model(index)
        if model is None:
            super().paint(painter, option, index)
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette: QPalette = option.palette
        selected = bool(option.state & (QStyle.StateFlag.State_Selected
                                        | QStyle.StateFlag.State_MouseOver))
        if selected:
            painter.fillRect(option.rect, palette.color(QPalette.ColorRole.Highlight))
        text = palette.color(QPalette.ColorRole.HighlightedText if selected
                             else QPalette.ColorRole.Text)
        quiet = text if selected else palette.color(QPalette.ColorRole.PlaceholderText)
        metrics = QFontMetrics(option.font)
        small = small_font(option.font)
        small_metrics = QFontMetrics(small)
        inner = option.rect.adjusted(PAD_H, PAD_V, -PAD_H, -PAD_V)
        first = QRect(inner.left(), inner.top(), inner.width(), metrics.height())
        tags = tag_rects(small_metrics, capability_tags(model), inner.right(),
                         first.top() + (first.height() - small_metrics.height() - 2) // 2,
                         small_metrics.height() + 2)
        name_right = tags[0][1].left() - SPACE.s if tags else inner.right()
        painter.setFont(option.font)
        painter.setPen(text)
        painter.drawText(QRect(first.left(), first.top(), name_right - first.left(),
                               first.height()),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         metrics.elidedText(model.name, Qt.TextElideMode.ElideMiddle,
                                            name_right - first.left()))
        painter.setFont(small)
        for tag, rect in tags:
            painter.setPen(quiet)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            radius = rect.height() / 2
            painter.drawRoundedRect(QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, tag)
        second = QRect(inner.left(), first.bottom() + 1 + LINE_GAP, inner.width(),
                       small_metrics.height())
        painter.setPen(quiet)
        painter.drawText(second, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         small_metrics.elidedText(facts_line(model), Qt.TextElideMode.ElideRight,
                                                  second.width()))
        painter.restore()
