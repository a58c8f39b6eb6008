"""The composer (``composer``): one rounded box holding the message input, which grows with
its text (one to eight lines), and a row of icon buttons inside it: attach on the left (the
tools and documents buttons go beside it, ``add_tool_button``), the context ring, Stop and
Send on the right. The model picker and the chat's settings move to the top of the chat.

The input, Send, Stop and Attach keep their objectNames and signals; they are only placed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import (
    QAbstractButton,
    QBoxLayout,
    QFrame,
    QHBoxLayout,
    QLayout,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from ollm_desktop.controller import ContextSnapshot
from ollm_desktop.ui.composer.model_picker import ModelPicker
from ollm_desktop.ui.theme import SPACE, current_colors, icon, status_color

if TYPE_CHECKING:
    from ollm_desktop.ui.composer.host import ComposerHost

MIN_LINES, MAX_LINES = 1, 8


class ContextRing(QWidget):
    """How full the context is, as a small ring; the meter's details on hover."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("contextRing")
        self.setAccessibleName(self.tr("Context used"))
        self.fraction = 0.0
        self.level = "idle"
        self.setFixedSize(22, 22)

    def set_fill(self, fraction: float, level: str, tooltip: str) -> None:
        self.fraction, self.level = max(0.0, min(1.0, fraction)), level
        self.setToolTip(tooltip)
        self.setAccessibleDescription(self.tr("{0}% of the context used").format(
            round(self.fraction * 100)))
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(22, 22)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(self.rect()).adjusted(3, 3, -3, -3)
        track = QColor(self.palette().color(QPalette.ColorRole.Mid))
        painter.setPen(QPen(track, 3))
        painter.drawEllipse(rect)
        painter.setPen(QPen(status_color(self.level), 3, Qt.PenStyle.SolidLine,
                            Qt.PenCapStyle.RoundCap))
        painter.drawArc(rect, 90 * 16, -round(self.fraction * 360 * 16))
        painter.end()


class Composer(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composer")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(SPACE.s, SPACE.xs, SPACE.s, SPACE.xs)
        layout.setSpacing(0)
        self.row = QHBoxLayout()
        self.row.setSpacing(SPACE.xs)
        self.tools = QHBoxLayout()  # attach, then the tools and documents buttons
        self.tools.setSpacing(SPACE.xs)
        self.row.addLayout(self.tools)
        self.row.addStretch(1)
        self.ring = ContextRing()
        self.row.addWidget(self.ring)
        layout.addLayout(self.row)

    def add_tool_button(self, button: QAbstractButton) -> None:
        """A button on the composer's left (Attach, and later Tools and Documents)."""
        self.tools.addWidget(button)


def _grow(box: QPlainTextEdit) -> None:
    """One to eight lines high, as the text needs (its wrapped lines, not its paragraphs)."""
    lines = int(box.document().documentLayout().documentSize().height())
    lines = max(MIN_LINES, min(MAX_LINES, lines))
    margins = box.contentsMargins()
    height = (lines * box.fontMetrics().lineSpacing() + 2 * int(box.document().documentMargin())
              + margins.top() + margins.bottom() + SPACE.xs)
    box.setFixedHeight(height)


def _iconify(button: QAbstractButton, name: str, tooltip: str, color: str | None = None) -> None:
    button.setText("")
    button.setIcon(icon(name, color))
    button.setIconSize(QSize(18, 18))
    button.setToolTip(tooltip)
    button.setFixedSize(34, 34)


def _take(widget: QWidget) -> None:
    """Out of the layout its feature put it in (it is re-parented by the composer's)."""
    parent = widget.parentWidget()
    layouts = parent.findChildren(QLayout) if parent is not None else []
    for layout in layouts:
        if layout.indexOf(widget) >= 0:
            layout.removeWidget(widget)


def _layout_holding(parent: QLayout, widget: QWidget) -> QBoxLayout | None:
    for i in range(parent.count()):
        item = parent.itemAt(i)
        child = item.layout() if item is not None else None
        if isinstance(child, QBoxLayout) and child.indexOf(widget) >= 0:
            return child
    return None


def install(content: ComposerHost) -> Composer:
    box, send, stop = content.message_input, content.send_button, content.stop_button
    centre = box.parentWidget()
    column = centre.layout() if centre is not None else None
    assert isinstance(column, QBoxLayout)
    composer = Composer()
    # As wide as the conversation's column, under it (a readable width on a wide window).
    composer.setMaximumWidth(content.conversation_view.message_delegate.column_width
                             + 2 * SPACE.l)
    holder = QWidget()  # centres the composer: it takes up to its maximum, the sides the rest
    holder.setObjectName("composerRow")
    centring = QHBoxLayout(holder)
    centring.setContentsMargins(0, 0, 0, 0)
    centring.addStretch(1)
    centring.addWidget(composer, 100)
    centring.addStretch(1)
    column.insertWidget(column.indexOf(box), holder)
    column.removeWidget(box)
    composer.layout().insertWidget(0, box)  # type: ignore[union-attr]
    box.setMaximumHeight(16777215)
    box.document().documentLayout().documentSizeChanged.connect(lambda _size: _grow(box))
    _grow(box)
    controls = _layout_holding(column, content.model_selector)
    # Attach an image, a document, and the chat's tools: icons on the composer's left, each
    # taken from where its feature put it (their objectNames, menus and tooltips unchanged).
    for name, glyph, tip in (
            ("attachImageButton", "attach_image", ""),
            ("attachDocumentButton", "attach_document", ""),
            ("toolPicker", "tools", content.tr("Tools: which tool servers this chat may use"))):
        button = content.window.findChild(QAbstractButton, name)
        if button is not None:
            _take(button)
            if not button.accessibleName():  # its text goes: its name stays for readers
                button.setAccessibleName(button.text().replace("&", "").rstrip("…"))
            _iconify(button, glyph, tip or button.toolTip() or button.accessibleName())
            composer.add_tool_button(button)
    _iconify(stop, "stop", content.tr("Stop the reply (Esc)"))
    _iconify(send, "send", content.tr("Send"), current_colors().on_accent)
    composer.row.addWidget(stop)
    composer.row.addWidget(send)

    def swap(busy: bool) -> None:  # one place: Send, or Stop while a reply streams
        stop.setVisible(busy)
        send.setVisible(not busy)

    content.controller.busyChanged.connect(swap)
    swap(content.controller.busy)
    if controls is not None:  # the model picker and chat settings: at the top of the chat
        column.removeItem(controls)
        column.insertLayout(0, controls)
        # The window keeps the picker (its parent).
        picker = ModelPicker(content.model_selector, content.controller, content.window)
        controls.insertWidget(controls.indexOf(content.model_selector) + 1, picker.facts)

    def ring(snapshot: ContextSnapshot) -> None:
        usage = snapshot.usage
        if usage is not None:
            composer.ring.set_fill(usage.percent, content.context_meter.level,
                                   content.context_meter.toolTip())

    content.controller.contextChanged.connect(ring)
    return composer
